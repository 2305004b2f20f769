#include "models/var/tail_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mcsim::var {

namespace {
using reduce::normal_estimate;
// Mean and variance of c terms from their sums.
std::pair<double, double> moments(double sum, double sum_sq, double c) {
  const double mean = sum / c;
  return {mean, std::max(0.0, sum_sq / c - mean * mean)};
}
}  // namespace

reduce::Estimate LevelFigures::var_estimate(const std::string& name, std::uint64_t n) const {
  return {name, var, var_se, var_lo, var_hi, n};
}
reduce::Estimate LevelFigures::es_estimate(const std::string& name, std::uint64_t n) const {
  return normal_estimate(name, es, es_se, n);
}

LevelFigures level_figures(double level, std::uint64_t n, LevelPass pass, const Units& units) {
  LevelFigures f;
  f.level = level;
  f.ranks = reduce::level_ranks(level, n);
  f.kept = std::move(pass.kept);
  std::sort(f.kept.begin(), f.kept.end());
  const std::uint64_t below = pass.below;
  if (below + f.kept.size() + pass.tail_count != n || below >= f.ranks.lo || f.kept.size() < f.ranks.hi - below)
    throw std::runtime_error(fmt::format("risk passes disagree at level {}: {} below, {} kept, {} above, of {}", level,
                                         below, f.kept.size(), pass.tail_count, n));
  const auto at = [&](std::uint64_t rank) { return static_cast<std::size_t>(rank - below - 1); };
  f.at_var = at(f.ranks.k), f.band_lo = at(f.ranks.lo), f.band_hi = at(f.ranks.hi);
  f.var = f.kept[f.at_var].loss;
  f.var_lo = f.kept[f.band_lo].loss;
  f.var_hi = f.kept[f.band_hi].loss;
  f.var_se = (f.var_hi - f.var_lo) / (2 * reduce::kZ95);  // the 95% band's half width over 1.96
  // The sum above the VaR in fixed point like the tail's, so that it does not
  // depend on where the kept window ended.
  SumPair above = pass.tail;
  for (std::size_t i = f.at_var + 1; i < f.kept.size(); ++i) {
    above.sum += units.loss.to_fixed(f.kept[i].loss);
    above.sum_sq += units.square.to_fixed(f.kept[i].loss * f.kept[i].loss);
  }
  const double sum = units.loss.to_double(above.sum), sum_sq = units.square.to_double(above.sum_sq);
  f.tail_count = pass.tail_count + (f.kept.size() - f.at_var - 1);
  f.es = reduce::expected_shortfall(level, n, f.ranks.k, f.var, sum);
  // Var(ES estimate) ~ (Var(L | L >= VaR) + a (ES - VaR)^2) / (N (1 - a)).
  const double tail_var = f.tail_count ? moments(sum, sum_sq, static_cast<double>(f.tail_count)).second : 0.0;
  f.es_se = std::sqrt((tail_var + level * (f.es - f.var) * (f.es - f.var)) / ((1 - level) * static_cast<double>(n)));
  double band_sum = 0;
  for (std::size_t i = f.band_lo; i <= f.band_hi; ++i) band_sum += f.kept[i].loss;
  f.band_mean = band_sum / static_cast<double>(f.band_hi - f.band_lo + 1);
  return f;
}

double share_slope(double band_share, double es_share, double band_mean, double es) {
  if (es - band_mean > 1e-12 * std::fabs(es)) return (es_share - band_share) / (es - band_mean);
  return band_mean != 0 ? band_share / band_mean : 0.0;
}

reduce::Estimate var_share(const LevelFigures& f, std::uint64_t n, const PositionSums& p, const Units& units,
                           const std::string& name) {
  const double w = static_cast<double>(f.band_hi - f.band_lo + 1);
  const auto [mean, variance] = moments(units.loss.to_double(p.band.sum), units.square.to_double(p.band.sum_sq), w);
  const double slope = share_slope(mean, es_share(f, n, p, units, name).value, f.band_mean, f.es);
  return normal_estimate(name, mean + slope * (f.var - f.band_mean),
                         std::sqrt(variance / w + slope * slope * f.var_se * f.var_se), static_cast<std::uint64_t>(w));
}

reduce::Estimate es_share(const LevelFigures& f, std::uint64_t n, const PositionSums& p, const Units& units,
                          const std::string& name) {
  const double sum = units.loss.to_double(p.tail.sum + p.above.sum);
  const double sum_sq = units.square.to_double(p.tail.sum_sq + p.above.sum_sq);
  const double weight = (1 - f.level) * static_cast<double>(n);
  const double fraction = static_cast<double>(f.ranks.k) - f.level * static_cast<double>(n);
  const double c = static_cast<double>(std::max<std::uint64_t>(f.tail_count, 1));
  return normal_estimate(name, (sum + fraction * units.loss.to_double(p.at_var)) / weight,
                  std::sqrt(moments(sum, sum_sq, c).second / c), f.tail_count);
}

}  // namespace mcsim::var
