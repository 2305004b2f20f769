// Hull-White paths for rate products, written once for both backends: the factor
// x and its integral I = int x dt stepped exactly (jointly normal, two normals a
// step) from date to date, the discount to date k D_k = P^M(0,t_k) e^{-V(0,t_k)/2 - I_k},
// and at each date an event paid there: a zero-coupon or coupon bond, or a call or
// put on one (caplets and floorlets are bond puts and calls, a swaption a put or
// call on its fixed leg's coupon bond), its bonds P(t_k, t_i; x) = A e^{-B x}. A
// Bermudan swaption's dates are exercise dates instead: the first whose event beats
// Longstaff-Schwartz's estimate of holding on pays it, and the path stops there.
#pragma once
#include "models/kernel_table.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::rates {

// The exact step of the factor x and its integral I, from a step's first fields
// (rate_step's: e^{-a dt}, x's sd, B(dt), I's loads on z1 and z2); both kernels
// of a Hull-White rate take it.
constexpr int kRateStepFields = 5;
template <class Real>
MCSIM_HD void hull_white_step(const Real* f, Real z1, Real z2, Real& x, Real& integral) {
  integral += x * f[2] + f[3] * z1 + f[4] * z2;  // from the x at the step's start
  x = x * f[0] + f[1] * z1;
}

template <class Real, int Copies>
struct ShortRatePath {
  using real_type = Real;
  static constexpr int kOutputs = Copies == 2 ? 2 : 1;  // price [, the first path of each pair alone]
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 2;
  // Per date: the step's kRateStepFields (hull_white_step), log P^M(0,t) - V(0,t)/2, then the event:
  // its first coupon, number of coupons, strike and sign (+1 call, -1 put, 0 the
  // bond itself).
  static constexpr int kDateFields = 10;
  int dates;
  KernelTable<Real> date_data;
  KernelTable<Real> coupons;  // per coupon: amount, log A, B
  bool exercise;              // Bermudan: exercise at the first date the rule says
  // Per exercise date, kRuleFields coefficients of the cubic in the date's coupon
  // bond that estimates holding on (lsm_continuation); the last date's are zero.
  KernelTable<Real> rule;
  static constexpr int kRuleFields = 4;

  template <class F>
  void for_each_table(F&& f) {
    f(date_data);
    f(coupons);
    f(rule);
  }

  // The coupon bond of date k's event at factor x.
  MCSIM_HD Real bond(int k, Real x) const {
    const Real* d = date_data.data + static_cast<std::uint64_t>(k) * kDateFields;
    const int first = static_cast<int>(d[6]), n = static_cast<int>(d[7]);
    Real sum = Real(0);
    for (int i = first; i < first + n; ++i) {
      const Real* c = coupons.data + static_cast<std::uint64_t>(i) * 3;
      sum += c[0] * exp(c[1] - c[2] * x);
    }
    return sum;
  }
  // Date k's event on that bond: the bond itself, or the option on it.
  MCSIM_HD Real payoff(int k, Real bond_value) const {
    const Real* d = date_data.data + static_cast<std::uint64_t>(k) * kDateFields;
    const Real sign = d[9];
    if (sign == Real(0)) return bond_value;
    const Real paid = sign * (bond_value - d[8]);
    return paid > Real(0) ? paid : Real(0);
  }
  // Whether a path worth `paid` on exercise at date k takes it, its bond at
  // `bond_value`: the rule's cubic b in (bond - strike) estimates holding on.
  MCSIM_HD bool exercises(int k, Real paid, Real bond_value, const Real* b) const {
    const Real u = bond_value - date_data[static_cast<std::uint64_t>(k) * kDateFields + 8];
    return paid > Real(0) && paid >= b[0] + u * (b[1] + u * (b[2] + u * b[3]));
  }

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real x[Copies][G], integral[Copies][G], value[Copies][G];
    bool live[Copies][G];  // not yet exercised
    for (int c = 0; c < Copies; ++c)
      for (int l = 0; l < G; ++l) x[c][l] = integral[c][l] = value[c][l] = Real(0), live[c][l] = true;
    for (int k = 0; k < dates; ++k) {
      const Real* d = date_data.data + static_cast<std::uint64_t>(k) * kDateFields;
      const auto z1 = rng::normals<Real>(stream);
      const auto z2 = rng::normals<Real>(stream);
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l)
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const Real a = c ? -z1.z[l] : z1.z[l], b = c ? -z2.z[l] : z2.z[l];
          hull_white_step(d, a, b, x[c][l], integral[c][l]);
          if (!(d[7] > Real(0))) continue;
          const Real held = bond(k, x[c][l]), paid = payoff(k, held);
          if (!exercise) {
            value[c][l] += exp(d[5] - integral[c][l]) * paid;
          } else if (live[c][l] && exercises(k, paid, held, rule.data + static_cast<std::uint64_t>(k) * kRuleFields)) {
            value[c][l] = exp(d[5] - integral[c][l]) * paid;
            live[c][l] = false;
          }
        }
    }
    for (int l = 0; l < lanes; ++l) {
      Real total = Real(0);
      for (int c = 0; c < Copies; ++c) total += value[c][l];
      acc.add(0, total / static_cast<Real>(Copies));
      if constexpr (Copies == 2) acc.add(1, value[0][l]);
    }
  }
};

}  // namespace mcsim::rates
