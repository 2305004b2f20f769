#include "models/var/age_weights.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/var/tail_figures.hpp"

namespace mcsim::var {

std::vector<double> age_weights(std::size_t n, double decay) {
  std::vector<double> w(n);
  double power = 1;
  for (std::size_t s = n; s-- > 0;) w[s] = power, power *= decay;  // the newest weighs 1 before normalising
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  for (double& x : w) x /= total;
  return w;
}

namespace {

// In sorted (loss, weight) pairs: the VaR's index, and the weight ranked above it.
struct At {
  std::size_t k;
  double above, tail;  // weight above the VaR, and the tail's (1 - a) W
};
template <class Weight>
At locate(std::size_t n, double level, Weight&& weight) {
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) total += weight(i);
  const double tail = (1 - level) * total;
  // Down from the largest loss while the tail still has room for the next.
  std::size_t k = n - 1;
  double above = 0;
  while (k > 0 && above + weight(k) <= tail) above += weight(k--);
  return {k, above, tail};
}

}  // namespace

VarEs weighted_var_es(const std::vector<std::pair<double, double>>& sorted, double level) {
  const At at = locate(sorted.size(), level, [&](std::size_t i) { return sorted[i].second; });
  double sum = 0;
  for (std::size_t i = at.k + 1; i < sorted.size(); ++i) sum += sorted[i].second * sorted[i].first;
  const double var = sorted[at.k].first;
  return {var, (sum + (at.tail - at.above) * var) / at.tail};
}

WeightedLevel weighted_level(const std::vector<double>& losses, const std::vector<double>& weights, double level) {
  std::vector<std::uint64_t> order(losses.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
    return losses[a] < losses[b] || (losses[a] == losses[b] && a < b);
  });
  const At at = locate(order.size(), level, [&](std::size_t i) { return weights[order[i]]; });
  WeightedLevel f;
  f.var_scenario = order[at.k];
  f.var = losses[f.var_scenario];
  for (std::size_t i = at.k + 1; i < order.size(); ++i) f.es_terms.push_back({order[i], weights[order[i]] / at.tail});
  f.es_terms.push_back({f.var_scenario, (at.tail - at.above) / at.tail});
  for (const Coefficient& t : f.es_terms) f.es += t.c * losses[t.scenario];
  return f;
}

std::vector<Coefficient> var_band(const std::vector<double>& losses, const std::vector<double>& weights, double lo,
                                  double hi, std::uint64_t var_scenario) {
  std::vector<Coefficient> band;
  double total = 0;
  for (std::uint64_t s = 0; s < losses.size(); ++s)
    if ((losses[s] >= lo && losses[s] <= hi) || s == var_scenario) band.push_back({s, weights[s]}), total += weights[s];
  for (Coefficient& b : band) b.c /= total;
  return band;
}

namespace {
// A weighted mean's value and error: sum c x and sqrt(sum c^2 (x - mean)^2).
std::pair<double, double> weighted_mean(const std::vector<Coefficient>& terms, const UnitLoss& x) {
  const double mean = weighted_sum(terms, x);
  double var = 0;
  for (const Coefficient& t : terms) var += t.c * t.c * (x(t.scenario) - mean) * (x(t.scenario) - mean);
  return {mean, std::sqrt(var)};
}
}  // namespace

double weighted_sum(const std::vector<Coefficient>& terms, const UnitLoss& loss) {
  double sum = 0;
  for (const Coefficient& t : terms) sum += t.c * loss(t.scenario);
  return sum;
}

reduce::Estimate weighted_var_share(const WeightedLevel& f, double var_se, double band_mean, const UnitLoss& unit,
                                    const std::string& name) {
  const auto [mean, se] = weighted_mean(f.band, unit);
  const double slope = share_slope(mean, weighted_es_share(f, unit, name).value, band_mean, f.es);
  return reduce::normal_estimate(name, mean + slope * (f.var - band_mean),
                                 std::sqrt(se * se + slope * slope * var_se * var_se), f.band.size());
}

reduce::Estimate weighted_es_share(const WeightedLevel& f, const UnitLoss& unit, const std::string& name) {
  const auto [share, se] = weighted_mean(f.es_terms, unit);
  return reduce::normal_estimate(name, share, se, f.es_terms.size());
}

}  // namespace mcsim::var
