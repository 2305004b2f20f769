#include "models/var/exact_tail.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/option/quadrature.hpp"
#include "models/var/rate_positions.hpp"
#include "rng/sobol.hpp"  // inverse_normal

namespace mcsim::var {

namespace {


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

namespace {

// The book on its one asset: each position's loss at a shock. Rate positions' legs
// are built once here, today's and the horizon's (each holds a Jamshidian root), not
// at every shock the tail's search and integral try.
class OneAssetBook {
 public:
  explicit OneAssetBook(const VarSpec& s) : s_(s) {
    if (const auto& m = s.assets.front().short_rate)
      for (const Position& p : s.portfolio) today_.push_back(rate_legs(*m, p, 0)), later_.push_back(rate_legs(*m, p, s.horizon()));
  }
  // Position i's value today, or at the horizon after shock z.
  double value(std::size_t i, bool later, double z = 0) const {
    const RiskAsset& a = s_.assets.front();
    const Position& p = s_.portfolio[i];
    const double level = later ? spot_at_shock(s_, z) : a.spot;
    if (a.short_rate) return p.quantity * legs_value(later ? later_[i] : today_[i], level);
    return value_of(p, later ? s_.horizon() : 0, level, a.spot, s_.rate, a.volatility);
  }
  double position_loss(std::size_t i, double z) const { return value(i, false) - value(i, true, z); }
  // Today's value of the book less its value after shock z.
  double loss(double z) const {
    double today = 0, later = 0;
    for (std::size_t i = 0; i < s_.portfolio.size(); ++i) today += value(i, false);
    for (std::size_t i = 0; i < s_.portfolio.size(); ++i) later += value(i, true, z);
    return today - later;
  }

 private:
  const VarSpec& s_;
  std::vector<std::vector<double>> today_, later_;  // per position, for a short-rate asset
};

}  // namespace

double loss_at_shock(const VarSpec& s, double z) { return OneAssetBook(s).loss(z); }

namespace {

// VaR- and ES-style figures of f(z) over the loss's worst (1 - alpha) shocks: f at
// the quantile shock, and f averaged over the tail. With f the total loss these
// are VaR and ES; with f one position's loss, its Euler contributions.
template <class F>
TailRisk tail_of(const VarSpec& s, const OneAssetBook& book, double alpha, F&& f) {
  // The loss must move one way with the shock; find which.
  int direction = 0;
  for (double z = -12; z < 12; z += 0.01) {
    const double step = book.loss(z + 0.01) - book.loss(z);
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

void check_one_asset(const VarSpec& s) {
  if (s.assets.size() != 1) throw std::invalid_argument("exact_single_asset_tail: the portfolio must be on one asset");
}

}  // namespace

TailRisk exact_single_asset_tail(const VarSpec& s, double alpha) {
  check_one_asset(s);
  const OneAssetBook book(s);
  return tail_of(s, book, alpha, [&](double z) { return book.loss(z); });
}

std::vector<TailRisk> exact_single_asset_contributions(const VarSpec& s, double alpha) {
  check_one_asset(s);
  const OneAssetBook book(s);
  std::vector<TailRisk> out;
  for (std::size_t i = 0; i < s.portfolio.size(); ++i)
    out.push_back(tail_of(s, book, alpha, [&](double z) { return book.position_loss(i, z); }));
  return out;
}

}  // namespace mcsim::var
