// American and Bermudan options by Longstaff-Schwartz: the pricing pass. A path
// steps through the exercise dates (GBM, exact log steps) and stops at the first
// date where the intrinsic value is positive and at least the continuation value
// that a regression on separate paths fitted (lsm.hpp). Because the rule was fitted
// on other paths, the price is an unbiased estimate of a feasible strategy's value:
// low-biased, never high. Written once for both backends.
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

template <class Real>
struct AmericanPath {
  using real_type = Real;
  static constexpr int kOutputs = 2;  // price, and the first path of an antithetic pair alone
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

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real x[2][G], value[2][G];
    bool done[2][G];
    for (int c = 0; c < 2; ++c)
      for (int l = 0; l < G; ++l) x[c][l] = log_spot, value[c][l] = Real(0), done[c][l] = false;
    const int copies = antithetic ? 2 : 1;
    for (int i = 0; i < dates; ++i) {
      const auto z = rng::normals<Real>(stream);  // drawn on every date, so streams stay aligned
      const bool last = i + 1 == dates;
      for (int c = 0; c < copies; ++c)
        MCSIM_UNROLL
        for (int l = 0; l < G; ++l) {
          x[c][l] += drift_dt + vol_sqrt_dt * (c ? -z.z[l] : z.z[l]);
          if (done[c][l]) continue;
          const Real spot = fast_exp(x[c][l]);
          const Real intrinsic = sign * (spot - strike);
          if (intrinsic > Real(0) && (last || intrinsic >= lsm_continuation(beta[i], spot / strike))) {
            value[c][l] = discount_at[i] * intrinsic;
            done[c][l] = true;
          }
        }
    }
    for (int l = 0; l < lanes; ++l) {
      acc.add(0, antithetic ? Real(0.5) * (value[0][l] + value[1][l]) : value[0][l]);
      acc.add(1, value[0][l]);
    }
  }
};

}  // namespace mcsim::option
