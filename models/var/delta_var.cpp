#include "models/var/delta_var.hpp"

#include <cmath>

#include "models/option/analytic.hpp"

namespace mcsim::var {

PortfolioGreeks portfolio_greeks(const VarSpec& s) {
  const std::size_t n = s.assets.size();
  PortfolioGreeks g{0, std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  for (const Position& p : s.portfolio) {
    const RiskAsset& a = s.assets[static_cast<std::size_t>(p.asset)];
    const auto i = static_cast<std::size_t>(p.asset);
    g.value += position_value(p.instrument, p.quantity, p.strike, p.maturity, a.spot, s.rate, a.volatility);
    if (p.instrument == Instrument::Stock || p.instrument == Instrument::Forward) {
      g.delta[i] += p.quantity;
    } else {
      const option::BsmInput in{a.spot, p.strike, s.rate, 0.0, a.volatility, p.maturity, p.instrument == Instrument::Call};
      g.delta[i] += p.quantity * option::bsm_delta(in);
      g.gamma[i] += p.quantity * option::bsm_gamma(in);
    }
  }
  return g;
}

namespace {

// Moments of the loss L = -(b . Z + Z' A Z / 2) - m with Z ~ (0, C), A diagonal:
// E L = -m - tr(A C) / 2, Var L = b' C b + tr((A C)^2) / 2 (normal Z).
struct LossMoments {
  double mean, sd;
};
LossMoments loss_moments(const VarSpec& s, bool with_gamma) {
  const PortfolioGreeks g = portfolio_greeks(s);
  const std::size_t n = s.assets.size();
  const double h = s.horizon();
  std::vector<double> b(n), a(n);
  double drift = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const RiskAsset& x = s.assets[i];
    const double move = x.spot * x.volatility * std::sqrt(h);  // dS_i per unit Z_i
    b[i] = g.delta[i] * move;
    a[i] = with_gamma ? g.gamma[i] * move * move : 0.0;
    drift += g.delta[i] * x.spot * x.drift * h;
  }
  double mean = -drift, var = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean -= 0.5 * a[i];  // C_ii = 1
    for (std::size_t j = 0; j < n; ++j)
      var += b[i] * s.correlation[i][j] * b[j] + 0.5 * a[i] * s.correlation[i][j] * a[j] * s.correlation[j][i];
  }
  return {mean, std::sqrt(var)};
}

TailRisk tail(const VarSpec& s, const LossMoments& m, double alpha) {
  return s.student_t ? student_t_tail(m.mean, m.sd, s.dof, alpha) : normal_tail(m.mean, m.sd, alpha);
}

}  // namespace

TailRisk delta_normal(const VarSpec& s, double alpha) { return tail(s, loss_moments(s, false), alpha); }
TailRisk delta_gamma_normal(const VarSpec& s, double alpha) { return tail(s, loss_moments(s, true), alpha); }

}  // namespace mcsim::var
