// Merton's (1976) jump diffusion: given n jumps by T, ln S_T is normal with the
// diffusion's variance plus n jump variances, so the price is Black's formula
// averaged over the Poisson number of jumps.
#include <cmath>

#include "models/option/analytic.hpp"
#include "models/option/bsm.hpp"

namespace mcsim::option {

double Jumps::compensator() const { return std::exp(mean + 0.5 * vol * vol) - 1; }

double merton_price(const BsmInput& in, const Jumps& j) {
  const double t = in.maturity, lt = j.intensity * t, w = in.call ? 1.0 : -1.0;
  // The forward without jumps, compensated so that the jumps leave E[S_T] alone.
  const double log_forward = std::log(in.spot) + (in.rate - in.dividend - j.intensity * j.compensator()) * t;
  const double discount = std::exp(-in.rate * t), log_k = std::log(in.strike);
  double weight = std::exp(-lt), left = 1, price = 0;
  for (int n = 0; n < 1000; ++n) {
    // F_n = E[S_T | n jumps]; Black on F_n with variance sigma^2 T + n vol^2.
    const double log_fn = log_forward + n * (j.mean + 0.5 * j.vol * j.vol);
    const double sd = std::sqrt(in.volatility * in.volatility * t + n * j.vol * j.vol);
    price += weight * discount * bsm_core(std::exp(log_fn), in.strike, log_fn - log_k, sd, w);
    left -= weight;
    if (n > lt && weight < 1e-16 && left < 1e-16) break;
    weight *= lt / (n + 1);
  }
  return price;
}

}  // namespace mcsim::option
