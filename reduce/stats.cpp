#include "reduce/stats.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "reduce/moments.hpp"

namespace mcsim::reduce {

Estimate normal_estimate(const std::string& name, double value, double std_error, std::uint64_t samples) {
  return {name, value, std_error, value - kZ95 * std_error, value + kZ95 * std_error, samples};
}

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

ControlVariate control_variate(const std::vector<double>& tally, int y, int c, int yc, double control_mean,
                               const std::string& name) {
  const auto at = [&](int k, int field) { return tally[static_cast<std::size_t>(kMomentFields * k + field)]; };
  const double n = at(y, 0);
  const double my = at(y, 1) / n, mc = at(c, 1) / n;
  const double var_y = (at(y, 2) - n * my * my) / (n - 1);
  const double var_c = (at(c, 2) - n * mc * mc) / (n - 1);
  const double cov = (at(yc, 1) - n * my * mc) / (n - 1);
  ControlVariate out;
  out.beta = var_c > 0 ? cov / var_c : 0.0;
  const double var_resid = std::fmax(0.0, var_y - out.beta * cov);  // Var(Y) - Cov^2 / Var(C)
  Estimate& e = out.estimate;
  e.name = name;
  e.samples = static_cast<std::uint64_t>(n);
  e.value = my - out.beta * (mc - control_mean);
  // One degree of freedom more is spent on beta.
  e.std_error = n > 2 ? std::sqrt(var_resid * (n - 1) / (n - 2) / n) : std::nan("");
  e.ci_low = e.value - kZ95 * e.std_error;
  e.ci_high = e.value + kZ95 * e.std_error;
  out.variance_reduction = var_resid > 0 ? var_y / var_resid : std::numeric_limits<double>::infinity();
  return out;
}

double antithetic_variance_reduction(const std::vector<double>& tally, int pair, int single) {
  const auto variance = [&](int k) {
    const double n = tally[3 * k], sum = tally[3 * k + 1], sum_sq = tally[3 * k + 2];
    return (sum_sq - sum * sum / n) / (n - 1);
  };
  const double pairs = variance(pair);
  return pairs > 0 ? variance(single) / (2 * pairs) : std::numeric_limits<double>::infinity();
}

}  // namespace mcsim::reduce
