// Age-weighted historical simulation (Boudoukh, Richardson and Whitelaw, 1998): the
// scenario whose window ended k days before the newest weighs decay^k, so VaR and
// ES follow the recent market. With weights w (summing to W), VaR at level a is the
// smallest loss L with weight(loss <= L) >= a W, and ES the weight-(1 - a) W tail's
// mean, the VaR scenario counted for the part of its weight the tail needs (equal
// weights give the plain order statistic and tail mean). Each figure is a weighted
// sum of scenarios' losses, so a position's share is the same sum of its own.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reduce/stats.hpp"

namespace mcsim::var {

// Scenario s of n (oldest first) weighs decay^(n - 1 - s), normalised to sum to 1.
std::vector<double> age_weights(std::size_t n, double decay);

// A scenario's coefficient in a weighted sum of losses.
struct Coefficient {
  std::uint64_t scenario;
  double c;
};

// The weighted VaR and ES of one level: ES = the sum of es_terms' c x loss (the c
// add up to 1). `band`, for the VaR's shares: the scenarios whose losses lie in the
// VaR's interval, each with its share of their weight (var_band).
struct WeightedLevel {
  double var = 0, es = 0;
  std::uint64_t var_scenario = 0;
  std::vector<Coefficient> es_terms, band;
};

// `losses` and `weights` (positive) in scenario order.
WeightedLevel weighted_level(const std::vector<double>& losses, const std::vector<double>& weights, double level);
// The scenarios with losses in [lo, hi] (at least the VaR's), weights normalised.
std::vector<Coefficient> var_band(const std::vector<double>& losses, const std::vector<double>& weights, double lo,
                                  double hi, std::uint64_t var_scenario);

// VaR and ES alone of (loss, weight) pairs sorted by loss: the resamples' figures.
struct VarEs {
  double var, es;
};
VarEs weighted_var_es(const std::vector<std::pair<double, double>>& sorted, double level);

// A unit's (position's or group's) shares, from its loss in each scenario the
// level names. The VaR's: its band mean moved to the VaR along share_slope
// (tail_figures.hpp) from the portfolio's band mean (`band_mean`, weighted_sum of the
// positions' losses added, once a level), its error the band mean's and slope x the
// VaR's own (var_se); the ES's: the same weighted sum as ES, its error that of a
// weighted mean. Both add up over the positions to the figure.
using UnitLoss = std::function<double(std::uint64_t scenario)>;
double weighted_sum(const std::vector<Coefficient>& terms, const UnitLoss& loss);
reduce::Estimate weighted_var_share(const WeightedLevel& f, double var_se, double band_mean, const UnitLoss& unit,
                                    const std::string& name);
reduce::Estimate weighted_es_share(const WeightedLevel& f, const UnitLoss& unit, const std::string& name);

}  // namespace mcsim::var
