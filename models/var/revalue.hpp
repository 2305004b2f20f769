// A position's value on a given spot, written once for host and device: the
// portfolio's value today, its full revaluation in each scenario at the horizon,
// and the closed-form references.
#pragma once
#include "models/option/bsm.hpp"
#include "rng/hd.hpp"

namespace mcsim::var {

enum class Instrument : int { Stock, Forward, Call, Put };

// `remaining`: years left to maturity (forwards and options). A forward pays
// S_T - K at T: worth S - K e^{-r remaining} now. Options are Black-Scholes-Merton
// at the asset's own volatility, no dividend.
template <class Real>
MCSIM_HD Real position_value(Instrument kind, Real quantity, Real strike, Real remaining, Real spot, Real rate,
                             Real volatility) {
  switch (kind) {
    case Instrument::Stock: return quantity * spot;
    case Instrument::Forward: return quantity * (spot - strike * exp(-rate * remaining));
    default:
      return quantity * option::bsm_value(spot, strike, rate, Real(0), volatility, remaining, kind == Instrument::Call);
  }
}

}  // namespace mcsim::var
