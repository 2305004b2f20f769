#include "reduce/quantile.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mcsim::reduce {

void histogram_add(const Bins& bins, double x, double* tally) {
  const int b = bins.of(x);
  tally[2 * b] += 1;
  tally[2 * b + 1] += x;
}

std::vector<QuantileSlot> locate_quantiles(const Bins& bins, const std::vector<double>& tally,
                                           const std::vector<double>& levels) {
  if (tally.size() != static_cast<std::size_t>(2 * bins.size()))
    throw std::invalid_argument("locate_quantiles: the tally does not match the bins");
  std::uint64_t total = 0;
  for (int b = 0; b < bins.size(); ++b) total += static_cast<std::uint64_t>(tally[2 * b]);
  std::vector<QuantileSlot> out;
  for (double a : levels) {
    QuantileSlot s{a, 0, 0, 0, 0, 0.0, 0};
    // ceil(a N) without the rounding of a N itself tipping over an integer.
    const long double exact = static_cast<long double>(a) * static_cast<long double>(total);
    s.rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(exact)));
    std::uint64_t below = 0;
    for (int b = 0; b < bins.size(); ++b) {
      const auto n = static_cast<std::uint64_t>(tally[2 * b]);
      if (below + n >= s.rank) {
        s.bin = b, s.rank_in_bin = s.rank - below, s.bin_count = n;
        break;
      }
      below += n;
    }
    for (int b = s.bin + 1; b < bins.size(); ++b) {
      s.sum_above += tally[2 * b + 1];
      s.count_above += static_cast<std::uint64_t>(tally[2 * b]);
    }
    out.push_back(s);
  }
  return out;
}

TailFigures exact_tail(const QuantileSlot& slot, std::vector<double> in_bin, std::uint64_t total) {
  if (in_bin.size() != slot.bin_count)
    throw std::runtime_error("exact_tail: the second pass kept " + std::to_string(in_bin.size()) +
                             " samples of the bin, the first counted " + std::to_string(slot.bin_count));
  std::sort(in_bin.begin(), in_bin.end());
  const std::size_t k = slot.rank_in_bin - 1;
  TailFigures out{in_bin[k], 0};
  // The tail of weight (1 - a) N: every sample ranked above k, and the k-th for
  // the part k - a N of it.
  double above = slot.sum_above;
  for (std::size_t i = k + 1; i < in_bin.size(); ++i) above += in_bin[i];
  const long double weight = (1.0L - slot.level) * static_cast<long double>(total);
  const long double fraction = static_cast<long double>(slot.rank) - static_cast<long double>(slot.level) * total;
  out.es = static_cast<double>((above + fraction * out.var) / weight);
  return out;
}

}  // namespace mcsim::reduce
