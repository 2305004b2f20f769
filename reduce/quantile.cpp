#include "reduce/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mcsim::reduce {

double Bins::low(int b) const {
  return b == 0 ? -std::numeric_limits<double>::infinity() : lo + (hi - lo) * (b - 1) / bins;
}
double Bins::high(int b) const {
  return b > bins ? std::numeric_limits<double>::infinity() : b == bins ? hi : lo + (hi - lo) * b / bins;
}

LevelRanks level_ranks(double level, std::uint64_t n) {
  // ceil(a n) without the rounding of a n itself tipping over an integer: 0.9 is
  // 0.90000000000000002 as a double, and 0.9 x 10 must give rank 9, not 10.
  long double exact = static_cast<long double>(level) * static_cast<long double>(n);
  const long double nearest = std::round(exact);
  if (std::fabs(exact - nearest) <= 1e-12L * std::max<long double>(1, exact)) exact = nearest;
  const long double half = 1.959963984540054L * std::sqrt(exact * (1 - static_cast<long double>(level)));
  const auto clamp = [&](long double r) {
    return static_cast<std::uint64_t>(std::clamp<long double>(r, 1, static_cast<long double>(n)));
  };
  return {clamp(std::ceil(exact)), clamp(std::floor(exact - half)), clamp(std::ceil(exact + half))};
}

Located locate(const std::vector<std::uint64_t>& counts, std::uint64_t rank) {
  std::uint64_t below = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (below + counts[b] >= rank) return {static_cast<int>(b), below};
    below += counts[b];
  }
  throw std::out_of_range("locate: rank " + std::to_string(rank) + " of " + std::to_string(below) + " samples");
}

double expected_shortfall(double level, std::uint64_t n, std::uint64_t k, double var, double sum_above) {
  // The tail of weight (1 - a) n: every sample ranked above k, and the k-th for
  // the part k - a n of it.
  const long double weight = (1.0L - level) * static_cast<long double>(n);
  const long double fraction = static_cast<long double>(k) - static_cast<long double>(level) * n;
  return static_cast<double>((sum_above + fraction * var) / weight);
}

}  // namespace mcsim::reduce
