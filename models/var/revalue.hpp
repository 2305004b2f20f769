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
// barriers without rebate, in option::BarrierKind's order, call then put. Asians
// pay on the geometric average of fixings evenly spaced from today to maturity. An
// exchange is on two assets: it pays max(S_T - S'_T, 0) for its asset S and the
// other S' (Margrabe's option to give one S' for one S). Bonds, caps, floors and
// swaptions are on a short-rate factor, valued as legs (rate_legs.hpp).
enum class Instrument : int {
  Stock, Forward, Call, Put, DigitalCall, DigitalPut,
  DownOutCall, DownOutPut, UpOutCall, UpOutPut, DownInCall, DownInPut, UpInCall, UpInPut,
  AsianCall, AsianPut, Exchange,
  Bond, Cap, Floor, PayerSwaption, ReceiverSwaption
};

MCSIM_HD bool is_vanilla(Instrument k) { return k == Instrument::Call || k == Instrument::Put; }
MCSIM_HD bool is_digital(Instrument k) { return k == Instrument::DigitalCall || k == Instrument::DigitalPut; }
MCSIM_HD bool is_barrier(Instrument k) {
  return static_cast<int>(k) >= static_cast<int>(Instrument::DownOutCall) &&
         static_cast<int>(k) <= static_cast<int>(Instrument::UpInPut);
}
MCSIM_HD bool is_asian(Instrument k) { return k == Instrument::AsianCall || k == Instrument::AsianPut; }
MCSIM_HD bool is_pair(Instrument k) { return k == Instrument::Exchange; }
MCSIM_HD bool is_rate(Instrument k) { return static_cast<int>(k) >= static_cast<int>(Instrument::Bond); }
// Valued by Black-Scholes-Merton, so at its asset's volatility.
MCSIM_HD bool is_option(Instrument k) { return k != Instrument::Stock && k != Instrument::Forward && !is_rate(k); }
MCSIM_HD bool is_call(Instrument k) {
  return k == Instrument::Call || k == Instrument::DigitalCall || k == Instrument::AsianCall ||
         (is_barrier(k) && (static_cast<int>(k) - static_cast<int>(Instrument::DownOutCall)) % 2 == 0);
}
MCSIM_HD option::BarrierKind barrier_of(Instrument k) {
  return static_cast<option::BarrierKind>((static_cast<int>(k) - static_cast<int>(Instrument::DownOutCall)) / 2);
}
// Whether a unit's value grows without bound with a spot (a short one's loss then
// has no mean under Student-t shocks): stocks, forwards, exchanges, calls that
// cannot be knocked out above, and what grows as rates fall without bound (bonds,
// floors, receiver swaptions; a rate factor's level is normal, a bond's lognormal).
inline bool unbounded_value(Instrument k) {
  if (k == Instrument::Stock || k == Instrument::Forward || k == Instrument::Exchange) return true;
  if (is_rate(k)) return k == Instrument::Bond || k == Instrument::Floor || k == Instrument::ReceiverSwaption;
  if (is_digital(k) || !is_call(k)) return false;
  return !(is_barrier(k) && barrier_of(k) == option::BarrierKind::UpOut);
}
inline Instrument barrier_instrument(option::BarrierKind b, bool call) {
  return static_cast<Instrument>(static_cast<int>(Instrument::DownOutCall) + 2 * static_cast<int>(b) + (call ? 0 : 1));
}

// What a unit's value takes besides the spot, for tau years left: D (the
// discounted strike K e^{-r tau}; a digital's discounted cash e^{-r tau}),
// ln(K e^{-r tau}), sd = sigma sqrt(tau) (an Asian's: of its log average), for
// barriers ln K, ln H and mu = (r - sigma^2 / 2) / sigma^2, for Asians a and b of
// the log of the average's discounted forward, a + b ln S, and 1 / sd (0 for a
// stock or a forward).
constexpr int kUnitTerms = 7;

// One unit of an instrument on spot S = e^log_spot: a stock is worth S, a forward
// (paying S_T - K at T) S - D, an option its Black-Scholes-Merton value at the
// asset's own volatility, no dividend. A barrier beyond its level at the horizon is
// knocked: out-options are worth nothing, in-options the vanilla (the path between
// today and the horizon is not simulated, so only the horizon's spot is checked).
// An Asian is Black's value on its lognormal average (average_moments).
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
    case Instrument::AsianCall:
    case Instrument::AsianPut: {
      const Real log_forward = u[3] + u[4] * log_spot;
      return option::bsm_of_d1(Real(exp(log_forward)), discounted, (log_forward - log_discounted_strike) * inv_sd + Real(0.5) * sd,
                               sd, w);
    }
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

// A unit on two factors, at their levels S and S' (log levels x, x'). An exchange:
// Margrabe's value, Black-Scholes-Merton with S' for the discounted strike and the
// volatility of ln(S / S') (unit_terms' sd and 1 / sd). An option or digital whose
// implied volatility is the other factor's level sigma: its terms are taken at
// volatility 1, so sd and 1 / sd scale by sigma. Written apart from unit_value, and
// for these kinds only, to keep a GPU's revaluation within its registers.
template <class Real>
MCSIM_HD Real pair_value(Instrument kind, Real spot, Real other, Real log_spot, Real log_other, const Real* u) {
  const bool exchange = kind == Instrument::Exchange;
  const Real scale = exchange ? Real(1) : other, sd = scale * u[2], inv_sd = u[6] / scale;
  const Real discounted = exchange ? other : u[0], log_discounted = exchange ? log_other : u[1];
  const Real w = exchange || is_call(kind) ? Real(1) : Real(-1);
  // Equal volatilities, correlation 1: S / S' never moves, so the exchange is worth
  // its intrinsic value throughout.
  if (exchange && !(sd > Real(0))) return spot > other ? spot - other : Real(0);
  const Real d1 = (log_spot - log_discounted) * inv_sd + Real(0.5) * sd;
  return is_digital(kind) ? option::digital_of_d2(discounted, d1 - sd, w) : option::bsm_of_d1(spot, discounted, d1, sd, w);
}

// A geometric average G of n fixings at t_k = k T / n, seen `elapsed` (e) years
// from today: ln G = c0 + c1 ln S_e + a normal of variance v. Fixings up to e are
// taken given ln S_0 and ln S_e (a Brownian bridge: the horizon's revaluation does
// not simulate the path between), later ones from S_e under the rate r. Times
// increase, so each fixing's covariances with the earlier ones are running sums.
struct AverageMoments {
  double c0, c1, v;
};
inline AverageMoments average_moments(int n, double maturity, double elapsed, double log_spot_today, double rate,
                                      double volatility) {
  double c0 = 0, c1 = 0, v = 0, bridged = 0, ahead = 0;  // bridged, ahead: sums of earlier t_k, t_k - e
  for (int k = 1; k <= n; ++k) {
    const double t = maturity * k / n;
    if (t <= elapsed) {  // Cov = sigma^2 t_j (e - t_k) / e for t_j <= t_k
      c1 += t / elapsed, c0 += (1 - t / elapsed) * log_spot_today;
      v += (2 * bridged + t) * (elapsed - t) / elapsed;
      bridged += t;
    } else {  // Cov = sigma^2 (min(t_j, t_k) - e)
      const double s = t - elapsed;
      c1 += 1, c0 += (rate - 0.5 * volatility * volatility) * s;
      v += 2 * ahead + s;
      ahead += s;
    }
  }
  return {c0 / n, c1 / n, volatility * volatility * v / (static_cast<double>(n) * n)};
}

// What a unit is and where it is valued: `elapsed` years from today, whose spot
// was spot_today, at rate r and its asset's volatility (an exchange's: of the log
// of its two spots' ratio).
struct Contract {
  Instrument kind;
  double strike, barrier, maturity;
  int fixings;  // Asians
};
struct ValuedAt {
  double elapsed, spot_today, rate, volatility;
};

// The terms above; the contract must not have matured (elapsed < maturity for
// forwards and options).
struct UnitTerms {
  double u[kUnitTerms];
};
inline UnitTerms unit_terms(const Contract& c, const ValuedAt& at) {
  const double remaining = c.maturity - at.elapsed, rate = at.rate, volatility = at.volatility;
  const double discount = std::exp(-rate * remaining), discounted_strike = c.strike * discount;
  double sd = volatility * std::sqrt(std::max(remaining, 0.0));
  UnitTerms t{{is_digital(c.kind) ? discount : discounted_strike, discounted_strike > 0 ? std::log(discounted_strike) : 0.0,
               sd, 0, 0, 0, 0}};
  if (is_barrier(c.kind)) {
    t.u[3] = std::log(c.strike), t.u[4] = std::log(c.barrier);
    t.u[5] = (rate - 0.5 * volatility * volatility) / (volatility * volatility);
  }
  if (is_asian(c.kind)) {
    const AverageMoments m = average_moments(c.fixings, c.maturity, at.elapsed, std::log(at.spot_today), rate, volatility);
    t.u[2] = sd = std::sqrt(m.v);
    t.u[3] = m.c0 + 0.5 * m.v - rate * remaining, t.u[4] = m.c1;
  }
  t.u[6] = is_option(c.kind) && sd > 0 ? 1 / sd : 0.0;
  return t;
}

// `quantity` units at spot S (an exchange: and the other spot S').
inline double position_value(const Contract& c, double quantity, double spot, const ValuedAt& at, double other_spot = 0) {
  if (is_pair(c.kind))
    return quantity * pair_value(c.kind, spot, other_spot, std::log(spot), std::log(other_spot), unit_terms(c, at).u);
  if (c.kind == Instrument::Stock) return quantity * spot;
  const UnitTerms t = unit_terms(c, at);
  return quantity * unit_value(c.kind, spot, is_option(c.kind) ? std::log(spot) : 0.0, t.u);
}

}  // namespace mcsim::var
