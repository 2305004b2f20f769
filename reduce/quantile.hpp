// Exact quantiles and expected shortfall without keeping every sample, in passes
// over the same (regenerable) samples:
//   1. a histogram of fixed bins (integer counts: it adds like any other tally);
//   2. the samples of the few bins that hold the wanted order statistics, sorted,
//      and the exact sum of every sample above them.
// VaR at level a of N samples is the k-th smallest, k = ceil(a N); expected
// shortfall is the mean of the upper tail of weight (1 - a) N, the k-th sample
// counted for its fraction k - a N (Acerbi-Tasche). So both equal the figures of
// the fully sorted samples.
#pragma once
#include <cstdint>
#include <vector>

namespace mcsim::reduce {

// Bins of equal width over [lo, hi), plus an underflow bin (index 0) and an
// overflow bin (index bins + 1). Fixed before a pass, so every chunk bins alike.
struct Bins {
  double lo, hi;
  int bins;
  int of(double x) const {
    if (!(x >= lo)) return 0;  // NaN counts low, where a check will see it
    if (x >= hi) return bins + 1;
    const double t = (x - lo) / (hi - lo) * bins;  // NaN where the bounds are not finite
    if (!(t < bins)) return t == t ? bins : 0;
    return 1 + static_cast<int>(t);
  }
  int size() const { return bins + 2; }
  // Bin b holds [low(b), high(b)); the end bins reach out to -inf and +inf.
  double low(int b) const;
  double high(int b) const;
};

// The rank of level a's order statistic among n samples, k = ceil(a n) (from 1),
// and the ranks that bound it with 95% confidence (the binomial band
// a n -+ 1.96 sqrt(n a (1 - a)), within [1, n]).
struct LevelRanks {
  std::uint64_t k, lo, hi;
};
LevelRanks level_ranks(double level, std::uint64_t n);

// Where the rank-th smallest sample lies in a histogram: its bin, and how many
// samples lie in the bins below.
struct Located {
  int bin;
  std::uint64_t below;
};
Located locate(const std::vector<std::uint64_t>& counts, std::uint64_t rank);

// ES from VaR = the k-th smallest of n samples and the sum of the samples ranked
// above k.
double expected_shortfall(double level, std::uint64_t n, std::uint64_t k, double var, double sum_above);

}  // namespace mcsim::reduce
