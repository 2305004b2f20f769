// VaR, ES, their errors and each position's Euler shares, from what the risk
// passes kept (app/risk.cpp): for each level, the losses of the bins around its
// order statistic with their scenarios, and exact sums of the losses above them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reduce/exact_sum.hpp"
#include "reduce/quantile.hpp"
#include "reduce/stats.hpp"

namespace mcsim::var {

struct Kept {
  double loss;
  std::uint64_t scenario;
  bool operator<(const Kept& o) const { return loss < o.loss || (loss == o.loss && scenario < o.scenario); }
};

// Exact sums over a set of scenarios, of a loss and of its square.
struct SumPair {
  reduce::Fixed sum = 0, sum_sq = 0;
};

// Units of the exact sums of losses and of their squares.
struct Units {
  reduce::FixedUnit loss, square;
};

// One level after pass 2: the losses kept around its order statistic (any
// order), how many losses lie below them, and those above them.
struct LevelPass {
  std::vector<Kept> kept;
  std::uint64_t below = 0, tail_count = 0;
  SumPair tail;
};

struct LevelFigures {
  double level = 0;
  reduce::LevelRanks ranks{};
  std::vector<Kept> kept;  // sorted
  std::size_t at_var = 0, band_lo = 0, band_hi = 0;  // indices into kept of ranks k, lo, hi
  double var = 0, var_lo = 0, var_hi = 0, var_se = 0, es = 0, es_se = 0, band_mean = 0;
  std::uint64_t tail_count = 0;  // losses ranked above the VaR
  reduce::Estimate var_estimate(const std::string& name, std::uint64_t n) const;
  reduce::Estimate es_estimate(const std::string& name, std::uint64_t n) const;
};

// Throws if the pass's counts do not add up to n or miss the band's ranks.
LevelFigures level_figures(double level, std::uint64_t n, LevelPass pass, const Units& units);

// One position's losses over the scenarios that make its shares: those at or
// above the kept window (tail), the kept ones ranked above the VaR (above), those
// in the VaR's 95% band of ranks (band), and the VaR scenario's.
struct PositionSums {
  SumPair tail, above, band;
  reduce::Fixed at_var = 0;
};
// Its share of the VaR: its mean loss over the band, moved along share_slope from the
// band's mean loss to the VaR, so that the shares add up to the VaR; the error holds
// the band's spread and the VaR's own error, carried by the same slope. Its share of
// the ES: its loss over the tail, the VaR scenario counted for its fraction, as ES
// counts it.
reduce::Estimate var_share(const LevelFigures& f, std::uint64_t n, const PositionSums& p, const Units& units,
                           const std::string& name);
reduce::Estimate es_share(const LevelFigures& f, std::uint64_t n, const PositionSums& p, const Units& units,
                          const std::string& name);
// How far a unit's VaR share moves with the VaR: the slope of its conditional mean
// loss E[L_u | L = v], estimated by the secant from the band (its mean loss there at
// the band's mean loss) to the tail (its ES share at the ES). The slopes add up to 1
// over the positions, as the shares add up. A unit flat in the tail (a knocked-out
// barrier) keeps its band mean and none of the VaR's error, and the others take
// more than their share of it; in proportion (mean / band mean) when ES = band mean.
double share_slope(double band_share, double es_share, double band_mean, double es);

}  // namespace mcsim::var
