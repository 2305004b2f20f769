#include "models/option/lsm.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "models/option/american_path.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

namespace {
constexpr int kBasis = AmericanPath<double>::kBasis;
using Vec = Basis4;
static_assert(kBasis == 4, "the normal equations are of four basis functions");
}  // namespace

bool solve_normal_equations(std::array<Vec, kBasis> a, Vec b, Vec& x) {
  for (int c = 0; c < kBasis; ++c) {
    int p = c;
    for (int r = c + 1; r < kBasis; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[p][c])) p = r;
    if (std::fabs(a[p][c]) < 1e-13 * std::fabs(a[0][0])) return false;
    std::swap(a[p], a[c]);
    std::swap(b[p], b[c]);
    for (int r = c + 1; r < kBasis; ++r) {
      const double f = a[r][c] / a[c][c];
      for (int k = c; k < kBasis; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = kBasis - 1; c >= 0; --c) {
    double s = b[c];
    for (int k = c + 1; k < kBasis; ++k) s -= a[c][k] * x[k];
    x[c] = s / a[c][c];
  }
  return true;
}

ExerciseRule fit_exercise_rule(const LsmInput& in) {
  const int n = in.dates;
  const std::uint64_t paths = in.paths;
  const double dt = in.maturity / n;
  const double drift = (in.rate - in.dividend - 0.5 * in.volatility * in.volatility) * dt;
  const double vol = in.volatility * std::sqrt(dt);
  const double sign = in.call ? 1.0 : -1.0;
  constexpr int G = rng::NormalBlock<double>::size;

  // Spots by date, then path: spot[i * paths + p] at t_{i+1}.
  std::vector<double> spot(static_cast<std::size_t>(n) * paths);
  for (std::uint64_t g = 0; g < paths / G; ++g) {
    rng::Stream stream(in.seed, kRegressionStreams | g);
    double x[G];
    for (double& v : x) v = std::log(in.spot);
    for (int i = 0; i < n; ++i) {
      const auto z = rng::normals<double>(stream);
      for (int l = 0; l < G; ++l) {
        x[l] += drift + vol * z.z[l];
        spot[static_cast<std::size_t>(i) * paths + g * G + l] = std::exp(x[l]);
      }
    }
  }

  return fit_exercise_rule(spot, paths, n, in.strike, sign, in.rate, in.maturity);
}

ExerciseRule fit_exercise_rule(const std::vector<double>& level, std::uint64_t paths, int dates, double strike,
                               double sign, double rate, double maturity) {
  const int n = dates;
  const double dt = maturity / n;
  // Each path's cash flow under the rule fitted so far, discounted to time 0.
  std::vector<double> value(paths);
  const auto intrinsic = [&](double s) { return std::max(0.0, sign * (s - strike)); };
  for (std::uint64_t p = 0; p < paths; ++p)
    value[p] = std::exp(-rate * maturity) * intrinsic(level[static_cast<std::size_t>(n - 1) * paths + p]);

  ExerciseRule rule;
  rule.beta.assign(static_cast<std::size_t>(std::max(n - 1, 0)) * kBasis, 0.0);
  for (int i = n - 2; i >= 0; --i) {
    const double t = (i + 1) * dt, grow = std::exp(rate * t);
    const double* s = &level[static_cast<std::size_t>(i) * paths];
    std::array<Vec, kBasis> normal{};
    Vec rhs{};
    for (std::uint64_t p = 0; p < paths; ++p) {
      if (intrinsic(s[p]) <= 0) continue;  // only paths that could exercise inform the rule
      const double m = s[p] / strike;
      const Vec phi{1.0, m, m * m, m * m * m};
      for (int a = 0; a < kBasis; ++a) {
        rhs[a] += phi[a] * value[p] * grow;
        for (int b = 0; b < kBasis; ++b) normal[a][b] += phi[a] * phi[b];
      }
    }
    Vec beta{};
    if (!solve_normal_equations(normal, rhs, beta)) {
      // Too few paths in the money to fit: hold on at this date.
      beta = {std::numeric_limits<double>::infinity(), 0, 0, 0};
    }
    for (int a = 0; a < kBasis; ++a) rule.beta[static_cast<std::size_t>(i) * kBasis + a] = beta[a];
    for (std::uint64_t p = 0; p < paths; ++p) {
      const double now = intrinsic(s[p]), m = s[p] / strike;
      if (now > 0 && now >= lsm_continuation(beta.data(), m)) value[p] = now / grow;
    }
  }
  double sum = 0;
  for (double v : value) sum += v;
  rule.in_sample_price = sum / static_cast<double>(paths);
  return rule;
}

}  // namespace mcsim::option
