// Geometric Asian options: under GBM ln G = mean of ln S(t_i) is normal with
// mean ln S0 + (r - q - sigma^2/2) mean(t_i) and variance sigma^2 mean_ij min(t_i, t_j).
#include <cmath>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {
// Black's formula on a lognormal G with E ln G = m and Var ln G = v.
double black_on_moments(const BsmInput& in, double m, double v) {
  const double sd = std::sqrt(v);
  const double d2 = (m - std::log(in.strike)) / sd, d1 = d2 + sd;
  const double w = in.call ? 1.0 : -1.0;
  const double forward = std::exp(m + 0.5 * v);
  return std::exp(-in.rate * in.maturity) * w * (forward * normal_cdf(w * d1) - in.strike * normal_cdf(w * d2));
}
}  // namespace

double geometric_asian_price(const BsmInput& in, const std::vector<double>& times) {
  const double n = static_cast<double>(times.size());
  const double mu = in.rate - in.dividend - 0.5 * in.volatility * in.volatility;
  double mean_t = 0, cov = 0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    mean_t += times[i] / n;
    for (std::size_t j = 0; j < times.size(); ++j) cov += std::fmin(times[i], times[j]) / (n * n);
  }
  return black_on_moments(in, std::log(in.spot) + mu * mean_t, in.volatility * in.volatility * cov);
}

double geometric_asian_continuous_price(const BsmInput& in) {
  const double mu = in.rate - in.dividend - 0.5 * in.volatility * in.volatility;
  return black_on_moments(in, std::log(in.spot) + 0.5 * mu * in.maturity,
                          in.volatility * in.volatility * in.maturity / 3.0);
}

}  // namespace mcsim::option
