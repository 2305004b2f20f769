#include "models/var/delta_var.hpp"

#include <algorithm>
#include <cmath>

#include "models/option/analytic.hpp"
#include "models/var/rate_positions.hpp"

namespace mcsim::var {

namespace {
// One position's dV/dS and d2V/dS2 on its asset; on a second factor S' (an
// exchange's other asset, an option's volatility factor) also dV/dS', d2V/dS'2 and
// d2V/dS dS'.
struct PositionGreeks {
  double delta, gamma, other_delta = 0, other_gamma = 0, cross_gamma = 0;
};
PositionGreeks position_greeks(const VarSpec& s, const Position& p) {
  if (p.instrument == Instrument::Stock || p.instrument == Instrument::Forward) return {p.quantity, 0.0};
  if (is_rate(p.instrument)) {
    // On a short-rate factor's state x: central differences of the closed form, a
    // step of 1e-5 (a truncation error near 1e-10 of the slopes).
    const double k = 1e-5;
    const auto v = [&](double x) { return rate_value(short_rate_of(s, p), p, 0, x); };
    return {(v(k) - v(-k)) / (2 * k), (v(k) - 2 * v(0) + v(-k)) / (k * k)};
  }
  const RiskAsset& a = s.assets[static_cast<std::size_t>(p.asset)];
  if (is_pair(p.instrument)) {
    // Margrabe: V = S N(d1) - S' N(d2), d1 = ln(S / S') / sd + sd / 2.
    const double other = s.assets[static_cast<std::size_t>(p.other)].spot, q = p.quantity;
    const double sd = volatility_of(s, p) * std::sqrt(p.maturity), d1 = std::log(a.spot / other) / sd + 0.5 * sd;
    const double n1 = option::normal_pdf(d1), n2 = option::normal_pdf(d1 - sd);
    return {q * option::normal_cdf(d1), q * n1 / (a.spot * sd), -q * option::normal_cdf(d1 - sd), q * n2 / (other * sd),
            -q * n1 / (other * sd)};
  }
  if (p.volatility_from_factor()) {
    // An option on a volatility factor (level sigma): central differences of the
    // closed form in S and sigma, steps of 1e-4 of each.
    const double sigma = s.assets[static_cast<std::size_t>(p.other)].spot, h = 1e-4 * a.spot, k = 1e-4 * sigma;
    const auto v = [&](double spot, double vol) { return value_of(p, 0, spot, spot, s.rate, vol); };
    const double S = a.spot, mid = v(S, sigma);
    return {(v(S + h, sigma) - v(S - h, sigma)) / (2 * h), (v(S + h, sigma) - 2 * mid + v(S - h, sigma)) / (h * h),
            (v(S, sigma + k) - v(S, sigma - k)) / (2 * k), (v(S, sigma + k) - 2 * mid + v(S, sigma - k)) / (k * k),
            (v(S + h, sigma + k) - v(S + h, sigma - k) - v(S - h, sigma + k) + v(S - h, sigma - k)) / (4 * h * k)};
  }
  const option::BsmInput in{a.spot, p.strike, s.rate, 0.0, a.volatility, p.maturity, is_call(p.instrument)};
  if (is_barrier(p.instrument) || is_asian(p.instrument)) {
    // No closed-form Greeks here: central differences of the closed-form value, a
    // step of 1e-4 of the spot (a truncation error near 1e-8 of the slopes).
    const double h = 1e-4 * a.spot;
    const auto v = [&](double spot) { return value_of(p, 0, spot, spot, s.rate, a.volatility); };
    return {(v(a.spot + h) - v(a.spot - h)) / (2 * h), (v(a.spot + h) - 2 * v(a.spot) + v(a.spot - h)) / (h * h)};
  }
  if (is_digital(p.instrument)) {
    const option::DigitalGreeks g = option::digital_greeks(in, 1.0);
    return {p.quantity * g.delta, p.quantity * g.gamma};
  }
  return {p.quantity * option::bsm_delta(in), p.quantity * option::bsm_gamma(in)};
}
}  // namespace

PortfolioGreeks portfolio_greeks(const VarSpec& s) {
  const std::size_t n = s.assets.size();
  PortfolioGreeks g{0, std::vector<double>(n, 0.0), std::vector<double>(n, 0.0), {}};
  for (const Position& p : s.portfolio) {
    const RiskAsset& a = s.assets[static_cast<std::size_t>(p.asset)];
    const auto i = static_cast<std::size_t>(p.asset);
    const double other_spot = p.other >= 0 ? s.assets[static_cast<std::size_t>(p.other)].spot : 0.0;
    g.value += is_rate(p.instrument) ? rate_value(short_rate_of(s, p), p, 0, 0)
                                     : value_of(p, 0, a.spot, a.spot, s.rate, volatility_of(s, p), other_spot);
    const PositionGreeks d = position_greeks(s, p);
    g.delta[i] += d.delta;
    g.gamma[i] += d.gamma;
    if (p.other >= 0) {
      const auto o = static_cast<std::size_t>(p.other);
      g.delta[o] += d.other_delta;
      g.gamma[o] += d.other_gamma;
      g.cross.push_back({i, o, d.cross_gamma});
    }
  }
  return g;
}

namespace {

// Over the horizon asset i's spot moves by move(i) per unit shock Z_i, and by
// drift(i) on average; a short-rate factor's level by its sd, without drift.
double move(const VarSpec& s, std::size_t i) {
  const RiskAsset& a = s.assets[i];
  return (a.short_rate ? 1.0 : a.spot) * a.volatility * std::sqrt(s.horizon());
}
double drift(const VarSpec& s, std::size_t i) { return s.assets[i].spot * s.assets[i].drift * s.horizon(); }
// Asset i's move in a historical scenario whose log spot (a short-rate factor's level) is `slot`.
double historical_move(const VarSpec& s, std::size_t i, double slot) {
  return s.assets[i].short_rate ? slot : std::exp(slot) - s.assets[i].spot;
}

}  // namespace

// L = -(b . Z + Z' A Z / 2) - m with Z ~ (0, C), A = D + X, D diagonal and X the
// exchanges' cross terms: E L = -m - tr(A C) / 2, Var L = b' C b + tr((A C)^2) / 2
// (normal Z), where tr((A C)^2) = tr((D C)^2) + 2 tr(D C X C) + tr((X C)^2).
LossMoments loss_moments(const VarSpec& s, bool with_gamma) {
  const PortfolioGreeks g = portfolio_greeks(s);
  const std::size_t n = s.assets.size();
  std::vector<double> b(n), a(n);
  double drift_gain = 0;
  for (std::size_t i = 0; i < n; ++i) {
    b[i] = g.delta[i] * move(s, i);
    a[i] = with_gamma ? g.gamma[i] * move(s, i) * move(s, i) : 0.0;
    drift_gain += g.delta[i] * drift(s, i);
  }
  double mean = -drift_gain, var = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean -= 0.5 * a[i];  // C_ii = 1
    for (std::size_t j = 0; j < n; ++j)
      var += b[i] * s.correlation[i][j] * b[j] + 0.5 * a[i] * s.correlation[i][j] * a[j] * s.correlation[j][i];
  }
  if (with_gamma && !g.cross.empty()) {
    struct Entry {
      std::size_t i, j;
      double x;
    };
    std::vector<Entry> x;  // X's entries, each pair both ways
    for (const auto& c : g.cross) {
      const double v = c.gamma * move(s, c.i) * move(s, c.j);
      x.push_back({c.i, c.j, v}), x.push_back({c.j, c.i, v});
    }
    const auto& C = s.correlation;
    for (const Entry& e : x) {
      mean -= 0.5 * e.x * C[e.j][e.i];
      for (std::size_t i = 0; i < n; ++i) var += a[i] * C[i][e.i] * e.x * C[e.j][i];
      for (const Entry& f : x) var += 0.5 * e.x * C[e.j][f.i] * f.x * C[f.j][e.i];
    }
  }
  return {mean, std::sqrt(std::max(0.0, var))};
}

LossMoments historical_loss_moments(const VarSpec& s) {
  const PortfolioGreeks g = portfolio_greeks(s);
  const std::size_t n = s.assets.size(), m = s.scenarios();
  double sum = 0, sum_sq = 0;
  for (std::size_t t = 0; t < m; ++t) {
    double loss = 0;
    const auto move_of = [&](std::size_t i) { return historical_move(s, i, s.historical_log_spots[t * n + i]); };
    for (std::size_t i = 0; i < n; ++i) {
      const double d = move_of(i);
      loss -= g.delta[i] * d + 0.5 * g.gamma[i] * d * d;
    }
    for (const auto& c : g.cross) loss -= c.gamma * move_of(c.i) * move_of(c.j);
    sum += loss, sum_sq += loss * loss;
  }
  const double mean = m ? sum / static_cast<double>(m) : 0.0;
  return {mean, m ? std::sqrt(std::max(0.0, sum_sq / static_cast<double>(m) - mean * mean)) : 0.0};
}

namespace {

TailRisk tail(const VarSpec& s, const LossMoments& m, double alpha) {
  return s.student_t ? student_t_tail(m.mean, m.sd, s.dof, alpha) : normal_tail(m.mean, m.sd, alpha);
}

}  // namespace

TailRisk delta_normal(const VarSpec& s, double alpha) { return tail(s, loss_moments(s, false), alpha); }
TailRisk delta_gamma_normal(const VarSpec& s, double alpha) { return tail(s, loss_moments(s, true), alpha); }

std::vector<TailRisk> delta_normal_contributions(const VarSpec& s, double alpha) {
  const LossMoments total = loss_moments(s, false);
  const TailRisk unit = tail(s, {0.0, 1.0}, alpha);  // the tail factors of a unit loss
  const std::size_t n = s.assets.size();
  // The total's exposure per unit shock of each asset, and C times it.
  const PortfolioGreeks g = portfolio_greeks(s);
  std::vector<double> cb(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) cb[i] += s.correlation[i][j] * g.delta[j] * move(s, j);
  std::vector<TailRisk> out;
  for (const Position& p : s.portfolio) {
    const auto i = static_cast<std::size_t>(p.asset);
    const PositionGreeks d = position_greeks(s, p);
    double mean = -d.delta * drift(s, i), cov = d.delta * move(s, i) * cb[i];  // Cov(loss_p, L)
    if (p.other >= 0) {
      const auto o = static_cast<std::size_t>(p.other);
      mean -= d.other_delta * drift(s, o), cov += d.other_delta * move(s, o) * cb[o];
    }
    const double share = total.sd > 0 ? cov / total.sd : 0.0;
    out.push_back({mean + unit.var * share, mean + unit.es * share});
  }
  return out;
}

}  // namespace mcsim::var
