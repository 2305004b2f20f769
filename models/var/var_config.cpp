#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "models/correlation.hpp"
#include "io/schema.hpp"
#include "models/var/history.hpp"
#include "models/market/market.hpp"
#include "models/rates/rate_model.hpp"
#include "models/rates/rate_products.hpp"
#include "models/var/portfolio_file.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

namespace {

using io::Range;

// The history block, its assets' moves and, for historical simulation, the
// scenarios' log spots; Monte Carlo's volatilities and correlation from it.
void read_factor_history(io::Block& factors, VarSpec& s, const std::vector<io::Block*>& blocks) {
  io::Block h = factors.child("history", true);
  const bool historical = s.method == Method::Historical;
  const std::string returns = h.choice("returns", {"relative", "absolute"}, std::string("relative"));
  h.schema_note("ewma_lambda", "none: unscaled moves, sample covariance");
  const double lambda = h.has("ewma_lambda") ? h.real("ewma_lambda", std::nullopt, Range{0, 1, true, true}) : 0.0;
  h.schema_note("age_decay", "none: every scenario weighs the same");
  if (h.has("age_decay")) {
    s.age_decay = h.real("age_decay", std::nullopt, Range{0, 1, true, true});
    if (!historical) h.error("age_decay", "age weights serve method: historical (its scenarios are the history's windows)");
  }
  std::vector<std::string> names;
  std::vector<bool> absolute;
  // Monte Carlo's shocks are log-normal: their covariance is of log returns.
  const std::string only_historical = "absolute moves serve method: historical";
  if (!historical && returns == "absolute") h.error("returns", only_historical);
  std::vector<bool> level;
  for (std::size_t i = 0; i < s.assets.size(); ++i) {
    io::Block& b = *blocks[i];
    const bool rate = s.assets[i].short_rate.has_value();
    // A short-rate factor's history is its rate, which moves by changes.
    s.assets[i].absolute = b.choice("returns", {"relative", "absolute"}, rate ? "absolute" : returns) == "absolute";
    if (rate && !s.assets[i].absolute) b.error("returns", "a short-rate factor moves by changes of its rate: absolute");
    if (s.assets[i].absolute && !historical && b.has("returns")) b.error("returns", only_historical);
    if (rate && !historical)
      b.error("short_rate", "moves by its Hull-White model under Monte Carlo; a history serves it under method: historical");
    names.push_back(s.assets[i].name);
    absolute.push_back(s.assets[i].absolute);
    level.push_back(rate);
  }
  const MarketHistory history = read_history(h, names, absolute);
  h.finish();
  if (history.dates.empty()) return;
  s.history_file = history.file;
  s.window = {history.dates.front(), history.dates.back()};
  for (std::size_t i = 0; i < s.assets.size(); ++i)
    if (!blocks[i]->has("spot") && !s.assets[i].short_rate)
      s.assets[i].spot = history.prices[i].back();  // today: the window's last price
  if (historical) {
    if (history.dates.size() <= s.horizon_days)
      return h.error("file", fmt::format("{} dates in the window give no {}-day move", history.dates.size(), s.horizon_days));
    std::vector<double> spots;
    for (const RiskAsset& a : s.assets) spots.push_back(a.spot);
    try {
      s.historical_log_spots = historical_log_spots(history, spots, absolute, level, lambda, s.horizon_days);
    } catch (const std::exception& e) {
      h.error_where(h.where_of("file"), e.what());
    }
    s.scenario_start.assign(history.dates.begin(), history.dates.end() - static_cast<std::ptrdiff_t>(s.horizon_days));
    return;
  }
  // Monte Carlo: the daily log returns' covariance sets the shocks.
  const auto c = return_covariance(history, lambda);
  const std::size_t n = s.assets.size();
  s.correlation.assign(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    s.assets[i].volatility = std::sqrt(c[i][i]);
    if (!(s.assets[i].volatility > 0)) h.error("file", "the prices of " + s.assets[i].name + " never move in the window");
  }
  if (!h.valid()) return;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      s.correlation[i][j] = i == j ? 1.0 : std::clamp(c[i][j] / (s.assets[i].volatility * s.assets[j].volatility), -1.0, 1.0);
  const CholeskyFactor f = correlation_cholesky(s.correlation);
  if (!f.error.empty()) h.error("file", "the history's correlation: " + f.error);
  s.cholesky = f.lower;
}

// A short-rate factor: Hull-White's mean reversion and volatility, fitted to its
// discount curve (without one, flat at the job's rate, set once that is read). Its
// level x starts at 0; over the horizon h it moves by a normal of sd x's own, which
// volatility sqrt(h) gives.
void read_short_rate(io::Block& b, const VarSpec& s, RiskAsset& a) {
  for (const char* k : {"spot", "volatility", "drift"})
    if (b.has(k)) b.error(k, "a short-rate factor's level is its Hull-White state (0 today), moved by its model");
  io::Block m = b.child("short_rate", true);
  rates::HullWhite hw = rates::read_hull_white(m);
  bool given = false;
  hw.curve = market::parse_curve(m, "discount", false, &given);  // zero rates, inline or in a file
  m.finish();
  if (hw.a > 0 && hw.sigma > 0) a.volatility = rates::rate_step(hw, s.horizon()).sd_x / std::sqrt(s.horizon());
  a.short_rate = hw;
}

void parse_factors(io::Block& factors, VarSpec& s) {
  const bool historical = s.method == Method::Historical, history = factors.has("history");
  if (historical && !history) factors.error("", "method: historical needs a market history (model.factors.history)");
  if (historical) {
    // The history's moves are the scenarios: no model of shocks.
    for (const char* k : {"distribution", "dof", "correlation"})
      if (factors.has(k)) factors.error(k, "belongs to method: monte_carlo (historical moves come from the history)");
  } else {
    s.student_t = factors.choice("distribution", {"normal", "student_t"}, std::string("normal")) == "student_t";
    if (s.student_t) {
      // Shocks are scaled to unit variance, which needs more than 2 degrees of freedom.
      s.dof = factors.real("dof", std::nullopt, Range{2, 1e6, true, false});
    } else if (factors.has("dof")) {
      factors.error("dof", "degrees of freedom belong to distribution: student_t");
    }
  }
  auto list = factors.children("assets");
  std::vector<io::Block*> blocks;
  std::set<std::string> taken;
  for (std::size_t i = 0; i < list.size(); ++i) {
    io::Block& b = list[i];
    RiskAsset a;
    a.name = b.text("name", std::nullopt);
    if (b.has("short_rate")) {
      read_short_rate(b, s, a);
      if (!taken.insert(a.name).second) b.error("name", "asset '" + a.name + "' is listed twice");
      s.assets.push_back(a);
      blocks.push_back(&b);
      continue;
    }
    // With a history, today's spot is its window's last price; Monte Carlo then
    // estimates the volatility there too, while historical moves keep it for options.
    if (history) b.schema_note("spot", "the history's last price in the window");
    a.spot = history && !b.has("spot") ? 0.0 : b.real("spot", std::nullopt, Range::positive());
    const bool estimated = history && !historical;
    if (estimated && b.has("volatility")) b.error("volatility", "is estimated from model.factors.history; give one or the other");
    if (historical) b.schema_note("volatility", "none: the asset has no options");
    if (!estimated && (!historical || b.has("volatility")))
      a.volatility = b.real("volatility", std::nullopt, Range{0, 5, true, false});  // above 500% a year: absurd
    if (historical && b.has("drift")) b.error("drift", "belongs to method: monte_carlo (historical moves carry their own)");
    if (!historical) a.drift = b.real("drift", 0.0, {-1.0, 1.0});
    if (!history && b.has("returns")) b.error("returns", "absolute or relative moves are a history's (model.factors.history)");
    if (!taken.insert(a.name).second) b.error("name", "asset '" + a.name + "' is listed twice");
    s.assets.push_back(a);
    blocks.push_back(&b);
  }
  const std::size_t n = s.assets.size();
  if (n == 0) {
    factors.error("assets", "needs at least one asset");
    return;
  }
  if (history) {
    if (!historical && factors.has("correlation"))
      factors.error("correlation", "is estimated from model.factors.history; give one or the other");
    read_factor_history(factors, s, blocks);
  } else {
    read_correlation(factors, n, &s.correlation, &s.cholesky);
  }
  for (io::Block& b : list) b.finish();
  if (historical) {  // the shocks' factor is not used: the identity keeps the arrays' shape
    s.correlation.assign(n, std::vector<double>(n, 0.0));
    s.cholesky.assign(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) s.correlation[i][i] = 1.0, s.cholesky[i * n + i] = 1.0;
  }
}

// The index of the asset that `key` names; -1 (after an error) for none.
int asset_named(io::Block& b, const char* key, const std::vector<std::string>& names) {
  const std::string asset = b.text(key, std::nullopt);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == asset) return static_cast<int>(i);
  if (!names.empty() && !asset.empty()) b.error(key, no_factor_named(asset, names));
  return -1;
}

// A bond (coupon, period), cap or floor (strike, start, period) or swaption
// (position, strike, start, period): its dates on the schedule the rates family
// uses (rate_dates_error checks them against the horizon).
void read_rate_position(io::Block& b, const std::string& type, Position& p) {
  if (type == "bond") {
    p.instrument = Instrument::Bond;
    p.coupon = b.real("coupon", 0.0, Range{-1, 1});
    b.schema_note("period", "", "> 0");
    if (p.coupon != 0) p.period = b.real("period", std::nullopt, Range::positive());
    else if (b.has("period")) b.error("period", "a zero-coupon bond has no coupon period");
    return;
  }
  if (type == "swaption")
    p.instrument = b.choice("position", {"payer", "receiver"}, std::nullopt) == "payer" ? Instrument::PayerSwaption
                                                                                        : Instrument::ReceiverSwaption;
  else
    p.instrument = type == "cap" ? Instrument::Cap : Instrument::Floor;
  p.strike = b.real("strike", std::nullopt, Range{-1, 1});
  p.start = b.real("start", std::nullopt, Range::positive());
  p.period = b.real("period", std::nullopt, Range::positive());
}

void parse_portfolio(io::Block& model, VarSpec& s) {
  std::vector<std::string> names;
  for (const auto& a : s.assets) names.push_back(a.name);
  if (model.has_mapping("portfolio")) {  // a positions file
    model.schema_note("portfolio", "-");
    io::Block file = model.child("portfolio", true);
    read_portfolio_file(file, s);
    file.finish();
    return;
  }
  auto list = model.children("portfolio");
  if (list.empty() && model.valid()) model.error("portfolio", "needs at least one position");
  std::set<std::string> taken;
  for (io::Block& b : list) {
    Position p;
    b.schema_note("name", "p0, p1, ...");
    p.name = b.text("name", "p" + std::to_string(s.portfolio.size()));
    if (!taken.insert(p.name).second) b.error("name", "position '" + p.name + "' is named twice");
    const std::string type =
        b.choice("type", {"stock", "forward", "option", "digital", "barrier", "asian", "exchange", "bond", "cap", "floor",
                          "swaption", "bermudan_swaption"},
                 std::nullopt);
    if (type == "bermudan_swaption") {  // its other keys are not read: no error is reported on them
      b.error("type", kBermudan);
      continue;
    }
    p.asset = asset_named(b, "asset", names);
    p.quantity = b.real("quantity", std::nullopt);
    // Revalued at the horizon on its remaining life, which must not have ended.
    const auto read_maturity = [&] {
      p.maturity = b.real("maturity", std::nullopt, Range::positive());
      if (b.valid() && p.maturity <= s.horizon())
        b.error("maturity", fmt::format("{} years ends before the horizon of {} days ({:.6g} years)", p.maturity,
                                        s.horizon_days, s.horizon()));
    };
    const bool rate = type == "bond" || type == "cap" || type == "floor" || type == "swaption";
    if (type == "stock") {
      p.instrument = Instrument::Stock;
    } else if (rate) {
      read_rate_position(b, type, p);
      read_maturity();
      if (b.valid())
        if (const KeyError e = rate_dates_error(s, p); !e.message.empty()) b.error(e.key, e.message);
    } else if (type == "exchange") {
      p.instrument = Instrument::Exchange;
      p.other = asset_named(b, "other", names);
      if (const std::string e = same_factor_twice(p); !e.empty()) b.error("other", e);
      // Historical simulation has no model of the factors: the position gives its own.
      b.schema_note("correlation", "the factors' (Monte Carlo)");
      const std::optional<double> factors =
          s.historical() ? std::nullopt : std::optional<double>(factor_correlation(s, p.asset, p.other));
      p.correlation = b.real("correlation", factors, Range{-1, 1});
      read_maturity();
    } else if (!type.empty()) {
      const bool forward = type == "forward";
      if (!forward) {
        const bool call = b.choice("option", {"call", "put"}, std::nullopt) == "call";
        p.instrument = type == "digital" ? (call ? Instrument::DigitalCall : Instrument::DigitalPut)
                                         : (call ? Instrument::Call : Instrument::Put);
        if ((type == "option" || type == "digital") && b.has("volatility_factor")) {
          p.other = asset_named(b, "volatility_factor", names);
          if (const std::string e = same_factor_twice(p); !e.empty()) b.error("volatility_factor", e);
        }
        if (type == "barrier") {
          const auto kind = b.choice_of<option::BarrierKind>("kind", barrier_kind_names(), std::nullopt);
          p.barrier = b.real("barrier", std::nullopt, Range::positive());
          p.instrument = barrier_instrument(kind, call);
        }
        if (type == "asian") {
          if (b.choice("average", {"geometric", "arithmetic"}, std::nullopt) == "arithmetic")
            b.error("average", kArithmeticAverage);
          p.fixings = static_cast<int>(b.count("fixings", std::nullopt, 1, kMaxFixings));
          p.instrument = call ? Instrument::AsianCall : Instrument::AsianPut;
        }
      } else {
        p.instrument = Instrument::Forward;
        b.schema_note("strike", "", "any for a forward");
      }
      p.strike = b.real("strike", std::nullopt, forward ? Range{} : Range::positive());
      read_maturity();
      if (b.valid() && p.asset >= 0)
        if (const std::string e = knocked_already(p, names[static_cast<std::size_t>(p.asset)],
                                                  s.assets[static_cast<std::size_t>(p.asset)].spot);
            !e.empty())
          b.error("barrier", e);
    }
    if (const KeyError e = wrong_factor(s, p); !e.message.empty()) b.error(e.key, e.message);
    b.finish();
    s.portfolio.push_back(p);
  }
}

// Options revalue at their asset's volatility (an exchange at both of its assets',
// an option on a volatility factor at that factor's level), which historical
// simulation does not otherwise need.
void check_option_volatilities(io::Block& factors, const VarSpec& s) {
  std::vector<bool> named(s.assets.size(), false);
  for (const Position& p : s.portfolio)
    for (const int i : {p.volatility_from_factor() ? -1 : p.asset, is_pair(p.instrument) ? p.other : -1})
      if (is_option(p.instrument) && i >= 0 && !(s.assets[static_cast<std::size_t>(i)].volatility > 0) &&
          !named[static_cast<std::size_t>(i)]) {
        named[static_cast<std::size_t>(i)] = true;
        factors.error_where(factors.where_of("assets", i), "asset '" + s.assets[static_cast<std::size_t>(i)].name +
                                                               "' has options (" + p.name +
                                                               "): give its volatility, which values them");
      }
}

}  // namespace

std::string knocked_already(const Position& p, const std::string& asset, double spot) {
  const bool live =
      !is_barrier(p.instrument) || (option::is_down(barrier_of(p.instrument)) ? spot > p.barrier : spot < p.barrier);
  return live ? "" : fmt::format("{:g} is crossed at today's spot of {} ({:g}): the option is knocked already; book what "
                                 "it became", p.barrier, asset, spot);
}

std::string no_factor_named(const std::string& name, const std::vector<std::string>& names) {
  const std::string hint = io::did_you_mean(name, names);
  return "no risk factor named '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)");
}

KeyError wrong_factor(const VarSpec& s, const Position& p) {
  const auto rate = [&](int i) { return i >= 0 && s.assets[static_cast<std::size_t>(i)].short_rate.has_value(); };
  const auto name = [&](int i) { return "'" + s.assets[static_cast<std::size_t>(i)].name + "'"; };
  const std::string carries = " is a short-rate factor: it carries bonds, caps, floors and swaptions";
  if (is_rate(p.instrument) && p.asset >= 0 && !rate(p.asset))
    return {"asset", name(p.asset) + " is no short-rate factor; bonds, caps, floors and swaptions are on one (short_rate)"};
  if (!is_rate(p.instrument) && rate(p.asset)) return {"asset", name(p.asset) + carries};
  if (!is_rate(p.instrument) && rate(p.other)) return {is_pair(p.instrument) ? "other" : "volatility_factor", name(p.other) + carries};
  return {};
}

KeyError rate_dates_error(const VarSpec& s, const Position& p) {
  if (p.instrument == Instrument::Bond) return {};
  if (p.start <= s.horizon())
    return {"start", fmt::format("{} years comes before the horizon of {} days ({:.6g} years): its first rate is fixed "
                                 "by then", p.start, s.horizon_days, s.horizon())};
  return {"period", rates::schedule_error(p.start, p.maturity, p.period)};
}

std::string same_factor_twice(const Position& p) {
  if (p.other < 0 || p.other != p.asset) return "";
  return is_pair(p.instrument) ? "an exchange gives one asset for another, not for itself"
                               : "names the option's own asset; a volatility factor is a factor of its own";
}

bool parse_var_spec(io::Block& model, VarSpec& s) {
  s.horizon_days = model.count("horizon_days", std::nullopt, 1, 10000);
  s.confidence = model.has("confidence") ? model.reals("confidence", Range{0, 1, true, true})
                                         : std::vector<double>{0.975, 0.99};  // FRTB's ES level, and VaR's
  if (s.confidence.empty()) model.error("confidence", "needs at least one level");
  if (s.confidence.size() > kMaxLevels)
    model.error("confidence", "at most " + std::to_string(kMaxLevels) + " levels");
  s.method = model.choice("method", {"monte_carlo", "historical"}, std::string("monte_carlo")) == "historical"
                 ? Method::Historical
                 : Method::MonteCarlo;
  io::Block factors = model.child("factors", true);
  parse_factors(factors, s);
  s.rate = model.real("rate", 0.0, {-1.0, 1.0});
  for (RiskAsset& a : s.assets)  // without a curve of its own: today's flat one (a given curve has pillars)
    if (a.short_rate && a.short_rate->curve.is_flat()) a.short_rate->curve = market::Curve::flat(s.rate);
  s.keep_pnl = model.choice("keep_pnl", {"false", "true"}, std::string("false")) == "true";
  parse_portfolio(model, s);
  if (s.historical()) {
    check_option_volatilities(factors, s);
    // Each level's tail needs a scenario of its own.
    const std::uint64_t n = s.scenarios();
    for (double a : s.confidence)
      if (n && (1 - a) * static_cast<double>(n) < 1)
        model.error("confidence", fmt::format("level {:g} needs at least {:.0f} historical scenarios; the window gives {}", a,
                                              std::ceil(1 / (1 - a) - 1e-9), n));
  }
  factors.finish();
  return model.valid() && factors.valid() && model.diagnostics().empty();
}


// The keys of a portfolio-risk job's model: block.
// Each key once: its type, default, range or choices and meaning as its reader
// above describes them (a test loads every job the tests do and fails on a key
// read that is missing here or described otherwise).
const std::vector<io::KeySchema>& var_keys() {
  static const std::vector<io::KeySchema> keys = [] {
    std::vector<io::KeySchema> k{
      {"model.horizon_days", "whole number", "", ">= 1, <= 10000",
       "risk: the horizon in trading days (252 a year)"},
      {"model.confidence", "list of numbers", "-", "in (0, 1)",
       "risk: the VaR and ES levels (default [0.975, 0.99]: FRTB's ES level and the 99% VaR)"},
      {"model.factors", "block", "", "",
       "risk: the risk factors (asset prices) and their joint shocks"},
      {"model.factors.distribution", "one of", "normal", "normal, student_t",
       "risk: normal or Student-t shocks (with dof)"},
      {"model.factors.assets", "list of blocks", "-", "",
       "risk: the assets; each with name, spot, volatility, drift"},
      {"model.factors.assets[].name", "text", "", "",
       "risk: the asset's name, which positions refer to"},
      {"model.factors.assets[].spot", "number", "(depends on other keys)", "> 0",
       "risk: the asset's price today (with a history: its last price in the window)"},
      {"model.factors.assets[].volatility", "number", "(depends on other keys)", "in (0, 5]",
       "risk: the asset's annual volatility (Monte Carlo with a history: estimated; historical: for its options)"},
      {"model.factors.assets[].drift", "number", "0", "in [-1, 1]",
       "risk: the asset's annual drift over the horizon (Monte Carlo)"},
      {"model.factors.assets[].returns", "one of", "(depends on other keys)", "relative, absolute",
       "risk: historical moves of this asset as log returns or price changes (default: the history's)"},
      {"model.factors.assets[].short_rate", "block", "", "",
       "risk: makes the factor a Hull-White short rate fitted to model.rate, for bonds, caps, floors and swaptions; its "
       "level is the model's state (0 today; historical: moved by its column's rate changes)"},
      {"model.factors.assets[].short_rate.model", "one of", "hull_white", "hull_white", "risk: Hull-White one-factor"},
      {"model.factors.assets[].short_rate.a", "number", "", "in (0, 10]", "risk: the short rate's mean reversion"},
      {"model.factors.assets[].short_rate.sigma", "number", "", "in (0, 1]", "risk: the short rate's volatility"},
      {"model.factors.correlation", "number or matrix", "(depends on other keys)", "in [-1, 1]",
       "risk: the assets' correlation matrix, or one number for every pair"},
      {"model.rate", "number", "0", "in [-1, 1]",
       "risk: the risk-free rate that values the options"},
      {"model.portfolio", "list of blocks or block", "-", "",
       "risk: the positions, each a stock, forward, option, digital, barrier or Asian option on one asset, an exchange of "
       "two, or a bond, cap, floor or swaption on a short-rate factor; or {file, groups}"},
      {"model.portfolio.file", "text", "", "",
       "risk: a CSV of positions: id, type (stock, forward, option, digital, barrier, asian, exchange, bond, cap, floor, "
       "swaption), underlying, quantity, option, strike, maturity, barrier, kind, average, fixings, other, correlation, "
       "volatility_factor, coupon, start, period, position and grouping columns"},
      {"model.portfolio.groups", "any", "none", "",
       "risk: the file's grouping columns (desk, book, ...), reported per value"},
      {"model.portfolio.standalone", "one of", "false", "false, true",
       "risk: also each group's own VaR and ES (standalone_var_<level>.<group>) and loss histogram, a run of its positions"},
      {"model.portfolio.digest", "text", "-", "",
       "written by mcsim: the positions file's digest (HEX of PATH); read again over a changed file, the job is refused"},
      {"model.portfolio[].name", "text", "p0, p1, ...", "",
       "risk: the position's name in the contributions"},
      {"model.portfolio[].type", "one of", "", "stock, forward, option, digital, barrier, asian, exchange, bond, cap, floor, swaption, bermudan_swaption",
       "risk: the kind of position (digital: cash-or-nothing, one unit of cash a unit held; barrier: continuously "
       "monitored, no rebate, checked at the horizon's spot; asian: on a geometric average, its fixings before the "
       "horizon valued given the spots today and at the horizon; exchange: Margrabe's option to give one unit of other for "
       "one of asset; bond, cap, floor, swaption: per unit notional on a short-rate factor, valued in Hull-White closed form, "
       "a swaption by Jamshidian's split)"},
      {"model.portfolio[].coupon", "number", "0", "in [-1, 1]",
       "risk: a bond's annual coupon rate, paid every period back from maturity (0: a zero-coupon bond)"},
      {"model.portfolio[].start", "number", "", "> 0",
       "risk: a cap's or floor's first period start, a swaption's expiry (years; after the horizon)"},
      {"model.portfolio[].period", "number", "", "> 0",
       "risk: the accrual period in years (caps, floors, swaptions: maturity - start a whole number of them)"},
      {"model.portfolio[].position", "one of", "", "payer, receiver",
       "risk: a swaption's: pay or receive the fixed rate (strike)"},
      {"model.portfolio[].other", "text", "", "",
       "risk: the asset an exchange gives up (exchange positions: pays max(S_asset - S_other, 0) at maturity)"},
      {"model.portfolio[].correlation", "number", "the factors' (Monte Carlo)", "in [-1, 1]",
       "risk: the correlation of an exchange's two assets that values it (historical: required)"},
      {"model.portfolio[].volatility_factor", "text", "", "",
       "risk: a factor whose level is the option's implied volatility, moved with the others (option and digital "
       "positions; without it, the asset's volatility; its spot: today's volatility; in a history: a column of "
       "implied volatilities)"},
      {"model.portfolio[].average", "one of", "", "geometric, arithmetic",
       "risk: the Asian's average; only a geometric one has the closed form risk revalues with (asian positions)"},
      {"model.portfolio[].fixings", "whole number", "", ">= 1, <= 10000",
       "risk: the Asian's fixings, evenly spaced from today to maturity, the first maturity / fixings from today"},
      {"model.portfolio[].kind", "one of", "", "down-and-out, up-and-out, down-and-in, up-and-in",
       "risk: the barrier's kind (barrier positions)"},
      {"model.portfolio[].barrier", "number", "", "> 0",
       "risk: the barrier's level, on the live side of today's spot (barrier positions)"},
      {"model.portfolio[].asset", "text", "", "",
       "risk: the asset the position is on"},
      {"model.portfolio[].quantity", "number", "", "",
       "risk: units held (negative: short)"},
      {"model.portfolio[].option", "one of", "", "call, put",
       "risk: call or put (option, digital, barrier and asian positions)"},
      {"model.portfolio[].strike", "number", "", "> 0 or in [-1, 1] or any for a forward",
       "risk: the strike (forward, option, digital, barrier and asian positions; a cap's or floor's rate and a swaption's "
       "fixed rate, in [-1, 1])"},
      {"model.portfolio[].maturity", "number", "", "> 0",
       "risk: years to maturity today (a rate position's last payment)"},
      {"model.factors.dof", "number", "", "in (2, 1e+06]",
       "risk: the Student-t degrees of freedom"},
      {"model.keep_pnl", "one of", "false", "false, true",
       "risk: write every scenario's P&L as the results' pnl table (historical: named by the window's first date); "
       "at most 10,000,000 scenarios"},
      {"model.method", "one of", "monte_carlo", "monte_carlo, historical",
       "risk: shocks drawn from a model of the factors, or the history's own moves"},
      {"model.factors.history", "block", "", "",
       "risk: a market history (CSV: date, then a price column per asset) and its window"},
      {"model.factors.history.file", "text", "", "",
       "risk: the history's CSV file; columns date (YYYY-MM-DD) and one per asset"},
      {"model.factors.history.from", "text", "-", "",
       "risk: the window's first date, YYYY-MM-DD (default: the file's first); a stressed window is a date range"},
      {"model.factors.history.to", "text", "-", "",
       "risk: the window's last date, YYYY-MM-DD (default: the file's last)"},
      {"model.factors.history.returns", "one of", "relative", "relative, absolute",
       "risk: historical moves as log returns (relative) or price changes (absolute)"},
      {"model.factors.history.ewma_lambda", "number", "none: unscaled moves, sample covariance", "in (0, 1)",
       "risk: EWMA decay; historical: moves scaled to today's volatility, Monte Carlo: EWMA covariance"},
      {"model.factors.history.age_decay", "number", "none: every scenario weighs the same", "in (0, 1)",
       "risk, historical: age-weighted simulation; the window ending k days before the newest weighs age_decay^k"},
    };
    for (const auto& c : market::curve_keys("model.factors.assets[].short_rate.discount",
                                            "risk: the curve the short rate is fitted to (default: flat at model.rate)", false))
      k.push_back(c);
    return k;
  }();
  return keys;
}

}  // namespace mcsim::var
