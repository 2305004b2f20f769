// A position's value on a given spot, written once for host and device: the
// portfolio's value today, its full revaluation in each scenario at the horizon,
// and the closed-form references.
#pragma once
#include <algorithm>
#include <cmath>

#include "models/option/barrier.hpp"
#include "models/option/bsm.hpp"
#include "rng/hd.hpp"

namespace mcsim::var {

// Digitals are cash-or-nothing: one unit of cash at maturity if the spot ends above
// (call) or below (put) the strike. Barriers are single continuously monitored
// barriers without rebate, in option::BarrierKind's order, call then put.
enum class Instrument : int {
  Stock, Forward, Call, Put, DigitalCall, DigitalPut,
  DownOutCall, DownOutPut, UpOutCall, UpOutPut, DownInCall, DownInPut, UpInCall, UpInPut
};

MCSIM_HD bool is_vanilla(Instrument k) { return k == Instrument::Call || k == Instrument::Put; }
MCSIM_HD bool is_digital(Instrument k) { return k == Instrument::DigitalCall || k == Instrument::DigitalPut; }
MCSIM_HD bool is_barrier(Instrument k) { return static_cast<int>(k) >= static_cast<int>(Instrument::DownOutCall); }
// Valued by Black-Scholes-Merton, so at its asset's volatility.
MCSIM_HD bool is_option(Instrument k) { return k != Instrument::Stock && k != Instrument::Forward; }
MCSIM_HD bool is_call(Instrument k) {
  return k == Instrument::Call || k == Instrument::DigitalCall ||
         (is_barrier(k) && (static_cast<int>(k) - static_cast<int>(Instrument::DownOutCall)) % 2 == 0);
}
MCSIM_HD option::BarrierKind barrier_of(Instrument k) {
  return static_cast<option::BarrierKind>((static_cast<int>(k) - static_cast<int>(Instrument::DownOutCall)) / 2);
}
inline Instrument barrier_instrument(option::BarrierKind b, bool call) {
  return static_cast<Instrument>(static_cast<int>(Instrument::DownOutCall) + 2 * static_cast<int>(b) + (call ? 0 : 1));
}

// What a unit's value takes besides the spot, for tau years left: D (the
// discounted strike K e^{-r tau}; a digital's discounted cash e^{-r tau}),
// ln(K e^{-r tau}), sd = sigma sqrt(tau), for barriers ln K, ln H and
// mu = (r - sigma^2 / 2) / sigma^2, and 1 / sd (0 for a stock or a forward).
constexpr int kUnitTerms = 7;

// One unit of an instrument on spot S = e^log_spot: a stock is worth S, a forward
// (paying S_T - K at T) S - D, an option its Black-Scholes-Merton value at the
// asset's own volatility, no dividend. A barrier beyond its level at the horizon is
// knocked: out-options are worth nothing, in-options the vanilla (the path between
// today and the horizon is not simulated, so only the horizon's spot is checked).
// The one revaluation of every position, today on the host and at the horizon in
// every risk scenario (which computes the terms u once per job).
template <class Real>
MCSIM_HD Real unit_value(Instrument kind, Real spot, Real log_spot, const Real* u) {
  const Real discounted = u[0], log_discounted_strike = u[1], sd = u[2], inv_sd = u[6];
  const Real w = is_call(kind) ? Real(1) : Real(-1);
  const Real d1 = (log_spot - log_discounted_strike) * inv_sd + Real(0.5) * sd;  // the vanilla's and the digital's
  switch (kind) {
    case Instrument::Stock: return spot;
    case Instrument::Forward: return spot - discounted;
    case Instrument::Call:
    case Instrument::Put: return option::bsm_of_d1(spot, discounted, d1, sd, w);
    case Instrument::DigitalCall:
    case Instrument::DigitalPut: return option::digital_of_d2(discounted, d1 - sd, w);
    default: {
      const option::BarrierKind b = barrier_of(kind);
      const bool down = option::is_down(b);
      const Real log_strike = u[3], log_barrier = u[4], mu = u[5];
      if (down ? log_spot <= log_barrier : log_spot >= log_barrier)
        return option::is_out(b) ? Real(0) : option::bsm_of_d1(spot, discounted, d1, sd, w);
      const auto t = option::barrier_terms(spot, discounted, log_spot, log_strike, log_barrier, sd, mu, w > Real(0), down);
      return option::barrier_value(t, w > Real(0), b, log_strike > log_barrier);
    }
  }
}

// The terms above for `remaining` years left (a barrier at level `barrier`).
struct UnitTerms {
  double u[kUnitTerms];
};
inline UnitTerms unit_terms(Instrument kind, double strike, double barrier, double remaining, double rate,
                            double volatility) {
  const double discount = std::exp(-rate * remaining), discounted_strike = strike * discount;
  const double sd = volatility * std::sqrt(std::max(remaining, 0.0));
  UnitTerms t{{is_digital(kind) ? discount : discounted_strike, discounted_strike > 0 ? std::log(discounted_strike) : 0.0, sd,
               0, 0, 0, is_option(kind) && sd > 0 ? 1 / sd : 0.0}};
  if (is_barrier(kind)) {
    t.u[3] = std::log(strike), t.u[4] = std::log(barrier);
    t.u[5] = (rate - 0.5 * volatility * volatility) / (volatility * volatility);
  }
  return t;
}

// `quantity` units with `remaining` years left to maturity (> 0 for forwards and
// options), at spot S, rate r and the asset's volatility.
inline double position_value(Instrument kind, double quantity, double strike, double barrier, double remaining,
                             double spot, double rate, double volatility) {
  if (kind == Instrument::Stock) return quantity * spot;
  const UnitTerms t = unit_terms(kind, strike, barrier, remaining, rate, volatility);
  return quantity * unit_value(kind, spot, is_option(kind) ? std::log(spot) : 0.0, t.u);
}

}  // namespace mcsim::var
