// An option's market data: the discount curve, the dividend yield, discrete
// proportional and cash dividends and an implied volatility surface, as read from
// `model.market` (inline, or from CSV files it names).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/market/curve.hpp"

namespace mcsim::market {

// A dividend paid at `time`: the spot drops by the fraction `proportional` of
// itself, or by the amount `cash` (not below zero).
struct Dividend {
  double time = 0, proportional = 0, cash = 0;
};

// Implied Black volatilities on a grid: one row per expiry, one column per strike.
struct VolSurface {
  std::vector<double> expiries, strikes;
  std::vector<std::vector<double>> vols;
  std::vector<std::vector<std::string>> where;  // each quote's place (FILE:LINE:COLUMN), for errors
};

struct Market {
  Curve discount, dividend_yield;
  std::vector<Dividend> dividends;  // by time
  std::optional<VolSurface> surface;
  bool has_discount = false, has_dividend_yield = false;
  // log(F(t) / S0), F the forward to t: the carry of rate and yield, less the
  // proportional dividends paid by t (a cash dividend is no factor of the spot:
  // the paths subtract it).
  double log_growth(double t) const;
  bool has_cash() const;
  // Nothing but flat rates: the closed forms of constant inputs apply as they are.
  bool flat() const { return discount.is_flat() && dividend_yield.is_flat() && dividends.empty(); }
};

// Reads model.market; a curve it does not give is flat at 0 (has_discount,
// has_dividend_yield false), for the caller to set from the process's rate and
// dividend. A data file's content replaces its name in the config, so the job's
// text holds the data it ran on. Errors go to the block's diagnostics.
Market parse_market(io::Block& model);
const std::vector<io::KeySchema>& market_keys();

// A curve block at `key` of `parent`: {times, zero_rates}, {times, discount_factors}
// (where allowed) or {file} with columns time and zero_rate or discount_factor (its
// data put inline in the job's text). `given` false when the block is absent.
Curve parse_curve(io::Block& parent, const std::string& key, bool discount_factors_allowed, bool* given);
// Its keys under `at`, for a reader's schema.
std::vector<io::KeySchema> curve_keys(const std::string& at, const std::string& what, bool factors);

// A place and what is wrong there.
struct Problem {
  std::string where, message;
};

// Calendar arbitrage (total implied variance falling with expiry at a fixed
// forward moneyness) and butterfly arbitrage (undiscounted call prices not
// decreasing and convex in strike) among the surface's quotes, on forwards
// spot * exp(log_growth(T)).
std::vector<Problem> arbitrage(const VolSurface& s, double spot, const Market& m);

}  // namespace mcsim::market
