// Market history for a risk job (model.factors.history): a CSV file with a column
// date (YYYY-MM-DD, increasing) and a column of prices per risk factor, one row a
// trading day, cut to a window of dates. Historical simulation applies its
// overlapping h-day moves to today's spots; Monte Carlo may estimate its shocks'
// volatilities and correlation from it.
#pragma once
#include <string>
#include <vector>

#include "io/block.hpp"

namespace mcsim::var {

struct MarketHistory {
  std::string file;
  std::vector<std::string> names;            // the assets', in the job's order
  std::vector<std::string> dates;            // the window's, increasing
  std::vector<std::vector<double>> prices;   // per asset named, per date
};

// Reads the block's file, from and to for the assets named (each must be a
// column; its prices above 0 unless its moves are absolute). Errors name the key
// or FILE:LINE:COLUMN; an empty history after one.
MarketHistory read_history(io::Block& history, const std::vector<std::string>& assets, const std::vector<bool>& absolute);

// Each asset's daily moves: log returns, or price changes where absolute[i]; with
// lambda > 0 each rescaled by the ratio of tomorrow's EWMA volatility to its own
// day's (Hull and White's filtered historical simulation).
std::vector<std::vector<double>> daily_moves(const MarketHistory& h, const std::vector<bool>& absolute, double lambda);

// Scenario t = 0 .. days - h - 1: the move from date t to date t + h, summed from
// the daily moves when scaled, else straight from the two prices, applied to
// today's spot: its log spot at [t * assets + i], or where level[i] (a short-rate
// factor, its moves absolute) the level itself. Throws naming the asset and the
// window when an absolute move takes a spot to zero or below.
std::vector<double> historical_log_spots(const MarketHistory& h, const std::vector<double>& spots,
                                         const std::vector<bool>& absolute, const std::vector<bool>& level, double lambda,
                                         std::size_t horizon_days);

// The daily log returns' covariance, annualised (252 days a year): the sample
// covariance about the mean, or with lambda > 0 the EWMA (RiskMetrics, zero mean)
// as of the last date.
std::vector<std::vector<double>> return_covariance(const MarketHistory& h, double lambda);

}  // namespace mcsim::var
