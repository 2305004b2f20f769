// A basket's path kernel from its spec: the plain one, the geometric control's, or
// the one of its size that scores its Greeks.
#include "models/option/basket_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/option/lsm.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

namespace {

BasketPayoff basket_payoff(BasketKind b) {
  switch (b) {
    case BasketKind::Average: return BasketPayoff::Average;
    case BasketKind::Max: return BasketPayoff::Max;
    case BasketKind::Min: return BasketPayoff::Min;
    default: return BasketPayoff::Spread;  // spread, and exchange: a spread struck at 0
  }
}

// The inverse of a lower-triangular n x n matrix f(a, b) by forward substitution, in
// double (its pivots clear of zero).
template <class F>
std::vector<std::vector<double>> lower_inverse(std::size_t n, F&& factor) {
  std::vector<std::vector<double>> inverse(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    inverse[i][i] = 1 / factor(i, i);
    for (std::size_t j = 0; j < i; ++j) {
      double sum = 0;
      for (std::size_t m = j; m < i; ++m) sum += factor(i, m) * inverse[m][j];
      inverse[i][j] = -sum / factor(i, i);
    }
  }
  return inverse;
}

template <class Real, bool Control, int N = 0>
BasketPath<Real, Control, N> make_basket_path(const OptionSpec& s) {
  BasketPath<Real, Control, N> k{};
  const std::size_t n = s.assets.size();
  double total_weight = 0;
  for (double w : s.weights) total_weight += w;
  k.payoff = basket_payoff(s.basket);
  k.assets = static_cast<int>(n);
  const double root_t = std::sqrt(s.maturity);
  for (std::size_t a = 0; a < n; ++a) {
    const Asset& x = s.assets[a];
    k.log_forward[a] = static_cast<Real>(std::log(x.spot) +
                                         (s.rate - x.dividend - 0.5 * x.volatility * x.volatility) * s.maturity);
    k.weight[a] = static_cast<Real>(s.weights[a]);
    k.geometric_weight[a] = static_cast<Real>(s.weights[a] / total_weight);
    for (std::size_t b = 0; b <= a; ++b)
      k.factor[a][b] = static_cast<Real>(x.volatility * root_t * s.cholesky[a * n + b]);
  }
  k.total_weight = static_cast<Real>(total_weight);
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  k.discount = static_cast<Real>(std::exp(-s.rate * s.maturity));
  k.antithetic = s.antithetic;
  if constexpr (N != 0) {
    // A^-1 by forward substitution (A lower triangular, its pivots clear of zero:
    // basket_greeks_on_path), in double; the kernel takes its transpose.
    const auto inverse = lower_inverse(
        n, [&](std::size_t a, std::size_t b) { return s.assets[a].volatility * root_t * s.cholesky[a * n + b]; });
    auto& g = k.greek;
    for (std::size_t a = 0; a < n; ++a) {
      const double vol = s.assets[a].volatility;
      g.inv_spot[a] = static_cast<Real>(1 / s.assets[a].spot);
      g.inv_vol[a] = static_cast<Real>(1 / vol);
      g.vol_t[a] = static_cast<Real>(vol * s.maturity);
      for (std::size_t b = 0; b < n; ++b) {
        g.score[a][b] = static_cast<Real>(b >= a ? inverse[b][a] : 0.0);
        g.covariance[a][b] = static_cast<Real>(vol * s.assets[b].volatility * s.maturity);
      }
    }
    g.maturity = static_cast<Real>(s.maturity);
  }
  return k;
}

// The Greek-scoring basket kernel of the job's size (2 .. kMaxPathGreekAssets assets).
template <class Real, int N = 2>
PathKernel basket_greek_kernel(const OptionSpec& s) {
  if constexpr (N > kMaxPathGreekAssets) {
    throw std::logic_error("no path-Greek kernel for a basket of " + std::to_string(s.assets.size()) + " assets");
  } else {
    if (s.assets.size() == static_cast<std::size_t>(N)) return PathKernel(make_basket_path<Real, false, N>(s));
    return basket_greek_kernel<Real, N + 1>(s);
  }
}

// GBM as a Heston step whose variance stays at sigma^2: Euler's log step with
// rho = 0, exact for GBM.
template <class Real>
HestonStep<Real> gbm_step(double volatility, double dt, double carry_dt) {
  HestonStep<Real> h{};
  h.qe = false;
  h.v0 = static_cast<Real>(volatility * volatility);
  h.dt = static_cast<Real>(dt);
  h.carry_dt = static_cast<Real>(carry_dt);
  h.rho_bar = Real(1);
  return h;
}

// A walked basket's path without its exercise rule and Greek data.
template <class Real, int N, bool Greeks>
BasketExercisePath<Real, N, Greeks> make_walk(const OptionSpec& s) {
  BasketExercisePath<Real, N, Greeks> k{};
  k.payoff = basket_payoff(s.basket);
  k.steps = static_cast<int>(s.steps);
  k.every = static_cast<int>(s.steps / s.exercise_dates);
  k.stochastic = s.heston();
  const double dt = s.maturity / static_cast<double>(s.steps);
  for (std::size_t a = 0; a < static_cast<std::size_t>(N); ++a) {
    const Asset& x = s.assets[a];
    k.log_spot[a] = static_cast<Real>(std::log(x.spot));
    k.weight[a] = static_cast<Real>(s.weights[a]);
    for (std::size_t b = 0; b <= a; ++b) k.factor[a][b] = static_cast<Real>(s.cholesky[a * N + b]);
    const double carry_dt = (s.rate - x.dividend) * dt;
    k.heston[a] = s.heston() ? make_heston_step<Real>(s.qe, x.v0, x.kappa, x.theta, x.xi, x.rho, dt, carry_dt)
                             : gbm_step<Real>(x.volatility, dt, carry_dt);
  }
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  k.dt = static_cast<Real>(dt);
  const auto dates = static_cast<int>(s.exercise_dates);
  for (int i = 0; i < dates; ++i)
    k.discount_at[i] = static_cast<Real>(std::exp(-s.rate * s.maturity * (i + 1) / dates));
  return k;
}

// The exercise rule, fitted on the regression paths walked in double by the same
// steps (Philox subsequences of their own: kRegressionStreams).
// Its in-sample price serves the correlation score as its baseline (a European's
// "fit" on `paths` walks one date: its mean discounted payoff).
template <int N>
ExerciseRule fit_basket_rule(const OptionSpec& s, std::uint64_t seed, std::uint64_t paths) {
  const auto walk = make_walk<double, N, false>(s);
  constexpr int G = decltype(walk)::kGroup;
  const auto dates = static_cast<int>(s.exercise_dates);
  std::vector<double> level(static_cast<std::size_t>(dates) * paths);
  const auto groups = static_cast<std::int64_t>(paths / G);
  // Each group writes its own slots: the same bits on any number of threads.
#pragma omp parallel for schedule(static)
  for (std::int64_t g = 0; g < groups; ++g) {
    rng::Stream stream(seed, kRegressionStreams | static_cast<std::uint64_t>(g));
    walk.walk(stream, [&](int date, int lane, double observed) {
      level[static_cast<std::size_t>(date) * paths + static_cast<std::uint64_t>(g) * G + static_cast<std::uint64_t>(lane)] = observed;
    });
  }
  return fit_exercise_rule(level, paths, dates, s.strike, s.call ? 1.0 : -1.0, s.rate, s.maturity);
}

using Matrix = std::vector<std::vector<double>>;

Matrix product(const Matrix& a, const Matrix& b, bool transpose_b = false) {
  const std::size_t n = a.size();
  Matrix out(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = 0; k < n; ++k) out[i][j] += a[i][k] * (transpose_b ? b[j][k] : b[k][j]);
  return out;
}

// L with L L^T = m, m positive definite (n <= kMaxExerciseAssets).
Matrix cholesky(const Matrix& m) {
  const std::size_t n = m.size();
  Matrix l(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = m[i][j];
      for (std::size_t k = 0; k < j; ++k) sum -= l[i][k] * l[j][k];
      l[i][j] = i == j ? std::sqrt(std::max(sum, 0.0)) : sum / l[j][j];
    }
  return l;
}

// Given the variances' normals z1, the spots' independent parts are z2 = A z1 + R eta:
// A and R (lower) from the correlation C and each asset's rho (basket_exercise_path.hpp).
// (z1, z2) = (D w + E p, E w - D p) with D = diag(rho), E = diag(rho_bar), w ~ N(0, C).
struct Loading {
  Matrix a, r, s11_inv;  // and S11^-1, the variances' normals' precision
};
Loading loading_of(const Matrix& c, const std::vector<double>& rho) {
  const std::size_t n = c.size();
  Matrix s11(n, std::vector<double>(n)), s21 = s11, s22 = s11;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double ri = rho[i], rj = rho[j], bi = std::sqrt(1 - ri * ri), bj = std::sqrt(1 - rj * rj);
      const double same = i == j ? 1.0 : 0.0;
      s11[i][j] = ri * c[i][j] * rj + bi * bj * same;
      s21[i][j] = bi * c[i][j] * rj - ri * bj * same;
      s22[i][j] = bi * c[i][j] * bj + ri * rj * same;
    }
  // A = S21 S11^-1 through S11 = L11 L11^T; the residual S22 - A S21^T.
  const Matrix l11 = cholesky(s11);
  Loading out;
  const Matrix li = lower_inverse(n, [&](std::size_t i, std::size_t j) { return l11[i][j]; });
  Matrix s11_inv(n, std::vector<double>(n, 0.0));  // L^-T L^-1
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = std::max(i, j); k < n; ++k) s11_inv[i][j] += li[k][i] * li[k][j];
  out.a = product(s21, s11_inv);
  out.s11_inv = s11_inv;
  Matrix residual = s22;
  const Matrix a_s12 = product(out.a, s21, true);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) residual[i][j] -= a_s12[i][j];
  out.r = cholesky(residual);
  return out;
}

template <class Real, int N, bool Greeks>
BasketExercisePath<Real, N, Greeks> make_exercise_path(const OptionSpec& s, const ExerciseRule& rule) {
  auto k = make_walk<Real, N, Greeks>(s);
  constexpr int kBasis = decltype(k)::kBasis;
  for (std::size_t i = 0; i < rule.beta.size(); ++i) k.beta[i / kBasis][i % kBasis] = static_cast<Real>(rule.beta[i]);
  if constexpr (Greeks) {
    constexpr auto n = static_cast<std::size_t>(N);
    auto& g = k.greek;
    const auto inverse = lower_inverse(n, [&](std::size_t a, std::size_t b) { return s.cholesky[a * n + b]; });
    std::vector<double> rho(n, 0.0);
    for (std::size_t a = 0; a < n; ++a) rho[a] = s.heston() ? s.assets[a].rho : 0.0;
    const Loading base = loading_of(s.correlation, rho);
    const Matrix unload = lower_inverse(n, [&](std::size_t a, std::size_t b) { return base.r[a][b]; });
    g.baseline = static_cast<Real>(rule.in_sample_price);
    for (std::size_t a = 0; a < n; ++a) {
      g.inv_spot[a] = static_cast<Real>(1 / s.assets[a].spot);
      for (std::size_t b = 0; b < n; ++b) {
        g.score[a][b] = static_cast<Real>(b >= a ? inverse[b][a] : 0.0);  // L^-T
        g.loading[a][b] = static_cast<Real>(base.a[a][b]);
        g.unload[a][b] = static_cast<Real>(unload[a][b]);
        g.variance_precision[a][b] = static_cast<Real>(base.s11_inv[a][b]);
      }
    }
    // dA and dR per pair by central differences in both entries of the pair.
    constexpr double h = 1e-5;
    int pair = 0;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b, ++pair) {
        Matrix up = s.correlation, down = s.correlation;
        up[a][b] = up[b][a] += h;
        down[a][b] = down[b][a] -= h;
        const Loading lu = loading_of(up, rho), ld = loading_of(down, rho);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j) {
            g.d_loading[pair][i][j] = static_cast<float>((lu.a[i][j] - ld.a[i][j]) / (2 * h));
            g.d_factor[pair][i][j] = static_cast<float>((lu.r[i][j] - ld.r[i][j]) / (2 * h));
          }
      }
  }
  return k;
}

// The walked basket's kernel of the job's size.
template <class Real, bool Greeks, int N = 1>
PathKernel exercise_kernel(const OptionSpec& s, const ExerciseRule& rule) {
  if constexpr (N > kMaxExerciseAssets) {
    throw std::logic_error("no kernel for a walked basket of " + std::to_string(s.assets.size()) + " assets");
  } else {
    if (s.assets.size() == static_cast<std::size_t>(N)) return PathKernel(make_exercise_path<Real, N, Greeks>(s, rule));
    return exercise_kernel<Real, Greeks, N + 1>(s, rule);
  }
}

template <int N = 1>
ExerciseRule fit_of_size(const OptionSpec& s, std::uint64_t seed, std::uint64_t paths) {
  if constexpr (N > kMaxExerciseAssets) {
    throw std::logic_error("no walk for a basket of " + std::to_string(s.assets.size()) + " assets");
  } else {
    if (s.assets.size() == static_cast<std::size_t>(N)) return fit_basket_rule<N>(s, seed, paths);
    return fit_of_size<N + 1>(s, seed, paths);
  }
}

}  // namespace

bool exercise_greeks_on_path(const OptionSpec& s) {
  const std::size_t n = s.assets.size();
  for (std::size_t a = 0; a < n; ++a) {
    const Asset& x = s.assets[a];
    // the first step's spot deviation divides the gamma's score
    const bool moves = s.heston() ? x.v0 > 0 && std::fabs(x.rho) < 1 : x.volatility > 0;
    if (s.cholesky[a * n + a] < 1e-6 || !moves) return false;
  }
  return true;
}

ExerciseRule fit_walked_basket(const OptionSpec& s, std::uint64_t seed, bool greeks) {
  // A European's correlation score under Heston wants only a baseline: a short walk.
  constexpr std::uint64_t kBaselinePaths = 16384;
  if (s.exercise_dates > 1) return fit_of_size(s, seed, s.regression_paths);
  if (greeks && s.heston()) return fit_of_size(s, seed, kBaselinePaths);
  return {};
}

PathKernel basket_exercise_kernel(const OptionSpec& s, Precision precision, const ExerciseRule& rule, bool greeks) {
  const bool f = precision == Precision::Float;
  if (greeks) return f ? exercise_kernel<float, true>(s, rule) : exercise_kernel<double, true>(s, rule);
  return f ? exercise_kernel<float, false>(s, rule) : exercise_kernel<double, false>(s, rule);
}

bool basket_greeks_on_path(const OptionSpec& s) {
  const std::size_t n = s.assets.size();
  if (n < 2 || n > static_cast<std::size_t>(kMaxPathGreekAssets) || s.control_variate) return false;
  for (std::size_t a = 0; a < n; ++a)
    if (s.cholesky[a * n + a] < 1e-6 || s.assets[a].volatility <= 0) return false;
  return true;
}

PathKernel basket_kernel(const OptionSpec& s, Precision precision, bool greeks) {
  const bool f = precision == Precision::Float;
  if (greeks) return f ? basket_greek_kernel<float>(s) : basket_greek_kernel<double>(s);
  if (s.control_variate) return f ? PathKernel(make_basket_path<float, true>(s)) : PathKernel(make_basket_path<double, true>(s));
  return f ? PathKernel(make_basket_path<float, false>(s)) : PathKernel(make_basket_path<double, false>(s));
}

std::string correlation_greek(const OptionSpec& s, std::size_t a, std::size_t b) {
  return "correlation_" + s.assets[a].name + "_" + s.assets[b].name;
}

}  // namespace mcsim::option
