#include "models/var/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/var/rate_positions.hpp"

namespace mcsim::var {

std::vector<int> revaluation_order(const VarSpec& s) {
  std::vector<int> order(s.portfolio.size());
  std::iota(order.begin(), order.end(), 0);
  // Each asset's own positions, then those on two factors, then rate positions.
  const auto key = [&](int k) {
    const Position& p = s.portfolio[static_cast<std::size_t>(k)];
    return std::make_pair(is_rate(p.instrument) ? 2 : p.other >= 0 ? 1 : 0, p.asset);
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  return order;
}

std::vector<ShareGroup> share_groups(const VarSpec& s) {
  std::vector<ShareGroup> out;
  for (std::size_t c = 0; c < s.group_columns.size(); ++c) {
    const std::size_t first = out.size();
    for (std::size_t i = 0; i < s.portfolio.size(); ++i) {
      const std::string name = s.group_columns[c] + "=" + s.portfolio[i].groups.at(c);
      auto at = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                             [&](const ShareGroup& g) { return g.name == name; });
      if (at == out.end()) at = out.insert(out.end(), {name, {}});
      at->positions.push_back(static_cast<int>(i));
    }
  }
  return out;
}

template <class Real>
PortfolioArrays<Real> portfolio_arrays(const VarSpec& s) {
  PortfolioArrays<Real> a;
  const std::size_t n = s.assets.size();
  const double h = s.horizon();
  a.assets = static_cast<int>(n);
  a.positions = static_cast<int>(s.portfolio.size());
  a.dof = s.student_t ? static_cast<Real>(s.dof) : Real(0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) a.reals.push_back(static_cast<Real>(s.cholesky[i * n + j]));
  for (const RiskAsset& x : s.assets)  // a short-rate factor's level starts at 0 and has no drift
    a.reals.push_back(x.short_rate ? Real(0)
                                   : static_cast<Real>(std::log(x.spot) + (x.drift - 0.5 * x.volatility * x.volatility) * h));
  for (const RiskAsset& x : s.assets) a.reals.push_back(static_cast<Real>(x.volatility * std::sqrt(h)));
  const std::vector<int> order = revaluation_order(s);
  std::vector<int> end(n + 1, 0), kind, leg_begin{0};  // end[n]: positions on two factors
  std::vector<double> legs;
  for (int k : order) {
    const Position& p = s.portfolio[static_cast<std::size_t>(k)];
    const RiskAsset& x = s.assets[static_cast<std::size_t>(p.asset)];
    kind.push_back(static_cast<int>(p.instrument));
    if (is_rate(p.instrument)) {
      const rates::HullWhite& m = short_rate_of(s, p);
      const std::vector<double> at_horizon = rate_legs(m, p, h);
      legs.insert(legs.end(), at_horizon.begin(), at_horizon.end());
      leg_begin.push_back(static_cast<int>(legs.size() / kLegTerms));
      a.reals.push_back(static_cast<Real>(p.quantity));
      a.reals.push_back(static_cast<Real>(rate_value(m, p, 0, 0)));
      a.reals.insert(a.reals.end(), kUnitTerms, Real(0));
      continue;
    }
    leg_begin.push_back(leg_begin.back());
    const double volatility = volatility_of(s, p), other_spot = p.other >= 0 ? s.assets[static_cast<std::size_t>(p.other)].spot : 0;
    // At the horizon, inside the life of options and forwards; an option on a
    // volatility factor takes its terms at volatility 1 (pair_value scales them).
    const UnitTerms u = unit_terms(p.contract(), {h, x.spot, s.rate, p.volatility_from_factor() ? 1.0 : volatility});
    const double today = value_of(p, 0, x.spot, x.spot, s.rate, volatility, other_spot);
    a.reals.push_back(static_cast<Real>(p.quantity));
    a.reals.push_back(static_cast<Real>(today));
    for (double t : u.u) a.reals.push_back(static_cast<Real>(t));
    end[p.other < 0 ? static_cast<std::size_t>(p.asset) : n] += 1;
  }
  a.legs = static_cast<int>(legs.size() / kLegTerms);
  for (double t : legs) a.reals.push_back(static_cast<Real>(t));
  a.historical = s.historical();
  for (double x : s.historical_log_spots) a.reals.push_back(static_cast<Real>(x));
  std::partial_sum(end.begin(), end.end(), end.begin());
  a.ints = end;
  a.ints.insert(a.ints.end(), kind.begin(), kind.end());
  for (int k : order) a.ints.push_back(s.portfolio[static_cast<std::size_t>(k)].asset);  // asset_of
  for (int k : order) a.ints.push_back(s.portfolio[static_cast<std::size_t>(k)].other);  // other_of
  a.ints.insert(a.ints.end(), leg_begin.begin(), leg_begin.end());
  // Units: each position (revaluation order), then each group, its members in
  // revaluation order.
  std::vector<int> at(order.size()), begin{0}, members;
  for (std::size_t k = 0; k < order.size(); ++k) at[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  for (std::size_t k = 0; k < order.size(); ++k) members.push_back(static_cast<int>(k)), begin.push_back(static_cast<int>(k + 1));
  for (const ShareGroup& g : share_groups(s)) {
    std::vector<int> m;
    for (int i : g.positions) m.push_back(at[static_cast<std::size_t>(i)]);
    std::sort(m.begin(), m.end());
    members.insert(members.end(), m.begin(), m.end());
    begin.push_back(static_cast<int>(members.size()));
  }
  a.units = static_cast<int>(begin.size()) - 1;
  a.ints.insert(a.ints.end(), begin.begin(), begin.end());
  a.ints.insert(a.ints.end(), members.begin(), members.end());
  return a;
}

template PortfolioArrays<float> portfolio_arrays<float>(const VarSpec&);
template PortfolioArrays<double> portfolio_arrays<double>(const VarSpec&);

}  // namespace mcsim::var
