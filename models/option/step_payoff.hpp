// What a stepped path (StepPath) pays at its end: the payoff's value from the path's
// final state and, pathwise, the value's tangents, the discount held.
#pragma once
#include "models/option/payoff.hpp"
#include "models/option/step_kinds.hpp"
#include "rng/hd.hpp"

namespace mcsim::option {

// A path's final state: the log spot x and the payoff's state (an average's sum of
// levels or of log levels, a lookback's extreme as turn x log extreme, a forward
// start's log spot on its strike date, a cliquet's sum of bounded returns). With
// tangents, theirs: in a shift of log S_0 (u, pu: a local volatility's; GBM's log
// spots move by 1, and its state by its own level), in the volatility (w, pv), in
// the rate (r, pt) and in each market input (bx, by).
template <class Real, int B>
struct PathEnd {
  Real x, sum, extreme;
  Real u, pu, w, pv, r, pt;
  Real bx[B], by[B];
};

// The value's tangents in those shifts: u (d/dS_0 is u / S_0), the volatility, the
// rate, and each market input.
template <class Real, int B>
struct ValueTangents {
  Real du, dv, dt;
  Real bucket[B];
};

// The payoff P on the path's end; n: the fixings, turn: +1 if the extreme is a maximum.
template <StepPayoff P, class Real, class Path>
MCSIM_HD Real payoff_value(const Path& p, Real x, Real sum, Real extreme, Real n, Real turn) {
  const auto vanilla = [&](Real level) { return vanilla_payoff(level, p.strike, p.sign, p.discount); };
  if constexpr (P == StepPayoff::European) return vanilla(fast_exp(x));
  if constexpr (P == StepPayoff::Digital) return p.sign * (fast_exp(x) - p.strike) > Real(0) ? p.cash * p.discount : Real(0);
  if constexpr (P == StepPayoff::ArithmeticAverage) return vanilla(sum / n);
  if constexpr (P == StepPayoff::GeometricAverage) return vanilla(fast_exp(sum / n));
  if constexpr (P == StepPayoff::LookbackFixed) return vanilla(fast_exp(turn * extreme));
  if constexpr (P == StepPayoff::LookbackFloating)  // the extreme is the strike
    return vanilla_payoff(fast_exp(x), fast_exp(turn * extreme), p.sign, p.discount);
  if constexpr (P == StepPayoff::ForwardStart)
    return vanilla_payoff(fast_exp(x), p.moneyness * fast_exp(sum), p.sign, p.discount);
  if constexpr (P == StepPayoff::Cliquet)
    return p.discount * (sum < p.global_floor ? p.global_floor : sum > p.global_cap ? p.global_cap : sum);
  return Real(0);
}

// Pathwise, the tangents of payoff_value's value (a Lipschitz payoff: not a
// digital's). Local: a local volatility's path, whose log spots move with S_0 by
// their own tangents (GBM's by 1). Buckets: the market inputs' too, from X_b and Y_b
// (an average's Y_b: GBM's sum of step tangents times the levels before them, a local
// volatility's sum of levels times their X_b, as its pu).
template <StepPayoff P, bool Local, bool Buckets, class Real, int B, class Path>
MCSIM_HD ValueTangents<Real, B> value_tangents(const Path& p, const PathEnd<Real, B>& e, Real n, Real turn) {
  ValueTangents<Real, B> t{Real(0), Real(0), Real(0), {}};
  const Real spot_t = fast_exp(e.x), w = e.w;
  const Real strike = p.strike, sign = p.sign, discount = p.discount;
  if constexpr (P == StepPayoff::European) {
    const Real k = vanilla_slope(spot_t, strike, sign, discount) * spot_t;
    t.du = Local ? k * e.u : k, t.dv = k * w, t.dt = k * e.r;
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * e.bx[b];
  }
  if constexpr (P == StepPayoff::ArithmeticAverage) {
    const Real level = e.sum / n, k = vanilla_slope(level, strike, sign, discount);
    t.du = Local ? k * e.pu / n : k * level, t.dv = k * e.pv / n, t.dt = k * e.pt / n;
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * (Local ? e.by[b] : e.sum * e.bx[b] - e.by[b]) / n;
  }
  if constexpr (P == StepPayoff::GeometricAverage) {
    const Real level = fast_exp(e.sum / n), k = vanilla_slope(level, strike, sign, discount) * level;
    t.du = Local ? k * e.pu / n : k, t.dv = k * e.pv / n, t.dt = k * e.pt / n;
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * (Local ? e.by[b] : n * e.bx[b] - e.by[b]) / n;
  }
  if constexpr (P == StepPayoff::LookbackFixed) {
    // An extreme still at the spot (exactly: it moves only to a larger reach) takes
    // the host's slope there, not one decided by the rounding of exp(log S_0).
    const Real level = fast_exp(turn * e.extreme);
    const Real k = (e.extreme == turn * p.log_spot ? p.start_slope : vanilla_slope(level, strike, sign, discount)) * level;
    t.du = Local ? k * e.pu : k, t.dv = k * e.pv, t.dt = k * e.pt;
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * e.by[b];
  }
  // Struck at a level of the path: the spot's tangent less the strike's.
  const auto struck = [&](Real level) {
    const Real k = vanilla_slope(spot_t, level, sign, discount);
    t.du = Local ? k * (spot_t * e.u - level * e.pu) : k * (spot_t - level);
    t.dv = k * (spot_t * w - level * e.pv), t.dt = k * (spot_t * e.r - level * e.pt);
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * (spot_t * e.bx[b] - level * e.by[b]);
  };
  if constexpr (P == StepPayoff::LookbackFloating) struck(fast_exp(turn * e.extreme));
  if constexpr (P == StepPayoff::ForwardStart) struck(p.moneyness * fast_exp(e.sum));
  if constexpr (P == StepPayoff::Cliquet) {  // GBM's returns do not move with S_0
    const Real k = e.sum < p.global_floor || e.sum > p.global_cap ? Real(0) : discount;
    t.du = k * e.pu, t.dv = k * e.pv, t.dt = k * e.pt;
    if constexpr (Buckets)
      for (int b = 0; b < B; ++b) t.bucket[b] = k * e.by[b];
  }
  (void)struck;
  return t;
}

}  // namespace mcsim::option
