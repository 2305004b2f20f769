// A stock under a Hull-White short rate, written once for both backends: GBM
// (Black-Scholes-Hull-White) or Heston (Heston-Hull-White) for the log spot, with
// the factor x and its integral I stepped exactly as ShortRatePath does. Per step the
// spot's normal is correlated with the rate's two (under GBM the three moves are
// then exactly jointly normal). The log spot carries int r dt = int phi dt + I, so a
// payment at t_k is discounted by D_k = P(0,t_k) e^{-V(0,t_k)/2 - I_k} and D S / S0
// is a martingale step by step. Payoffs: a European, or an autocallable observed at
// some of the steps.
// With Greeks, each path also scores delta and gamma by a likelihood ratio. Given
// the rates' normals (and Heston's variances), step k moves the log spot by
// sd_k e_k of its own normal e_k (sd_k: the step's deviation times that normal's
// load), and the payoff looks at the log spot at the observations only. A shift of
// log S0 by h is then the same law as shifting the means of e_1..e_m, the steps up
// to the first observation, by h sd_k / Q, Q = sum sd_k^2 (the least-variance
// spread), whose score with W = sum sd_k e_k gives
//   delta = E[V W / Q] / S0,   gamma = E[V ((W / Q)^2 - 1 / Q - W / Q)] / S0^2.
// That holds for the autocallable's calls and coupons, which jump with the path,
// as for the European; its error grows as the first observation comes sooner.
// Both scores have mean 0, so V is taken less a constant near its mean (`baseline`,
// the price on a few paths of the host's): an autocallable's V is mostly near 1.
#pragma once
#include <type_traits>

#include "models/kernel_table.hpp"
#include "models/option/heston_step.hpp"
#include "models/rates/short_rate_path.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

enum class HybridPayoff { European, Autocallable };

template <class Real, int Copies, bool Heston, bool Greeks = false>
struct HybridPath {
  using real_type = Real;
  static constexpr int kGreeks = Greeks ? 2 : 0;  // delta, gamma
  // price [, delta, gamma] [, the first path of each pair alone]
  static constexpr int kOutputs = 1 + kGreeks + (Copies == 2 ? 1 : 0);
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  // Heston's state and four normals a step: antithetic pairs and double need the registers of one block per SM.
  static constexpr int kMinBlocksPerSM = Copies == 2 || (Heston && sizeof(Real) == 8) ? 1 : 2;
  // Per step: the rate's kRateStepFields (rates::hull_white_step), the loads of z1,
  // z2 and z3 on the spot's normal, the log spot's move but for its diffusion
  // (int phi dt - the dividend's, and under GBM - sigma^2 dt / 2), GBM's sigma
  // sqrt(dt), log P(0,t) - V(0,t)/2 at the step's end, the observation ending there
  // (-1: none); under Heston then its step's fields (HestonStep::set_step).
  static constexpr int kRateFields = 12;
  static constexpr int kStepFields = kRateFields + (Heston ? HestonStep<Real>::kStepFields : 0);
  HybridPayoff payoff;
  int steps, observations;
  KernelTable<Real> step_data;
  Real spot;          // the log spot s is log(S / spot)
  Real strike, sign;  // European: +1 call, -1 put
  // Autocallable, levels as fractions of the initial fixing S_i, in the path's
  // log(S / spot): called (paying 1 and the coupon) at the first observation before
  // the last at or above log_call; the coupon paid at each observation at or above
  // log_coupon (with the ones missed before it, under memory); at maturity 1, or
  // S_T / S_i below log_knock_in. log_moneyness = log(spot / S_i).
  Real log_call, log_coupon, log_knock_in, coupon, log_moneyness;
  bool memory;
  Real baseline;  // Greeks: the constant the scores weigh V against
  struct Unused {};
  std::conditional_t<Heston, HestonStep<Real>, Unused> heston;  // the step's fields come from the table

  template <class F>
  void for_each_table(F&& f) {
    f(step_data);
  }

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real x[Copies][G], integral[Copies][G], s[Copies][G], v[Heston ? Copies : 1][G];
    Real value[Copies][G], alive[Copies][G], missed[Copies][G];
    Real wsum[Greeks ? Copies : 1][G], qsum[Greeks ? Copies : 1][G];  // W and Q up to the first observation
    for (int c = 0; c < Copies; ++c)
      for (int l = 0; l < G; ++l) {
        x[c][l] = integral[c][l] = s[c][l] = value[c][l] = missed[c][l] = Real(0);
        alive[c][l] = Real(1);
        if constexpr (Heston) v[c][l] = heston.v0;
        if constexpr (Greeks) wsum[c][l] = qsum[c][l] = Real(0);
      }
    bool before_first = true;  // up to and including the first observation's step
    for (int k = 0; k < steps; ++k) {
      const Real* d = step_data.data + static_cast<std::uint64_t>(k) * kStepFields;
      [[maybe_unused]] HestonStep<Real> h{};
      if constexpr (Heston) {
        h = heston;
        h.set_step(d + kRateFields);
        h.carry_dt = d[8];
      }
      const auto z1 = rng::normals<Real>(stream);
      const auto z2 = rng::normals<Real>(stream);
      const auto z3 = rng::normals<Real>(stream);
      [[maybe_unused]] rng::NormalBlock<Real> zv{};
      if constexpr (Heston) zv = rng::normals<Real>(stream);
      const int obs = static_cast<int>(d[11]);
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l)
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const Real a = c ? -z1.z[l] : z1.z[l], b = c ? -z2.z[l] : z2.z[l], e = c ? -z3.z[l] : z3.z[l];
          const Real before = integral[c][l];
          rates::hull_white_step(d, a, b, x[c][l], integral[c][l]);
          const Real w = d[5] * a + d[6] * b + d[7] * e;  // the spot's own normal
          [[maybe_unused]] Real sd = d[9];  // the log spot's deviation over the step (Heston: given the variance's)
          if constexpr (Heston) {
            const Real v_before = v[c][l];
            h.advance(s[c][l], v[c][l], c ? -zv.z[l] : zv.z[l], w);
            s[c][l] += integral[c][l] - before;
            if constexpr (Greeks) sd = h.spot_deviation(v_before, v[c][l]);
          } else {
            s[c][l] += d[8] + (integral[c][l] - before) + d[9] * w;
          }
          if constexpr (Greeks) {
            if (before_first) {
              sd *= d[7];
              wsum[c][l] += sd * e;
              qsum[c][l] += sd * sd;
            }
          }
          if (obs >= 0) observe(obs, fast_exp(d[10] - integral[c][l]), s[c][l], value[c][l], alive[c][l], missed[c][l]);
        }
      if (obs >= 0) before_first = false;
    }
    for (int l = 0; l < lanes; ++l) {
      Real total = Real(0);
      for (int c = 0; c < Copies; ++c) total += value[c][l];
      acc.add(0, total / static_cast<Real>(Copies));
      if constexpr (Greeks) {
        Real delta = Real(0), gamma = Real(0);
        for (int c = 0; c < Copies; ++c) {
          const Real score = wsum[c][l] / qsum[c][l], gap = value[c][l] - baseline;
          delta += gap * score;
          gamma += gap * (score * score - Real(1) / qsum[c][l] - score);
        }
        acc.add(1, delta / (static_cast<Real>(Copies) * spot));
        acc.add(2, gamma / (static_cast<Real>(Copies) * spot * spot));
      }
      if constexpr (Copies == 2) acc.add(1 + kGreeks, value[0][l]);
    }
  }

 private:
  // Observation o of a path at log spot s, its payments discounted by `discount`.
  // Sides are multipliers, not branches: `alive` is 0 once called.
  MCSIM_HD void observe(int o, Real discount, Real s, Real& value, Real& alive, Real& missed) const {
    if (payoff == HybridPayoff::European) {
      const Real paid = sign * (spot * fast_exp(s) - strike);
      value += discount * (paid > Real(0) ? paid : Real(0));
      return;
    }
    const Real paid_coupon = s >= log_coupon ? Real(1) : Real(0);
    value += alive * discount * coupon * paid_coupon * (memory ? missed + Real(1) : Real(1));
    missed = paid_coupon > Real(0) ? Real(0) : missed + Real(1);
    if (o == observations - 1) {
      value += alive * discount * (s >= log_knock_in ? Real(1) : fast_exp(s + log_moneyness));
    } else {
      const Real called = s >= log_call ? Real(1) : Real(0);
      value += alive * discount * called;
      alive *= Real(1) - called;
    }
  }
};

}  // namespace mcsim::option
