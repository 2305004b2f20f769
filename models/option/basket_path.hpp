// European payoffs on several correlated GBM assets at one maturity, exact log
// steps: ln S_a(T) = ln S_a + (r - q_a - sigma_a^2/2) T + sigma_a sqrt(T) (L Z)_a
// with L the Cholesky factor of the correlation matrix. Written once for both
// backends; one thread takes the G paths of a stream group, one Philox block per
// asset giving each path that asset's independent normal.
#pragma once
#include "models/option/payoff.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// Average: sum of w_a S_a; Max / Min: the best / worst of w_a S_a; Spread: w_0 S_0 - w_1 S_1
// (an exchange option is a spread struck at 0).
enum class BasketPayoff : int { Average, Max, Min, Spread };

// WithControl also scores the geometric basket on the same path, W prod S_a^(w_a/W),
// whose price is closed-form, and its product with the payoff.
template <class Real, bool WithControl = false>
struct BasketPath {
  using real_type = Real;
  // price [, control, price x control], and the first path of an antithetic pair alone
  static constexpr int kOutputs = (WithControl ? 3 : 1) + 1;
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 1;  // CUDA launch bound: registers as needed
  static constexpr int kMaxAssets = 16;

  BasketPayoff payoff;
  int assets;
  Real log_forward[kMaxAssets];         // ln S_a + (r - q_a - sigma_a^2/2) T
  Real weight[kMaxAssets];              // w_a
  Real factor[kMaxAssets][kMaxAssets];  // sigma_a sqrt(T) L[a][b], zero above the diagonal
  Real geometric_weight[kMaxAssets];    // w_a / W, the control's exponents
  Real total_weight;                    // W
  Real strike, sign, discount;          // sign: +1 call, -1 put
  bool antithetic;                      // a sample is the mean over Z and -Z

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real z[kMaxAssets][G];
    for (int b = 0; b < assets; ++b) {
      const auto block = rng::normals<Real>(stream);
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) z[b][lane] = block.z[lane];
    }
    const auto vanilla = [&](Real level) { return vanilla_payoff(level, strike, sign, discount); };
    for (int lane = 0; lane < lanes; ++lane) {
      Real total = Real(0), control_total = Real(0), first = Real(0);
      for (int copy = 0; copy < (antithetic ? 2 : 1); ++copy) {
        const Real mirror = copy ? Real(-1) : Real(1);
        Real sum = Real(0), best = Real(0), worst = Real(0), log_geometric = Real(0), first = Real(0);
        for (int a = 0; a < assets; ++a) {
          Real shock = Real(0);
          for (int b = 0; b <= a; ++b) shock += factor[a][b] * z[b][lane];
          const Real log_level = log_forward[a] + mirror * shock;
          const Real level = weight[a] * fast_exp(log_level);  // w_a S_a(T)
          sum += level;
          best = a == 0 || level > best ? level : best;
          worst = a == 0 || level < worst ? level : worst;
          if (a == 0) first = level;
          if constexpr (WithControl) log_geometric += geometric_weight[a] * log_level;
        }
        Real value = Real(0);
        switch (payoff) {
          case BasketPayoff::Average: value = vanilla(sum); break;
          case BasketPayoff::Max: value = vanilla(best); break;
          case BasketPayoff::Min: value = vanilla(worst); break;
          case BasketPayoff::Spread: value = vanilla(first - (sum - first)); break;
        }
        total += value;
        if (copy == 0) first = value;
        if constexpr (WithControl) control_total += vanilla(total_weight * fast_exp(log_geometric));
      }
      const Real copies = antithetic ? Real(2) : Real(1);
      const Real y = total / copies;
      acc.add(0, y);
      if constexpr (WithControl) {
        const Real c = control_total / copies;
        acc.add(1, c);
        acc.add(2, y * c);
      }
      acc.add(kOutputs - 1, first);
    }
  }
};

}  // namespace mcsim::option
