// A position's value on a given spot, written once for host and device: the
// portfolio's value today, its full revaluation in each scenario at the horizon,
// and the closed-form references.
#pragma once
#include <algorithm>
#include <cmath>

#include "models/option/bsm.hpp"
#include "rng/hd.hpp"

namespace mcsim::var {

// Digitals are cash-or-nothing: one unit of cash at maturity if the spot ends above
// (call) or below (put) the strike.
enum class Instrument : int { Stock, Forward, Call, Put, DigitalCall, DigitalPut };

MCSIM_HD bool is_vanilla(Instrument k) { return k == Instrument::Call || k == Instrument::Put; }
MCSIM_HD bool is_digital(Instrument k) { return k == Instrument::DigitalCall || k == Instrument::DigitalPut; }
// Valued by Black-Scholes-Merton, so at its asset's volatility.
MCSIM_HD bool is_option(Instrument k) { return is_vanilla(k) || is_digital(k); }

// One unit of an instrument on spot S = e^log_spot, given D (the discounted strike
// K e^{-r tau}; a digital's discounted cash e^{-r tau}), ln(K e^{-r tau}) and
// sd = sigma sqrt(tau) for tau years left: a stock is worth S, a forward (paying
// S_T - K at T) S - D, an option its Black-Scholes-Merton value at the asset's own
// volatility, no dividend. The one revaluation of every position, today on the
// host and at the horizon in every risk scenario (which computes D, ln(K e^{-r tau})
// and sd once per job).
template <class Real>
MCSIM_HD Real unit_value(Instrument kind, Real spot, Real log_spot, Real discounted, Real log_discounted_strike, Real sd) {
  switch (kind) {
    case Instrument::Stock: return spot;
    case Instrument::Forward: return spot - discounted;
    case Instrument::DigitalCall:
    case Instrument::DigitalPut:
      return option::digital_core(discounted, log_spot - log_discounted_strike, sd,
                                  kind == Instrument::DigitalCall ? Real(1) : Real(-1));
    default:
      return option::bsm_core(spot, discounted, log_spot - log_discounted_strike, sd,
                              kind == Instrument::Call ? Real(1) : Real(-1));
  }
}

// The terms unit_value takes besides the spot, for `remaining` years left.
struct UnitTerms {
  double discounted, log_discounted_strike, sd;
};
inline UnitTerms unit_terms(Instrument kind, double strike, double remaining, double rate, double volatility) {
  const double discount = std::exp(-rate * remaining), discounted_strike = strike * discount;
  return {is_digital(kind) ? discount : discounted_strike, discounted_strike > 0 ? std::log(discounted_strike) : 0.0,
          volatility * std::sqrt(std::max(remaining, 0.0))};
}

// `quantity` units with `remaining` years left to maturity (> 0 for forwards and
// options), at spot S, rate r and the asset's volatility.
inline double position_value(Instrument kind, double quantity, double strike, double remaining, double spot,
                             double rate, double volatility) {
  if (kind == Instrument::Stock) return quantity * spot;
  const UnitTerms t = unit_terms(kind, strike, remaining, rate, volatility);
  return quantity * unit_value(kind, spot, is_option(kind) ? std::log(spot) : 0.0, t.discounted,
                               t.log_discounted_strike, t.sd);
}

}  // namespace mcsim::var
