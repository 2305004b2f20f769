#include "models/var/exact_tail.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/option/quadrature.hpp"
#include "models/var/rate_positions.hpp"
#include "rng/sobol.hpp"  // inverse_normal

namespace mcsim::var {

namespace {

// Position p's value at the asset's level: its spot, or a short-rate factor's state.
double position_at(const VarSpec& s, const Position& p, double level, double elapsed) {
  const RiskAsset& a = s.assets.front();
  return a.short_rate ? rate_value(*a.short_rate, p, elapsed, level) : value_of(p, elapsed, level, a.spot, s.rate, a.volatility);
}

double portfolio_value(const VarSpec& s, double level, double elapsed) {
  double v = 0;
  for (const Position& p : s.portfolio) v += position_at(s, p, level, elapsed);
  return v;
}

// The unit-variance shock's quantile.
double shock_quantile(const VarSpec& s, double u) {
  return s.student_t ? std::sqrt((s.dof - 2) / s.dof) * student_t_quantile(u, s.dof) : rng::inverse_normal(u);
}

}  // namespace

namespace {
// The asset's level at the horizon after shock z (a short-rate factor's: normal about 0).
double spot_at_shock(const VarSpec& s, double z) {
  const RiskAsset& a = s.assets.front();
  const double h = s.horizon();
  if (a.short_rate) return a.volatility * std::sqrt(h) * z;
  return a.spot * std::exp((a.drift - 0.5 * a.volatility * a.volatility) * h + a.volatility * std::sqrt(h) * z);
}
// Its inverse: the shock that takes the spot to `spot`.
double shock_at_spot(const VarSpec& s, double spot) {
  const RiskAsset& a = s.assets.front();
  const double h = s.horizon();
  return (std::log(spot / a.spot) - (a.drift - 0.5 * a.volatility * a.volatility) * h) / (a.volatility * std::sqrt(h));
}
}  // namespace

double loss_at_shock(const VarSpec& s, double z) {
  return portfolio_value(s, s.assets.front().spot, 0) - portfolio_value(s, spot_at_shock(s, z), s.horizon());
}

namespace {

// VaR- and ES-style figures of f(z) over the loss's worst (1 - alpha) shocks: f at
// the quantile shock, and f averaged over the tail. With f the total loss these
// are VaR and ES; with f one position's loss, its Euler contributions.
template <class F>
TailRisk tail_of(const VarSpec& s, double alpha, F&& f) {
  if (s.assets.size() != 1) throw std::invalid_argument("exact_single_asset_tail: the portfolio must be on one asset");
  // The loss must move one way with the shock; find which.
  int direction = 0;
  for (double z = -12; z < 12; z += 0.01) {
    const double step = loss_at_shock(s, z + 0.01) - loss_at_shock(s, z);
    const int d = step > 0 ? 1 : step < 0 ? -1 : 0;
    if (d && direction && d != direction)
      throw std::invalid_argument("exact_single_asset_tail: the portfolio's value is not monotone in the spot");
    if (d) direction = d;
  }
  if (direction == 0) return {f(0.0), f(0.0)};
  // The worst (1 - alpha) of shocks: the low ones when the loss falls as z rises.
  const auto tail_shock = [&](double u) { return direction < 0 ? shock_quantile(s, u) : -shock_quantile(s, u); };
  const double p = 1 - alpha;
  TailRisk out{f(tail_shock(p)), 0};
  // ES = (1/p) int_0^p loss(z(u)) du, with u = p e^{-v} so that the far tail,
  // where z(u) runs off, is spread over v in [0, 60]; cut where a barrier's level
  // puts a kink in the loss, so that each piece is smooth.
  const auto shock_at = [&](double v) { return tail_shock(p * std::exp(-v)); };
  std::vector<double> cuts{0.0, 60.0};
  for (const Position& q : s.portfolio) {
    if (!is_barrier(q.instrument)) continue;
    const double z = shock_at_spot(s, q.barrier);
    double lo = 0, hi = 60;  // shock_at runs monotonically from the quantile outwards
    if ((shock_at(lo) - z) * (shock_at(hi) - z) >= 0) continue;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      ((shock_at(lo) - z) * (shock_at(mid) - z) <= 0 ? hi : lo) = mid;
    }
    cuts.push_back(0.5 * (lo + hi));
  }
  std::sort(cuts.begin(), cuts.end());
  out.es = 0;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const int panels = std::max(8, static_cast<int>(std::ceil(4 * (cuts[i + 1] - cuts[i]))));
    out.es += option::integrate(cuts[i], cuts[i + 1], panels, [&](double v) { return f(shock_at(v)) * std::exp(-v); });
  }
  return out;
}

}  // namespace

TailRisk exact_single_asset_tail(const VarSpec& s, double alpha) {
  return tail_of(s, alpha, [&](double z) { return loss_at_shock(s, z); });
}

std::vector<TailRisk> exact_single_asset_contributions(const VarSpec& s, double alpha) {
  std::vector<TailRisk> out;
  const RiskAsset& a = s.assets.front();
  const double h = s.horizon();
  for (const Position& p : s.portfolio)
    out.push_back(tail_of(s, alpha, [&](double z) {
      return position_at(s, p, a.spot, 0) - position_at(s, p, spot_at_shock(s, z), h);
    }));
  return out;
}

}  // namespace mcsim::var
