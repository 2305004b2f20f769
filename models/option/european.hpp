// European and cash-or-nothing digital payoffs under GBM with the exact log step:
// S_T = S_0 exp((r - q - sigma^2/2) T + sigma sqrt(T) Z). Written once for both backends.
#pragma once
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

template <class Real>
struct EuropeanPath {
  using real_type = Real;
  static constexpr int kOutputs = 1;  // price
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
  bool antithetic;  // a sample is the mean over Z and -Z

  MCSIM_HD Real payoff(Real z) const {
    const Real spot_t = fast_exp(log_drift + vol_sqrt_t * z);
    const Real intrinsic = sign * (spot_t - strike);
    const Real paid = choose(digital, cash, intrinsic);
    return discount * (intrinsic > Real(0) ? paid : Real(0));  // a select: vectorises
  }

  // One stream, `lanes` (<= kGroup) consecutive paths.
  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    const auto z = rng::normals<Real>(stream);
    MCSIM_UNROLL
    for (int i = 0; i < lanes; ++i) {
      const Real x = payoff(z.z[i]);
      // Without antithetics the mirror is x itself and (x + x) / 2 == x exactly.
      const Real mirror = choose_lazy(antithetic, [&] { return payoff(-z.z[i]); }, x);
      acc.add(0, Real(0.5) * (x + mirror));
    }
  }
};

}  // namespace mcsim::option
