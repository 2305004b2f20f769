#include "reduce/stats.hpp"

#include <cmath>
#include <stdexcept>

#include "reduce/moments.hpp"

namespace mcsim::reduce {

std::vector<Estimate> estimates(const std::vector<double>& tally,
                                const std::vector<std::string>& names) {
  if (tally.size() != names.size() * kMomentFields)
    throw std::invalid_argument("estimates: tally size does not match its layout");
  std::vector<Estimate> out;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const double n = tally[kMomentFields * k];
    const double sum = tally[kMomentFields * k + 1];
    const double sum_sq = tally[kMomentFields * k + 2];
    Estimate e;
    e.name = names[k];
    e.samples = static_cast<std::uint64_t>(n);
    e.value = n > 0 ? sum / n : std::nan("");
    if (n > 1) {
      // Sample variance; clamp the rounding residue of a zero-variance output.
      const double var = std::fmax(0.0, (sum_sq - sum * e.value) / (n - 1));
      e.std_error = std::sqrt(var / n);
    } else {
      e.std_error = std::nan("");
    }
    e.ci_low = e.value - kZ95 * e.std_error;
    e.ci_high = e.value + kZ95 * e.std_error;
    out.push_back(e);
  }
  return out;
}

}  // namespace mcsim::reduce
