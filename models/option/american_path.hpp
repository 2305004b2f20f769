// American and Bermudan options by Longstaff-Schwartz: the pricing pass. A path
// steps through the exercise dates (GBM, exact log steps) and stops at the first
// date where the intrinsic value is positive and at least the continuation value
// that a regression on separate paths fitted (lsm.hpp). Because the rule was fitted
// on other paths, the price is an unbiased estimate of a feasible strategy's value:
// low-biased, never high. Written once for both backends.
// With Greeks, each path also scores delta, gamma, vega, rho and dividend rho
// pathwise with its exercise date held: the derivative of the discounted payoff
// at the date the rule stopped it. The optimal rule stops where holding on is
// worth the payoff, so moving the date changes nothing to first order (smooth
// pasting); the fitted cubic's boundary is not quite that one, and the Greeks
// carry a bias of the order of its error: against the binomial tree about 1% on
// an at-the-money 10-date Bermudan put, 2 to 3% on the deep in-the-money 50-date
// American put of configs/american.yaml. Bump and revalue, which refits the rule,
// has no such bias and 5 to 25 times the error. Gamma is the likelihood ratio of
// the pathwise delta: the rule's boundary is in the spot, not its ratio to S_0.
#pragma once
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// The regression's estimate of holding on, b0 + b1 m + b2 m^2 + b3 m^3 in the
// moneyness m = S / K: shared by the fit and the pricing pass.
template <class Real>
MCSIM_HD Real lsm_continuation(const Real* b, Real moneyness) {
  return b[0] + moneyness * (b[1] + moneyness * (b[2] + moneyness * b[3]));
}

template <class Real, bool Greeks = false>
struct AmericanPath {
  using real_type = Real;
  static constexpr int kGreeks = Greeks ? 5 : 0;  // delta, gamma, vega, rho, dividend rho
  // price [, Greeks], and the first path of an antithetic pair alone
  static constexpr int kOutputs = 2 + kGreeks;
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 2;  // CUDA launch bound: up to 128 registers
  static constexpr int kMaxDates = 256;
  static constexpr int kBasis = 4;  // continuation value: a cubic in the moneyness S / K

  int dates;                       // exercise dates t_i = i T / dates, i = 1..dates
  Real log_spot, strike, sign;     // sign: +1 call, -1 put
  Real drift_dt, vol_sqrt_dt;      // (r - q - sigma^2/2) dt, sigma sqrt(dt)
  Real discount_at[kMaxDates];     // exp(-r t_i)
  Real beta[kMaxDates][kBasis];    // continuation value at t_i, undiscounted to t_i
  bool antithetic;                 // a sample is the mean over Z and -Z
  Real inv_spot, volatility, sqrt_dt, dt;  // Greeks: 1 / S_0, sigma, the dates' spacing

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real x[2][G], value[2][G];
    bool done[2][G];
    // Greeks: the sum of the path's normals and the first one; at exercise, the
    // discounted payoff's slope times the spot (its derivative in the log spot),
    // the log spot's derivative in sigma, and the date.
    constexpr int NG = Greeks ? 2 : 1;
    Real z_sum[NG][G], z_first[NG][G], moves[NG][G], vol_tangent[NG][G], when[NG][G];
    for (int c = 0; c < 2; ++c)
      for (int l = 0; l < G; ++l) x[c][l] = log_spot, value[c][l] = Real(0), done[c][l] = false;
    for (int c = 0; c < NG; ++c)
      for (int l = 0; l < G; ++l)
        z_sum[c][l] = z_first[c][l] = moves[c][l] = vol_tangent[c][l] = when[c][l] = Real(0);
    const int copies = antithetic ? 2 : 1;
    for (int i = 0; i < dates; ++i) {
      const auto z = rng::normals<Real>(stream);  // drawn on every date, so streams stay aligned
      const bool last = i + 1 == dates;
      for (int c = 0; c < copies; ++c)
        MCSIM_UNROLL
        for (int l = 0; l < G; ++l) {
          x[c][l] += drift_dt + vol_sqrt_dt * (c ? -z.z[l] : z.z[l]);
          if (done[c][l]) continue;
          if constexpr (Greeks) {
            z_sum[c][l] += c ? -z.z[l] : z.z[l];
            if (i == 0) z_first[c][l] = c ? -z.z[l] : z.z[l];
          }
          const Real spot = fast_exp(x[c][l]);
          const Real intrinsic = sign * (spot - strike);
          if (intrinsic > Real(0) && (last || intrinsic >= lsm_continuation(beta[i], spot / strike))) {
            value[c][l] = discount_at[i] * intrinsic;
            done[c][l] = true;
            if constexpr (Greeks) {
              const Real t = static_cast<Real>(i + 1) * dt;
              moves[c][l] = discount_at[i] * sign * spot;
              vol_tangent[c][l] = sqrt_dt * z_sum[c][l] - volatility * t;
              when[c][l] = t;
            }
          }
        }
    }
    for (int l = 0; l < lanes; ++l) {
      acc.add(0, antithetic ? Real(0.5) * (value[0][l] + value[1][l]) : value[0][l]);
      if constexpr (Greeks) {
        Real g[kGreeks] = {};
        for (int c = 0; c < copies; ++c) {
          const Real delta = moves[c][l] * inv_spot, t = when[c][l];
          g[0] += delta;
          g[1] += delta * (z_first[c][l] / vol_sqrt_dt - Real(1)) * inv_spot;
          g[2] += moves[c][l] * vol_tangent[c][l];
          g[3] += t * (moves[c][l] - value[c][l]);
          g[4] -= t * moves[c][l];
        }
        for (int k = 0; k < kGreeks; ++k) acc.add(1 + k, g[k] / static_cast<Real>(copies));
      }
      acc.add(kOutputs - 1, value[0][l]);
    }
  }
};

}  // namespace mcsim::option
