// Exact quantiles and expected shortfall without keeping every sample, in two
// passes over the same (regenerable) samples:
//   1. a histogram tally of fixed bins, with the count and the sum of the samples
//      in each (it adds like any other tally, so chunks and ranks combine it);
//   2. for each wanted level, the samples of the one bin that holds its order
//      statistic, sorted: the exact k-th smallest, whatever the bin width.
// VaR at level a of N samples is the k-th smallest, k = ceil(a N); expected
// shortfall is the mean of the upper tail of weight (1 - a) N, the k-th sample
// counted for its fraction k - a N (Acerbi-Tasche). So both equal the figures
// from the fully sorted samples, bit for bit for VaR.
#pragma once
#include <cstdint>
#include <vector>

namespace mcsim::reduce {

// Bins of equal width over [lo, hi), plus an underflow bin (index 0) and an
// overflow bin (index bins + 1). Fixed before the first pass (from a cheap
// estimate of the spread), so every chunk bins alike.
struct Bins {
  double lo, hi;
  int bins;
  int of(double x) const {
    if (!(x >= lo)) return 0;  // NaN counts low, where a check will see it
    if (x >= hi) return bins + 1;
    const int b = 1 + static_cast<int>((x - lo) / (hi - lo) * bins);
    return b > bins ? bins : b;
  }
  int size() const { return bins + 2; }
};

// The first pass's tally: count, then sum, of each bin (2 * bins.size() doubles).
void histogram_add(const Bins& bins, double x, double* tally);

// Where level a's order statistic lies after the first pass.
struct QuantileSlot {
  double level;
  std::uint64_t rank;         // k = ceil(a N), from 1
  int bin;                    // the bin holding the k-th smallest
  std::uint64_t rank_in_bin;  // its rank among that bin's samples, from 1
  std::uint64_t bin_count;    // the samples the second pass must keep
  double sum_above;           // the sum of every sample in bins above `bin`
  std::uint64_t count_above;
};
std::vector<QuantileSlot> locate_quantiles(const Bins& bins, const std::vector<double>& tally,
                                           const std::vector<double>& levels);

struct TailFigures {
  double var, es;
};
// From the second pass: `in_bin` holds every sample of slot.bin (any order).
TailFigures exact_tail(const QuantileSlot& slot, std::vector<double> in_bin, std::uint64_t total);

}  // namespace mcsim::reduce
