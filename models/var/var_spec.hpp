// The portfolio-risk job as read from `model:` (type: var): risk factors moving
// over a horizon, and a portfolio revalued in full at its end.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/block.hpp"
#include "models/rates/hull_white.hpp"
#include "models/var/revalue.hpp"

namespace mcsim::var {

constexpr double kTradingDays = 252;  // a horizon of 252 days is one year
constexpr std::size_t kMaxLevels = 10;  // confidence levels a job may ask for

struct RiskAsset {
  std::string name;
  double spot = 0, volatility = 0, drift = 0;  // GBM: d ln S = (drift - vol^2 / 2) dt + vol dW
  bool absolute = false;  // historical: its moves are price changes, not log returns
  // A short-rate factor: its level is the Hull-White state x (0 today, fitted to
  // the job's rate), which moves by a normal of sd volatility sqrt(h) (Monte Carlo:
  // x's own over the horizon) or by the history's short-rate changes.
  std::optional<rates::HullWhite> short_rate;
};

struct Position {
  Instrument instrument = Instrument::Stock;
  int asset = 0;          // index into VarSpec::assets
  double quantity = 0;    // negative: short
  double strike = 0;      // forward: delivery price; option: strike
  double maturity = 0;    // years from today (forwards and options)
  double barrier = 0;     // barrier options: the level H
  std::string name;       // default p<index>: names its contributions
  std::vector<std::string> groups;  // its value in each of VarSpec::group_columns
  int fixings = 0;        // Asians: fixings evenly spaced to maturity, the first maturity / fixings from today
  int other = -1;         // a second factor: an exchange's asset given up, or an option's implied volatility
  double correlation = 0; // exchanges: of the two assets, which values it
  // Bonds: a coupon rate paid every period (0: a zero-coupon bond); caps, floors and
  // swaptions: the first period's start (a swaption's expiry), the period, and the
  // cap rate or the swap's fixed rate as the strike.
  double coupon = 0, start = 0, period = 0;
  Contract contract() const { return {instrument, strike, barrier, maturity, fixings}; }
  // An option or digital valued at the level of its second factor, not its asset's volatility.
  bool volatility_from_factor() const { return other >= 0 && !is_pair(instrument); }
};

// An exchange's volatility: of ln(S / S'), from its two assets' and its correlation.
inline double pair_volatility(double volatility, double other_volatility, double correlation) {
  return std::sqrt(std::max(0.0, volatility * volatility + other_volatility * other_volatility -
                                     2 * correlation * volatility * other_volatility));
}

// Asians: the most fixings, and why an arithmetic average is refused.
constexpr std::uint64_t kMaxFixings = 10000;
constexpr const char* kBermudan =
    "a Bermudan swaption has no closed form, and risk revalues every position in closed form (price it with type: rates)";
constexpr const char* kArithmeticAverage =
    "an arithmetic average has no closed form, and risk revalues every position in closed form: use geometric";

// Position p's value `elapsed` years from today at spot S (today's spot spot_today),
// rate r and its asset's volatility (an exchange: pair_volatility, and the other
// asset's spot S').
inline double value_of(const Position& p, double elapsed, double spot, double spot_today, double rate, double volatility,
                       double other_spot = 0) {
  return position_value(p.contract(), p.quantity, spot, {elapsed, spot_today, rate, volatility}, other_spot);
}

// The error of a barrier position whose barrier today's spot of `asset` has crossed
// (the crossing made it a vanilla or nothing already: book it as that); "" when on
// the live side or not a barrier.
std::string knocked_already(const Position& p, const std::string& asset, double spot);
// The error of a name that is no asset of `names` (with a did-you-mean), and of a
// position whose second factor is its own asset ("" when it is another).
std::string no_factor_named(const std::string& name, const std::vector<std::string>& names);
std::string same_factor_twice(const Position& p);
struct VarSpec;
// An error and the key (a YAML position's) it is at; no message: none.
struct KeyError {
  std::string key, message;
};
// A rate position off a short-rate factor, or another position on one (at asset,
// other or volatility_factor).
KeyError wrong_factor(const VarSpec& s, const Position& p);
// A cap's, floor's or swaption's start by the horizon (its first rate fixed by
// then), or its maturity - start no whole number of periods.
KeyError rate_dates_error(const VarSpec& s, const Position& p);
inline const std::vector<std::string>& barrier_kind_names() {
  static const std::vector<std::string> n(std::begin(option::kBarrierKindNames), std::end(option::kBarrierKindNames));
  return n;
}

// Monte Carlo draws the factors' shocks; historical simulation takes them from a
// market history (models/var/history.hpp).
enum class Method { MonteCarlo, Historical };

struct VarSpec {
  Method method = Method::MonteCarlo;
  std::uint64_t horizon_days = 1;
  std::vector<double> confidence;  // levels, each in (0, 1)
  bool student_t = false;
  double dof = 0;                  // student_t: degrees of freedom (> 2: unit variance)
  std::vector<RiskAsset> assets;
  std::vector<std::vector<double>> correlation;
  std::vector<double> cholesky;    // row-major factor of `correlation`
  double rate = 0;
  std::vector<Position> portfolio;
  std::vector<std::string> group_columns;  // a positions file's grouping columns (desk, book, ...)
  bool standalone = false;  // each group's own VaR, ES and loss histogram too (a run of its positions)
  // A history (model.factors.history): its file and its window's first and last dates.
  std::string history_file;
  std::pair<std::string, std::string> window;
  // Historical simulation: scenario s moves the factors as the history did from
  // date scenario_start[s] over the horizon; asset i's log spot at the horizon is
  // historical_log_spots[s * assets + i].
  std::vector<double> historical_log_spots;
  std::vector<std::string> scenario_start;
  double age_decay = 0;  // historical, age-weighted: the newest scenario but k weighs age_decay^k; 0: all the same
  bool keep_pnl = false;  // model.keep_pnl: every scenario's P&L as the results' pnl table
  double horizon() const { return static_cast<double>(horizon_days) / kTradingDays; }
  bool historical() const { return method == Method::Historical; }
  bool age_weighted() const { return historical() && age_decay > 0; }
  std::uint64_t scenarios() const { return assets.empty() ? 0 : historical_log_spots.size() / assets.size(); }
};

// The factors' correlation of assets a and b: 0 when either is unknown or the
// matrix did not read (its error is reported where it is read).
inline double factor_correlation(const VarSpec& s, int a, int b) {
  if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= s.correlation.size()) return 0;
  const std::vector<double>& row = s.correlation[static_cast<std::size_t>(a)];
  return static_cast<std::size_t>(b) < row.size() ? row[static_cast<std::size_t>(b)] : 0;
}

// The volatility that values position p today: its asset's, an exchange's
// pair_volatility, or the level today of an option's volatility factor.
inline double volatility_of(const VarSpec& s, const Position& p) {
  const double v = s.assets[static_cast<std::size_t>(p.asset)].volatility;
  if (p.other < 0) return v;
  const RiskAsset& other = s.assets[static_cast<std::size_t>(p.other)];
  return p.volatility_from_factor() ? other.spot : pair_volatility(v, other.volatility, p.correlation);
}

// Reads and checks the block; errors name the key and its line. Returns false
// after an error (the diagnostics hold them all).
bool parse_var_spec(io::Block& model, VarSpec& out);

}  // namespace mcsim::var
