// A position's value on a given spot, written once for host and device: the
// portfolio's value today, its full revaluation in each scenario at the horizon,
// and the closed-form references.
#pragma once
#include "models/option/bsm.hpp"
#include "rng/hd.hpp"

namespace mcsim::var {

enum class Instrument : int { Stock, Forward, Call, Put };

// One unit of an instrument on spot S = e^log_spot, given its discounted strike
// D = K e^{-r tau}, ln D, and sd = sigma sqrt(tau) for tau years left: a stock is
// worth S, a forward (paying S_T - K at T) S - D, an option its Black-Scholes-
// Merton value at the asset's own volatility, no dividend. The one revaluation of
// every position, today on the host and at the horizon in every risk scenario
// (which computes D, ln D and sd once per job).
template <class Real>
MCSIM_HD Real unit_value(Instrument kind, Real spot, Real log_spot, Real discounted, Real log_discounted, Real sd) {
  switch (kind) {
    case Instrument::Stock: return spot;
    case Instrument::Forward: return spot - discounted;
    default: return option::bsm_core(spot, discounted, log_spot - log_discounted, sd, kind == Instrument::Call ? Real(1) : Real(-1));
  }
}

// `quantity` units with `remaining` years left to maturity (> 0 for forwards and
// options), at spot S, rate r and the asset's volatility.
template <class Real>
MCSIM_HD Real position_value(Instrument kind, Real quantity, Real strike, Real remaining, Real spot, Real rate,
                             Real volatility) {
  if (kind == Instrument::Stock) return quantity * spot;
  const Real discounted = strike * exp(-rate * remaining);
  const bool option = kind != Instrument::Forward;
  return quantity * unit_value(kind, spot, option ? log(spot) : Real(0), discounted,
                               option ? log(discounted) : Real(0), volatility * sqrt(remaining));
}

}  // namespace mcsim::var
