// European payoffs on several correlated GBM assets at one maturity, exact log
// steps: ln S_a(T) = ln S_a + (r - q_a - sigma_a^2/2) T + y_a, y = A Z, with
// A = diag(sigma sqrt(T)) L and L the Cholesky factor of the correlation matrix.
// Written once for both backends; one thread takes the G paths of a stream group,
// one Philox block per asset giving each path that asset's independent normal.
//
// With Greeks (GreekAssets = the basket's size) each path also scores, in the same
// pass, every asset's delta, gamma, vega and dividend rho, the rho and every pair's
// correlation sensitivity, from the payoff's gradient g_a = dV/d ln S_a(T) alone
// (one reverse sweep through the payoff: the cost grows with the assets as the
// price's does, not with the number of Greeks):
//   delta_a = g_a / S_a,  vega_a = g_a (y_a / sigma_a - sigma_a T),
//   dividend rho_a = -T g_a,  rho = T (sum_a g_a - V);
// gamma and correlation need the payoff's second derivatives, which its kink makes a
// point mass; Gaussian integration by parts (Stein) turns E[d2V/dy_a dy_b] into
// E[g_a w_b] with w = Sigma^-1 y = A^-T Z, the likelihood-ratio weight:
//   gamma_a = g_a (w_a - 1) / S_a^2,
//   dV/d rho_ab = sigma_a sigma_b T (g_a w_b + g_b w_a) / 2   (Price's theorem).
#pragma once
#include <type_traits>

#include "models/option/payoff.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// Average: sum of w_a S_a; Max / Min: the best / worst of w_a S_a; Spread: w_0 S_0 - w_1 S_1
// (an exchange option is a spread struck at 0).
enum class BasketPayoff : int { Average, Max, Min, Spread };

// Baskets of up to this many assets score their Greeks on the path (kernels.hpp
// compiles one kernel per size); larger ones bump.
constexpr int kMaxPathGreekAssets = 8;

// The Greeks' per-asset inputs (N assets).
template <class Real, int N>
struct BasketGreekData {
  Real inv_spot[N], inv_vol[N], vol_t[N];  // 1 / S_a, 1 / sigma_a, sigma_a T
  Real score[N][N];                        // A^-T, zero below the diagonal
  Real covariance[N][N];                   // sigma_a sigma_b T
  Real maturity;
};
struct NoGreekData {};

// WithControl also scores the geometric basket on the same path, W prod S_a^(w_a/W),
// whose price is closed-form, and its product with the payoff.
template <class Real, bool WithControl = false, int GreekAssets = 0>
struct BasketPath {
  static_assert(!(WithControl && GreekAssets), "a basket scores a control or its Greeks, not both");
  using real_type = Real;
  static constexpr int kMaxAssets = 16;
  static constexpr int kGreekAssets = GreekAssets;
  static constexpr int kPairs = GreekAssets * (GreekAssets - 1) / 2;
  // after the price: per asset delta, gamma, vega; rho; per asset dividend rho; per pair (a < b) correlation
  static constexpr int kGreeks = GreekAssets ? 4 * GreekAssets + 1 + kPairs : 0;
  // price [, control, price x control] [, Greeks], and the first path of an antithetic pair alone
  static constexpr int kOutputs = (WithControl ? 3 : 1) + kGreeks + 1;
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 1;  // CUDA launch bound: registers as needed
  static constexpr int kCap = GreekAssets ? GreekAssets : kMaxAssets;  // room per asset

  BasketPayoff payoff;
  int assets;                     // GreekAssets when it is not 0
  Real log_forward[kCap];         // ln S_a + (r - q_a - sigma_a^2/2) T
  Real weight[kCap];              // w_a
  Real factor[kCap][kCap];        // A: sigma_a sqrt(T) L[a][b], zero above the diagonal
  Real geometric_weight[kCap];    // w_a / W, the control's exponents
  Real total_weight;              // W
  Real strike, sign, discount;    // sign: +1 call, -1 put
  bool antithetic;                // a sample is the mean over Z and -Z
  std::conditional_t<GreekAssets != 0, BasketGreekData<Real, kCap>, NoGreekData> greek;

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    const int n = GreekAssets ? GreekAssets : assets;
    Real z[kCap][G];
    for (int b = 0; b < n; ++b) {
      const auto block = rng::normals<Real>(stream);
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) z[b][lane] = block.z[lane];
    }
    const auto vanilla = [&](Real level) { return vanilla_payoff(level, strike, sign, discount); };
    for (int lane = 0; lane < lanes; ++lane) {
      Real total = Real(0), control_total = Real(0), first = Real(0);
      Real greeks[kGreeks ? kGreeks : 1] = {};
      for (int copy = 0; copy < (antithetic ? 2 : 1); ++copy) {
        const Real mirror = copy ? Real(-1) : Real(1);
        Real sum = Real(0), best = Real(0), worst = Real(0), log_geometric = Real(0), first_level = Real(0);
        int best_at = 0, worst_at = 0;
        Real shock[kCap], level[kCap];
        for (int a = 0; a < n; ++a) {
          Real y = Real(0);
          for (int b = 0; b <= a; ++b) y += factor[a][b] * z[b][lane];
          shock[a] = mirror * y;
          const Real log_level = log_forward[a] + shock[a];
          level[a] = weight[a] * fast_exp(log_level);  // w_a S_a(T)
          sum += level[a];
          if (a == 0 || level[a] > best) best = level[a], best_at = a;
          if (a == 0 || level[a] < worst) worst = level[a], worst_at = a;
          if (a == 0) first_level = level[a];
          if constexpr (WithControl) log_geometric += geometric_weight[a] * log_level;
        }
        const Real observed = payoff == BasketPayoff::Average ? sum
                              : payoff == BasketPayoff::Max   ? best
                              : payoff == BasketPayoff::Min   ? worst
                                                              : first_level - (sum - first_level);
        const Real value = vanilla(observed);
        total += value;
        if (copy == 0) first = value;
        if constexpr (WithControl) control_total += vanilla(total_weight * fast_exp(log_geometric));
        if constexpr (GreekAssets != 0) score_greeks(z, lane, mirror, observed, value, shock, level, best_at, worst_at, greeks);
      }
      const Real copies = antithetic ? Real(2) : Real(1);
      const Real y = total / copies;
      acc.add(0, y);
      if constexpr (WithControl) {
        const Real c = control_total / copies;
        acc.add(1, c);
        acc.add(2, y * c);
      }
      if constexpr (GreekAssets != 0)
        for (int k = 0; k < kGreeks; ++k) acc.add(1 + k, greeks[k] / copies);
      acc.add(kOutputs - 1, first);
    }
  }

  // Adds one path's Greeks (the header's formulas) to out.
  MCSIM_HD void score_greeks(const Real (&z)[kCap][kGroup], int lane, Real mirror, Real observed, Real value,
                             const Real (&shock)[kCap], const Real (&level)[kCap], int best_at, int worst_at,
                             Real (&out)[kGreeks ? kGreeks : 1]) const {
    constexpr int N = GreekAssets;
    const Real slope = vanilla_slope(observed, strike, sign, discount);
    Real g[kCap], w[kCap], g_total = Real(0);
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      // dV/d(w_a S_a) times w_a S_a: the observed level's share that is asset a's
      const bool in = payoff == BasketPayoff::Average || (payoff == BasketPayoff::Max && a == best_at) ||
                      (payoff == BasketPayoff::Min && a == worst_at) || payoff == BasketPayoff::Spread;
      const Real along = payoff == BasketPayoff::Spread && a > 0 ? -slope : slope;
      g[a] = in ? along * level[a] : Real(0);
      g_total += g[a];
      Real s = Real(0);
      MCSIM_UNROLL
      for (int b = a; b < N; ++b) s += greek.score[a][b] * z[b][lane];
      w[a] = mirror * s;
    }
    const Real t = greek.maturity;
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      const Real d = g[a] * greek.inv_spot[a];
      out[a] += d;
      out[N + a] += d * (w[a] - Real(1)) * greek.inv_spot[a];
      out[2 * N + a] += g[a] * (shock[a] * greek.inv_vol[a] - greek.vol_t[a]);
      out[3 * N + 1 + a] -= t * g[a];
    }
    out[3 * N] += t * (g_total - value);
    int k = 4 * N + 1;
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a)
      MCSIM_UNROLL
      for (int b = a + 1; b < N; ++b) out[k++] += greek.covariance[a][b] * Real(0.5) * (g[a] * w[b] + g[b] * w[a]);
  }
};

}  // namespace mcsim::option
