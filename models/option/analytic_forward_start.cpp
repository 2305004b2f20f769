// Forward-start options and locally capped and floored cliquets under GBM: a
// return over [t0, t1] is independent of the spot at t0 and lognormal, so each is
// Black-Scholes on a spot of one.
#include <cmath>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {
// E[max(S_1/S_0 - k, 0)] over dt years: e^{r dt} times the call on a unit spot
// struck at k (for k <= 0, the expected return less k; for k = +inf, zero).
double return_call(const BsmInput& in, double dt, double k) {
  if (std::isinf(k)) return 0;
  if (k <= 0) return std::exp((in.rate - in.dividend) * dt) - k;
  return std::exp(in.rate * dt) * bsm_price({1, k, in.rate, in.dividend, in.volatility, dt, true});
}
}  // namespace

double forward_start_price(const BsmInput& in, double start) {
  BsmInput unit = in;
  unit.spot = 1;
  unit.maturity = in.maturity - start;
  return in.spot * std::exp(-in.dividend * start) * bsm_price(unit);
}

double cliquet_price(const BsmInput& in, const std::vector<double>& resets, double local_floor, double local_cap) {
  // clip(R) = floor + max(R - floor, 0) - max(R - cap, 0), R = S_i/S_{i-1} - 1.
  double sum = 0, before = 0;
  for (const double t : resets) {
    sum += local_floor + return_call(in, t - before, 1 + local_floor) - return_call(in, t - before, 1 + local_cap);
    before = t;
  }
  return std::exp(-in.rate * in.maturity) * sum;
}

}  // namespace mcsim::option
