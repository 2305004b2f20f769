// The Black-Scholes-Merton price, written once for host and device: the closed-form
// reference of every European, and the revaluation of options inside a risk
// scenario. (Greeks and the other closed forms are host-only: analytic.hpp.)
#pragma once
#include <cmath>

#include "rng/hd.hpp"

namespace mcsim::option {

// d1 of the formula; d2 = d1 - sigma sqrt(tau). The Greeks (analytic.cpp) share it.
template <class Real>
MCSIM_HD Real bsm_d1(Real spot, Real strike, Real rate, Real dividend, Real sigma, Real tau) {
  return (log(spot / strike) + (rate - dividend + Real(0.5) * sigma * sigma) * tau) / (sigma * sqrt(tau));
}

// The standard normal distribution function N(x) = erfc(-x / sqrt 2) / 2. In
// float, Abramowitz and Stegun 26.2.17 instead (absolute error below 7.5e-8, about
// float's own rounding of N): a quarter of erfcf's instructions, in the loop that
// revalues every option of every risk scenario.
template <class Real>
MCSIM_HD Real std_normal_cdf(Real x);
template <>
MCSIM_HD double std_normal_cdf<double>(double x) {
  return 0.5 * erfc(-x * 0.7071067811865476);
}
template <>
MCSIM_HD float std_normal_cdf<float>(float x) {
  const float a = fabsf(x), t = 1.0f / (1.0f + 0.2316419f * a);
  const float poly = t * (0.319381530f + t * (-0.356563782f + t * (1.781477937f + t * (-1.821255978f + t * 1.330274429f))));
  const float below = 0.3989422804f * expf(-0.5f * a * a) * poly;  // N(-|x|)
  return x < 0.0f ? below : 1.0f - below;
}

// The formula's core, from the discounted forward spot F = S e^{-q tau}, the
// discounted strike D = K e^{-r tau}, log(F / D) and sd = sigma sqrt(tau) > 0:
// w (F N(w d1) - D N(w d2)), w = +1 for a call and -1 for a put. A risk scenario
// revalues through it with everything but the spot computed once per job.
// bsm_of_d1 takes d1 itself: a risk scenario's, from log(F / D) times a 1 / sd
// computed once per job (a division costs as much as an erfc in double).
template <class Real>
MCSIM_HD Real bsm_of_d1(Real forward_spot, Real discounted_strike, Real d1, Real sd, Real w) {
  const Real d2 = d1 - sd;
  return w * (forward_spot * std_normal_cdf(w * d1) - discounted_strike * std_normal_cdf(w * d2));
}
template <class Real>
MCSIM_HD Real bsm_core(Real forward_spot, Real discounted_strike, Real log_ratio, Real sd, Real w) {
  return bsm_of_d1(forward_spot, discounted_strike, log_ratio / sd + Real(0.5) * sd, sd, w);
}

// A cash-or-nothing digital paying 1 at expiry, from its discount factor e^{-r tau},
// log(F / D) and sd as bsm_core takes them: e^{-r tau} N(w d2).
template <class Real>
MCSIM_HD Real digital_of_d2(Real discount, Real d2, Real w) {
  return discount * std_normal_cdf(w * d2);
}
template <class Real>
MCSIM_HD Real digital_core(Real discount, Real log_ratio, Real sd, Real w) {
  return digital_of_d2(discount, log_ratio / sd - Real(0.5) * sd, w);
}

// A call (put) on spot S struck at K with `tau` years left, rate r, dividend
// yield q, volatility sigma; tau <= 0 gives the intrinsic value.
template <class Real>
MCSIM_HD Real bsm_value(Real spot, Real strike, Real rate, Real dividend, Real sigma, Real tau, bool call) {
  const Real w = call ? Real(1) : Real(-1);
  if (!(tau > Real(0))) {
    const Real paid = w * (spot - strike);
    return paid > Real(0) ? paid : Real(0);
  }
  const Real forward = spot * exp(-dividend * tau), discounted = strike * exp(-rate * tau);
  return bsm_core(forward, discounted, log(spot / strike) + (rate - dividend) * tau, sigma * sqrt(tau), w);
}

}  // namespace mcsim::option
