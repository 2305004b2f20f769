// Continuously monitored lookback options under GBM (Haug's forms; b = r - q != 0).
#include <cmath>
#include <stdexcept>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {
struct Common {
  double S, T, r, b, v, sd, carry, df, k;  // k = sigma^2 / (2b)
};
Common common(const BsmInput& in) {
  Common c;
  c.S = in.spot, c.T = in.maturity, c.r = in.rate, c.b = in.rate - in.dividend, c.v = in.volatility;
  if (std::fabs(c.b) < 1e-12) throw std::invalid_argument("lookback formulas need r - q != 0");
  c.sd = c.v * std::sqrt(c.T);
  c.carry = c.S * std::exp((c.b - c.r) * c.T);
  c.df = std::exp(-c.r * c.T);
  c.k = c.v * c.v / (2 * c.b);
  return c;
}
double d_of(const Common& c, double level) { return (std::log(c.S / level) + (c.b + 0.5 * c.v * c.v) * c.T) / c.sd; }
}  // namespace

double lookback_floating_price(const BsmInput& in, double m) {
  const Common c = common(in);
  const auto N = normal_cdf;
  const double a1 = d_of(c, m), a2 = a1 - c.sd, pw = std::pow(c.S / m, -2 * c.b / (c.v * c.v));
  const double shift = 2 * c.b * std::sqrt(c.T) / c.v;
  if (in.call)  // pays S_T - min, m = running minimum
    return c.carry * N(a1) - m * c.df * N(a2) + c.S * c.df * c.k * (pw * N(-a1 + shift) - std::exp(c.b * c.T) * N(-a1));
  // pays max - S_T, m = running maximum
  return -c.carry * N(-a1) + m * c.df * N(-a2) + c.S * c.df * c.k * (-pw * N(a1 - shift) + std::exp(c.b * c.T) * N(a1));
}

double lookback_fixed_price(const BsmInput& in, double m) {
  const Common c = common(in);
  const auto N = normal_cdf;
  const double X = in.strike, shift = 2 * c.b * std::sqrt(c.T) / c.v;
  if (in.call) {  // pays max(max S - X, 0), m = running maximum
    const double level = X > m ? X : m, d1 = d_of(c, level), pw = std::pow(c.S / level, -2 * c.b / (c.v * c.v));
    const double inner = c.carry * N(d1) - level * c.df * N(d1 - c.sd) +
                         c.S * c.df * c.k * (-pw * N(d1 - shift) + std::exp(c.b * c.T) * N(d1));
    return X > m ? inner : c.df * (m - X) + inner;
  }
  // pays max(X - min S, 0), m = running minimum
  const double level = X < m ? X : m, d1 = d_of(c, level), pw = std::pow(c.S / level, -2 * c.b / (c.v * c.v));
  const double inner = -c.carry * N(-d1) + level * c.df * N(-d1 + c.sd) +
                       c.S * c.df * c.k * (pw * N(-d1 + shift) - std::exp(c.b * c.T) * N(-d1));
  return X < m ? inner : c.df * (X - m) + inner;
}

}  // namespace mcsim::option
