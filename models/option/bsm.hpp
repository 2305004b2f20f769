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

// A call (put) on spot S struck at K with `tau` years left, rate r, dividend
// yield q, volatility sigma; tau <= 0 gives the intrinsic value.
template <class Real>
MCSIM_HD Real bsm_value(Real spot, Real strike, Real rate, Real dividend, Real sigma, Real tau, bool call) {
  const Real w = call ? Real(1) : Real(-1);
  if (!(tau > Real(0))) {
    const Real paid = w * (spot - strike);
    return paid > Real(0) ? paid : Real(0);
  }
  const Real d1 = bsm_d1(spot, strike, rate, dividend, sigma, tau), d2 = d1 - sigma * sqrt(tau);
  const Real root_half = Real(0.7071067811865476);  // N(x) = erfc(-x / sqrt 2) / 2
  return w * (spot * exp(-dividend * tau) * Real(0.5) * erfc(-w * d1 * root_half) -
              strike * exp(-rate * tau) * Real(0.5) * erfc(-w * d2 * root_half));
}

}  // namespace mcsim::option
