#include "models/rates/bermudan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/option/analytic.hpp"
#include "models/option/lsm.hpp"
#include "rng/stream.hpp"

namespace mcsim::rates {

namespace {
constexpr int kFields = ShortRatePath<double, 1>::kRuleFields;
constexpr int kDateFields = ShortRatePath<double, 1>::kDateFields;
}  // namespace

TableData fit_bermudan_rule(const RateTables& tables, std::uint64_t paths, std::uint64_t seed) {
  const ShortRatePath<double, 1> path = make_short_rate_path<double, 1>(tables);
  const int n = tables.count;
  constexpr int G = rng::NormalBlock<double>::size;
  paths = paths / G * G;
  // Per date, then path: the coupon bond, the exercise value and the discount to today.
  const auto at = [paths](int k, std::uint64_t p) { return static_cast<std::size_t>(k) * paths + p; };
  std::vector<double> held(static_cast<std::size_t>(n) * paths), paid(held.size()), discount(held.size());
  for (std::uint64_t g = 0; g < paths / G; ++g) {
    rng::Stream stream(seed, option::kRegressionStreams | g);
    double x[G] = {}, integral[G] = {};
    for (int k = 0; k < n; ++k) {
      const double* d = path.date_data.data + static_cast<std::size_t>(k) * kDateFields;
      const auto z1 = rng::normals<double>(stream);
      const auto z2 = rng::normals<double>(stream);
      for (int l = 0; l < G; ++l) {
        hull_white_step(d, z1.z[l], z2.z[l], x[l], integral[l]);
        const std::size_t i = at(k, g * G + l);
        held[i] = path.bond(k, x[l]);
        paid[i] = path.payoff(k, held[i]);
        discount[i] = std::exp(d[5] - integral[l]);
      }
    }
  }
  // Each path's cash flow under the rule fitted so far, discounted to today.
  std::vector<double> value(paths), rule(static_cast<std::size_t>(n) * kFields, 0.0);
  for (std::uint64_t p = 0; p < paths; ++p) value[p] = discount[at(n - 1, p)] * paid[at(n - 1, p)];
  for (int k = n - 2; k >= 0; --k) {
    const double strike = path.date_data[static_cast<std::size_t>(k) * kDateFields + 8];
    // The basis in u = (bond - strike) / scale, scale the spread of u among the
    // in-the-money paths, so the normal equations are well conditioned.
    double spread = 0;
    std::uint64_t in_money = 0;
    for (std::uint64_t p = 0; p < paths; ++p)
      if (paid[at(k, p)] > 0) spread += std::pow(held[at(k, p)] - strike, 2), ++in_money;
    const double scale = in_money ? std::sqrt(spread / static_cast<double>(in_money)) : 1.0;
    std::array<option::Basis4, 4> normal{};
    option::Basis4 rhs{}, beta{};
    for (std::uint64_t p = 0; p < paths; ++p) {
      const std::size_t i = at(k, p);
      if (!(paid[i] > 0)) continue;  // only paths that could exercise inform the rule
      const double u = (held[i] - strike) / scale, y = value[p] / discount[i];
      const option::Basis4 phi{1.0, u, u * u, u * u * u};
      for (int a = 0; a < kFields; ++a) {
        rhs[a] += phi[a] * y;
        for (int b = 0; b < kFields; ++b) normal[a][b] += phi[a] * phi[b];
      }
    }
    // Too few paths in the money to fit: hold on at this date.
    if (!(scale > 0) || !option::solve_normal_equations(normal, rhs, beta))
      beta = {std::numeric_limits<double>::max(), 0, 0, 0};
    // Back to powers of (bond - strike), as the kernel evaluates them.
    double* r = &rule[static_cast<std::size_t>(k) * kFields];
    for (int a = 0; a < kFields; ++a) r[a] = beta[a] / std::pow(scale, a);
    for (std::uint64_t p = 0; p < paths; ++p) {
      const std::size_t i = at(k, p);
      if (path.exercises(k, paid[i], held[i], r)) value[p] = discount[i] * paid[i];
    }
  }
  return TableData(rule);
}

namespace {
// E[f(X)], X ~ N(mean, sd^2), f linear between the grid's nodes and flat beyond.
double expect_linear(const std::vector<double>& grid, const std::vector<double>& f, double mean, double sd) {
  const std::size_t n = grid.size();
  std::vector<double> cdf(n), pdf(n);
  for (std::size_t j = 0; j < n; ++j) {
    const double z = (grid[j] - mean) / sd;
    cdf[j] = option::normal_cdf(z), pdf[j] = option::normal_pdf(z);
  }
  double sum = f[0] * cdf[0] + f[n - 1] * (1 - cdf[n - 1]);
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const double mass = cdf[j + 1] - cdf[j];
    if (mass == 0) continue;
    const double slope = (f[j + 1] - f[j]) / (grid[j + 1] - grid[j]);
    sum += (f[j] - slope * grid[j]) * mass + slope * (mean * mass - sd * (pdf[j + 1] - pdf[j]));
  }
  return sum;
}
}  // namespace

double bermudan_swaption_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool payer,
                               int nodes) {
  const auto events = bermudan_swaption_events(dates, strike, payer);
  const double a = m.a, s2 = m.sigma * m.sigma;
  const double last = events.back().date, reach = 8 * m.sigma * std::sqrt((1 - std::exp(-2 * a * last)) / (2 * a));
  std::vector<double> grid(static_cast<std::size_t>(nodes)), value(grid.size());
  for (int i = 0; i < nodes; ++i) grid[static_cast<std::size_t>(i)] = -reach + 2 * reach * i / (nodes - 1);
  const auto exercise = [&](const RateEvent& e, double x) {
    double bond = 0;
    for (std::size_t i = 0; i < e.amounts.size(); ++i) bond += e.amounts[i] * m.bond(e.date, e.times[i], x);
    return std::max(0.0, e.sign * (bond - e.strike));
  };
  // x at t + dt under the (t + dt)-forward measure, given x at t: its mean is
  // decay x - shift, its variance x's own.
  const auto transition = [&](double dt, double* decay, double* shift, double* sd) {
    *decay = std::exp(-a * dt);
    *shift = s2 / (a * a) * (1 - *decay) - s2 / (2 * a * a) * (1 - *decay * *decay);
    *sd = std::sqrt(s2 * (1 - *decay * *decay) / (2 * a));
  };
  for (std::size_t i = 0; i < grid.size(); ++i) value[i] = exercise(events.back(), grid[i]);
  for (int k = static_cast<int>(events.size()) - 2; k >= 0; --k) {
    const RateEvent& e = events[static_cast<std::size_t>(k)];
    const double next = events[static_cast<std::size_t>(k) + 1].date;
    double decay, shift, sd;
    transition(next - e.date, &decay, &shift, &sd);
    std::vector<double> now(grid.size());
    for (std::size_t i = 0; i < grid.size(); ++i) {
      const double hold = m.bond(e.date, next, grid[i]) * expect_linear(grid, value, decay * grid[i] - shift, sd);
      now[i] = std::max(exercise(e, grid[i]), hold);
    }
    value.swap(now);
  }
  double decay, shift, sd;
  transition(events.front().date, &decay, &shift, &sd);
  return m.curve.discount(events.front().date) * expect_linear(grid, value, -shift, sd);
}

}  // namespace mcsim::rates
