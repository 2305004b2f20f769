// A basket of correlated assets, each under Heston's stochastic volatility (or GBM,
// a variance held at sigma^2), walked step by step and exercisable early by a
// Longstaff-Schwartz rule fitted on separate paths (lsm.hpp): the STAC-A2 shape.
// The spots' Brownian increments are correlated by the correlation matrix,
// w = L Z; asset a's variance is driven by rho_a w_a + rho_bar_a p_a with p an
// independent normal, so each variance is correlated with its own spot only.
// HestonStep takes the variance's normal z1 and the spot's independent part z2;
// (z1, z2) = (rho w + rho_bar p, rho_bar w - rho p) is a rotation of (w, p), whose
// spot normal rho z1 + rho_bar z2 is w again. Written once for both backends; the
// fit walks the same steps in double on the host (walk).
//
// With Greeks, each path also scores, in the same pass and
// with its exercise date held (as AmericanPath does; the fitted boundary's error is
// their bias), from the payoff's gradient g_a = dV/d ln S_a(tau) at exercise (the
// variance does not move with the spots or the rates, so d ln S_a(tau)/d ln S_a = 1):
//   delta_a = g_a / S_a,  dividend rho_a = -tau g_a,  rho = tau (sum_a g_a - V);
//   gamma_a = g_a (s_a - 1) / S_a^2, the likelihood ratio of the pathwise delta, with
//     s_a = (rho_bar_a u_a - rho_a p_a) / sd_a the score of ln S_a in the first step
//     (u = C^-1 w = L^-T Z, sd_a the step's spot deviation given its variance);
//   dV/dC_ab pathwise, the variances held: given the variances' normals z1, the
//     spots' independent parts are z2 = A z1 + R eta (A the regression of z2 on z1,
//     R the Cholesky factor of its residual's covariance, both functions of C;
//     eta independent), and ln S_c(tau) moves by sd_c dz2_c each step, so
//     dV/dC_ab = sum_c g_c sum_d (dA_cd M1_cd + dR_cd M2_cd), with the path's
//     M1_cd = sum_k sd_kc z1_kd and M2_cd = sum_k sd_kc eta_kd to exercise. The
//     variance paths do not move, so no derivative passes through the square root
//     of a variance near 0 or QE's branches; dA and dR come from differences of A
//     and R on the host. Holding z1 is not the whole derivative under Heston: the
//     variances' normals across assets have covariance S11 = D C D + E^2, which
//     moves with C, so their likelihood ratio is added: per step to exercise,
//     d log phi(z1; S11) / dC_ab = rho_a rho_b (y_a y_b - S11^-1_ab), y = S11^-1 z1,
//     weighted by V - c with c the price on the fit's paths (the score's mean is 0,
//     so any constant c leaves it unbiased and one near V makes it quiet).
//   vega_a = g_a dx_a, dx_a the tangent of ln S_a(tau) in the initial volatility
//     sqrt(v0_a) (a GBM asset's volatility), carried with the variance's through
//     each step (HestonStep::advance; QE's branch held).
#pragma once
#include <type_traits>

#include "models/option/american_path.hpp"
#include "models/option/basket_path.hpp"
#include "models/option/heston_step.hpp"
#include "models/option/payoff.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// The most assets a walked basket has: kernels.hpp compiles a kernel per size.
constexpr int kMaxExerciseAssets = 8;

// The Greeks' inputs (N assets): 1 / S_a, L^-T, A, R^-1, S11^-1, the score's
// baseline, and per pair (a < b) dA and dR in float (the kernel's parameters must
// stay within CUDA's 32 KB).
template <class Real, int N>
struct ExerciseGreekData {
  static constexpr int kPairs = N * (N - 1) / 2 ? N * (N - 1) / 2 : 1;
  Real inv_spot[N];
  Real score[N][N];       // L^-T: zero below the diagonal
  Real loading[N][N];     // A
  Real unload[N][N];      // R^-1: zero above the diagonal
  Real variance_precision[N][N];  // S11^-1
  Real baseline;          // c: the likelihood ratio's constant
  float d_loading[kPairs][N][N], d_factor[kPairs][N][N];  // dA / dC_ab, dR / dC_ab
};

template <class Real, int N, bool Greeks = false>
struct BasketExercisePath {
  static_assert(N >= 1 && N <= kMaxExerciseAssets, "a walked basket has 1 to kMaxExerciseAssets assets");
  using real_type = Real;
  static constexpr int kCap = N;
  static constexpr int kPairs = N * (N - 1) / 2;
  // after the price: per asset delta, gamma, vega; rho; per asset dividend rho; per pair (a < b) correlation
  static constexpr int kGreeks = Greeks ? 4 * N + 1 + kPairs : 0;
  static constexpr int kOutputs = 1 + kGreeks;
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 1;  // CUDA launch bound: registers as needed
  static constexpr int kMaxDates = AmericanPath<Real>::kMaxDates;
  static constexpr int kBasis = AmericanPath<Real>::kBasis;

  BasketPayoff payoff;
  int steps, every;            // steps of dt; exercisable after every `every`-th (the last date: maturity)
  bool stochastic;             // Heston variances (else each held at sigma_a^2: GBM, no p drawn)
  Real log_spot[kCap], weight[kCap];
  Real factor[kCap][kCap];     // L: the correlation's Cholesky factor, zero above the diagonal
  HestonStep<Real> heston[kCap];
  Real strike, sign, dt;       // sign: +1 call, -1 put
  Real discount_at[kMaxDates]; // exp(-r t_i) at the exercise dates
  Real beta[kMaxDates][kBasis];  // continuation value at t_i in the moneyness observed / K
  std::conditional_t<Greeks, ExerciseGreekData<Real, N>, NoGreekData> greek;

  // The observed level (and which asset it is, for best and worst) of the levels w_a S_a.
  MCSIM_HD Real observe(const Real (&level)[kCap], int& at) const {
    Real sum = Real(0), best = level[0], worst = level[0];
    int best_at = 0, worst_at = 0;
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      sum += level[a];
      if (level[a] > best) best = level[a], best_at = a;
      if (level[a] < worst) worst = level[a], worst_at = a;
    }
    at = payoff == BasketPayoff::Max ? best_at : worst_at;
    return payoff == BasketPayoff::Average ? sum
           : payoff == BasketPayoff::Max   ? best
           : payoff == BasketPayoff::Min   ? worst
                                           : level[0] - (sum - level[0]);
  }

  // One step of every lane's assets: the step's normals z (spots, independent) and
  // p (variances' own parts), then HestonStep. sd: the step's spot deviations. With
  // Tangents, dx and dv carry the log spots' and variances' tangents in each asset's
  // initial volatility.
  template <bool Tangents = false>
  MCSIM_HD void step(rng::Stream& stream, Real (&x)[kGroup][kCap], Real (&v)[kGroup][kCap], Real (&z)[kCap][kGroup],
                     Real (&p)[kCap][kGroup], Real (&sd)[kGroup][kCap], Real (*dx)[kCap] = nullptr,
                     Real (*dv)[kCap] = nullptr) const {
    constexpr int G = kGroup;
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      const auto block = rng::normals<Real>(stream);
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l) z[a][l] = block.z[l];
    }
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      const auto block = stochastic ? rng::normals<Real>(stream) : rng::NormalBlock<Real>{};
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l) p[a][l] = block.z[l];
    }
    MCSIM_UNROLL
    for (int l = 0; l < G; ++l)
      MCSIM_UNROLL
      for (int a = 0; a < N; ++a) {
        Real w = Real(0);
        MCSIM_UNROLL
        for (int b = 0; b <= a; ++b) w += factor[a][b] * z[b][l];
        const HestonStep<Real>& h = heston[a];
        const Real before = v[l][a];
        const Real z1 = h.rho * w + h.rho_bar * p[a][l], z2 = h.rho_bar * w - h.rho * p[a][l];
        if constexpr (Tangents)
          h.advance(x[l][a], v[l][a], z1, z2, &dx[l][a], &dv[l][a]);
        else
          h.advance(x[l][a], v[l][a], z1, z2);
        sd[l][a] = h.spot_deviation(before, v[l][a]);
      }
  }

  MCSIM_HD void start(Real (&x)[kGroup][kCap], Real (&v)[kGroup][kCap]) const {
    MCSIM_UNROLL
    for (int l = 0; l < kGroup; ++l)
      MCSIM_UNROLL
      for (int a = 0; a < N; ++a) x[l][a] = log_spot[a], v[l][a] = heston[a].v0;
  }

  // The fit's walk: at(date, lane, observed) at each exercise date, every lane.
  template <class At>
  MCSIM_HD void walk(rng::Stream& stream, At&& at) const {
    constexpr int G = kGroup;
    Real x[G][kCap], v[G][kCap], z[kCap][G], p[kCap][G], sd[G][kCap], level[kCap];
    start(x, v);
    for (int i = 0; i < steps; ++i) {
      step(stream, x, v, z, p, sd);
      if ((i + 1) % every) continue;
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l) {
        for (int a = 0; a < N; ++a) level[a] = weight[a] * fast_exp(x[l][a]);
        int which = 0;
        at((i + 1) / every - 1, l, observe(level, which));
      }
    }
  }

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    Real x[G][kCap], v[G][kCap], z[kCap][G], p[kCap][G], sd[G][kCap], level[kCap];
    Real value[G];
    bool done[G];
    // Greeks: the first step's spot scores, M1 and M2 (the header), at exercise g and
    // the time; the log spots' and variances' tangents in the initial volatilities
    // (at exercise the variances' are zeroed, which holds the log spots' from then on)
    constexpr int NG = Greeks ? G : 1, NM = Greeks ? N : 1, NP = Greeks && kPairs ? kPairs : 1;
    Real first[NG][N], m1[NG][NM][NM], m2[NG][NM][NM], g[NG][N], when[NG], lr[NG][NP];
    Real dx[NG][kCap], dv[NG][kCap];
    start(x, v);
    MCSIM_UNROLL
    for (int l = 0; l < G; ++l) value[l] = Real(0), done[l] = false;
    if constexpr (Greeks) {
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l) {
        when[l] = Real(0);
        for (int a = 0; a < N; ++a) {
          first[l][a] = g[l][a] = dx[l][a] = Real(0);
          dv[l][a] = Real(2) * sqrt(heston[a].v0);
          for (int b = 0; b < N; ++b) m1[l][a][b] = m2[l][a][b] = Real(0);
        }
        for (int k = 0; k < NP; ++k) lr[l][k] = Real(0);
      }
    }
    for (int i = 0; i < steps; ++i) {
      if constexpr (Greeks)
        step<true>(stream, x, v, z, p, sd, dx, dv);
      else
        step(stream, x, v, z, p, sd);
      const bool date = (i + 1) % every == 0, last = i + 1 == steps;
      MCSIM_UNROLL
      for (int l = 0; l < G; ++l) {
        if (done[l]) continue;
        if constexpr (Greeks) score_step(i, l, z, p, sd, first, m1, m2, lr);
        if (!date) continue;
        MCSIM_UNROLL
        for (int a = 0; a < N; ++a) level[a] = weight[a] * fast_exp(x[l][a]);
        int which = 0;
        const Real observed = observe(level, which);
        const Real intrinsic = sign * (observed - strike);
        const int d = (i + 1) / every - 1;
        if (intrinsic > Real(0) && (last || intrinsic >= lsm_continuation(beta[d], observed / strike))) {
          value[l] = discount_at[d] * intrinsic;
          done[l] = true;
          if constexpr (Greeks) {
            when[l] = static_cast<Real>(i + 1) * dt;
            for (int a = 0; a < N; ++a) {
              const bool in = payoff == BasketPayoff::Average || payoff == BasketPayoff::Spread || a == which;
              const Real along = payoff == BasketPayoff::Spread && a > 0 ? -sign : sign;
              g[l][a] = in ? discount_at[d] * along * level[a] : Real(0);
              dv[l][a] = Real(0);  // HestonStep::advance moves neither tangent from here on
            }
          }
        }
      }
    }
    for (int l = 0; l < lanes; ++l) {
      acc.add(0, value[l]);
      if constexpr (Greeks) tally_greeks(l, value[l], first, m1, m2, lr, g, when, dx, acc);
    }
  }

  // Greeks: lane l's step i (not yet exercised): the first step's spot scores, and
  // every step's terms of M1, M2 and the variances' likelihood ratio.
  template <int NP>
  MCSIM_HD void score_step(int i, int l, const Real (&z)[kCap][kGroup], const Real (&p)[kCap][kGroup],
                           const Real (&sd)[kGroup][kCap], Real (&first)[kGroup][kCap],
                           Real (&m1)[kGroup][kCap][kCap], Real (&m2)[kGroup][kCap][kCap],
                           Real (&lr)[kGroup][NP]) const {
    if (i == 0) {
      MCSIM_UNROLL
      for (int a = 0; a < N; ++a) {
        Real u = Real(0);
        MCSIM_UNROLL
        for (int b = a; b < N; ++b) u += greek.score[a][b] * z[b][l];
        first[l][a] = (heston[a].rho_bar * u - heston[a].rho * p[a][l]) / sd[l][a];
      }
    }
    Real z1[kCap], z2[kCap];
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      Real w = Real(0);
      MCSIM_UNROLL
      for (int b = 0; b <= a; ++b) w += factor[a][b] * z[b][l];
      z1[a] = heston[a].rho * w + heston[a].rho_bar * p[a][l];
      z2[a] = heston[a].rho_bar * w - heston[a].rho * p[a][l];
    }
    if (stochastic && kPairs > 0) {
      Real y[kCap];
      MCSIM_UNROLL
      for (int a = 0; a < N; ++a) {
        y[a] = Real(0);
        MCSIM_UNROLL
        for (int b = 0; b < N; ++b) y[a] += greek.variance_precision[a][b] * z1[b];
      }
      int k = 0;
      MCSIM_UNROLL
      for (int a = 0; a < N; ++a)
        MCSIM_UNROLL
        for (int b = a + 1; b < N; ++b, ++k) lr[l][k] += y[a] * y[b] - greek.variance_precision[a][b];
    }
    MCSIM_UNROLL
    for (int c = 0; c < N; ++c) {
      MCSIM_UNROLL
      for (int d = 0; d < N; ++d) z2[c] -= greek.loading[c][d] * z1[d];  // R eta
    }
    MCSIM_UNROLL
    for (int c = 0; c < N; ++c) {
      MCSIM_UNROLL
      for (int d = 0; d < N; ++d) m1[l][c][d] += sd[l][c] * z1[d];
      MCSIM_UNROLL
      for (int d = 0; d <= c; ++d) {
        Real eta = Real(0);
        MCSIM_UNROLL
        for (int e = 0; e <= d; ++e) eta += greek.unload[d][e] * z2[e];
        m2[l][c][d] += sd[l][c] * eta;
      }
    }
  }

  template <int NP, class Acc>
  MCSIM_HD void tally_greeks(int l, Real value, const Real (&first)[kGroup][kCap], const Real (&m1)[kGroup][kCap][kCap],
                             const Real (&m2)[kGroup][kCap][kCap], const Real (&lr)[kGroup][NP],
                             const Real (&g)[kGroup][kCap], const Real (&when)[kGroup], const Real (&dx)[kGroup][kCap],
                             Acc& acc) const {
    Real g_total = Real(0);
    MCSIM_UNROLL
    for (int a = 0; a < N; ++a) {
      const Real d = g[l][a] * greek.inv_spot[a];
      acc.add(1 + a, d);
      acc.add(1 + N + a, d * (first[l][a] - Real(1)) * greek.inv_spot[a]);
      acc.add(1 + 2 * N + a, g[l][a] * dx[l][a]);
      acc.add(2 + 3 * N + a, -when[l] * g[l][a]);
      g_total += g[l][a];
    }
    acc.add(1 + 3 * N, when[l] * (g_total - value));
    int k = 0;
    for (int a = 0; a < N; ++a)
      for (int b = a + 1; b < N; ++b, ++k) {
        Real sum = stochastic ? heston[a].rho * heston[b].rho * (value - greek.baseline) * lr[l][k] : Real(0);
        MCSIM_UNROLL
        for (int c = 0; c < N; ++c) {
          Real along = Real(0);
          MCSIM_UNROLL
          for (int d = 0; d < N; ++d)
            along += static_cast<Real>(greek.d_loading[k][c][d]) * m1[l][c][d] +
                     (d <= c ? static_cast<Real>(greek.d_factor[k][c][d]) * m2[l][c][d] : Real(0));
          sum += g[l][c] * along;
        }
        acc.add(2 + 4 * N + k, sum);
      }
  }
};

// A kernel is a CUDA launch's parameter: at most 32764 bytes with the launch's own.
static_assert(sizeof(BasketExercisePath<double, kMaxExerciseAssets, true>) <= 32000,
              "a walked basket's kernel must fit CUDA's kernel parameters");

}  // namespace mcsim::option
