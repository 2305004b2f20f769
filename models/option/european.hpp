// European and cash-or-nothing digital payoffs under GBM with the exact log step:
// S_T = S_0 exp((r - q - sigma^2/2) T + sigma sqrt(T) Z). Written once for both backends.
// With Greeks, each path also scores delta, gamma, vega, rho and dividend rho: pathwise for the
// European (its payoff is continuous in the parameters; gamma differentiates the
// pathwise delta by likelihood ratio), by likelihood ratio for the digital, whose
// payoff jumps (a pathwise derivative would be zero almost everywhere).
#pragma once
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// Antithetic: a sample is the mean over Z and -Z; the first path of each pair is
// also scored alone, which measures what the pairs gained.
template <class Real, bool Greeks = false, bool Antithetic = false>
struct EuropeanPath {
  using real_type = Real;
  // price [, delta, gamma, vega, rho, dividend rho] [, the first path of an antithetic pair alone]
  static constexpr int kScored = Greeks ? 6 : 1;
  static constexpr int kOutputs = kScored + (Antithetic ? 1 : 0);
  // Paths per stream: one Philox block yields this many normals, one per path.
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 1;  // CUDA launch bound: registers as needed

  Real log_drift;   // ln S_0 + (r - q - sigma^2/2) T
  Real vol_sqrt_t;  // sigma sqrt(T)
  Real strike;
  Real discount;    // exp(-r T)
  Real cash;        // digital payout
  Real sign;        // +1 call, -1 put
  bool digital;
  Real spot, volatility, maturity, root_t;  // for the Greeks

  struct Sample {
    Real v[kScored];
  };

  MCSIM_HD Sample sample(Real z) const {
    const Real spot_t = fast_exp(log_drift + vol_sqrt_t * z);
    const Real intrinsic = sign * (spot_t - strike);
    const bool in_money = intrinsic > Real(0);
    const Real paid = choose(digital, cash, intrinsic);
    Sample s;
    s.v[0] = discount * (in_money ? paid : Real(0));  // a select: vectorises
    if constexpr (Greeks) {
      const Real price = s.v[0];
      // Pathwise: d/dtheta of e^{-rT} (w (S_T - K))+ is e^{-rT} w dS_T/dtheta in the money.
      const Real moves = discount * (in_money ? sign * spot_t : Real(0));
      const Real pw[5] = {moves / spot, moves / (spot * spot) * (z / vol_sqrt_t - Real(1)),
                          moves * (root_t * z - volatility * maturity), maturity * (moves - price), -maturity * moves};
      // Likelihood ratio: the payoff times the score of ln S_T's normal density.
      const Real lr[5] = {price * z / (spot * vol_sqrt_t),
                          price * ((z * z - Real(1)) / (vol_sqrt_t * vol_sqrt_t) - z / vol_sqrt_t) / (spot * spot),
                          price * ((z * z - Real(1)) / volatility - z * root_t),
                          price * (z * root_t / volatility - maturity), -price * z * root_t / volatility};
      MCSIM_UNROLL
      for (int k = 0; k < 5; ++k) s.v[1 + k] = choose(digital, lr[k], pw[k]);
    }
    return s;
  }

  // One stream, `lanes` (<= kGroup) consecutive paths.
  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    const auto z = rng::normals<Real>(stream);
    MCSIM_UNROLL
    for (int i = 0; i < lanes; ++i) {
      const Sample x = sample(z.z[i]);
      if constexpr (Antithetic) {
        const Sample mirror = sample(-z.z[i]);
        MCSIM_UNROLL
        for (int k = 0; k < kScored; ++k) acc.add(k, Real(0.5) * (x.v[k] + mirror.v[k]));
        acc.add(kOutputs - 1, x.v[0]);
      } else {
        MCSIM_UNROLL
        for (int k = 0; k < kScored; ++k) acc.add(k, x.v[k]);
      }
    }
  }
};

}  // namespace mcsim::option
