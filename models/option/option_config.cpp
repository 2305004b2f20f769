// Reading the option model's config block: process (one asset or several
// correlated ones), the instrument (instrument_config.cpp), steps, variance
// reduction and Greeks, every mistake reported with its key and line.
#include <fmt/format.h>

#include <algorithm>

#include "models/correlation.hpp"
#include "models/market/local_vol.hpp"
#include "models/option/config_limits.hpp"
#include "models/option/hybrid.hpp"
#include "models/option/instrument_config.hpp"
#include "models/option/market_inputs.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

namespace {

// Heston and local-volatility paths are stepped; without model.steps they take this many.
constexpr std::uint64_t kHestonDefaultSteps = 100;
// An American option is exercisable on this many dates unless model.steps says otherwise.
constexpr std::uint64_t kAmericanDefaultDates = 50;
constexpr std::uint64_t kDefaultRegressionPaths = 1 << 16;

// Heston's variance parameters, of the process or of one asset.
void read_heston(io::Block& b, double& v0, double& kappa, double& theta, double& xi, double& rho) {
  using io::Range;
  v0 = b.real("v0", std::nullopt, Range{0, 1e308, false, false});
  kappa = b.real("kappa", std::nullopt, Range::positive());
  theta = b.real("theta", std::nullopt, Range::positive());
  xi = b.real("xi", std::nullopt, Range::positive());
  rho = b.real("rho", std::nullopt, Range{-1.0, 1.0});
}

// model.process.assets and correlation: several correlated assets, GBM or Heston.
void parse_assets(io::Block& process, OptionSpec& s) {
  using io::Range;
  for (const char* key : {"spot", "volatility", "dividend", "v0", "kappa", "theta", "xi", "rho"})
    if (process.has(key)) process.error(key, std::string("with assets, each asset has its own ") + key);
  if (!s.heston() && s.process != Process::Gbm)
    process.error("assets", "several assets move under gbm or heston, not " + name_of(s.process));
  auto list = process.children("assets");
  for (std::size_t i = 0; i < list.size(); ++i) {
    io::Block& b = list[i];
    Asset a;
    b.schema_note("name", "asset0, asset1, ...");
    a.name = b.text("name", "asset" + std::to_string(i));
    a.spot = b.real("spot", std::nullopt, Range::positive());
    if (s.heston()) read_heston(b, a.v0, a.kappa, a.theta, a.xi, a.rho);
    else a.volatility = b.real("volatility", std::nullopt, kVolatility);
    a.dividend = b.real("dividend", 0.0, {-1.0, 1.0});
    b.finish();
    for (const Asset& earlier : s.assets)
      if (earlier.name == a.name) b.error("name", "asset '" + a.name + "' is listed twice");
    s.assets.push_back(a);
  }
  const std::size_t n = s.assets.size();
  constexpr std::size_t kMax = BasketPath<double>::kMaxAssets;
  if (n == 0 && process.has("assets")) process.error("assets", "needs at least one asset");
  if (n > kMax) process.error("assets", "at most " + std::to_string(kMax) + " assets in this version (got " +
                                            std::to_string(n) + ")");
  if (n > kMax) return;
  read_correlation(process, n, &s.correlation, &s.cholesky);
}

// model.steps's default, as the schema states it.
std::string steps_default() {
  return fmt::format("1; {} under heston, local_vol and cev, {} for an American option, a Bermudan basket's exercise dates",
                     kHestonDefaultSteps, kAmericanDefaultDates);
}

// A basket's steps: one exact step to maturity under gbm; walked step by step under
// heston or with early exercise, exercisable after every steps / exercise_dates.
void parse_basket_steps(io::Block& model, OptionSpec& s) {
  if (!s.basket_steps()) {
    if (model.has("steps")) model.error("steps", "a gbm basket pays on its assets at maturity, reached in one exact step");
    return;
  }
  const std::uint64_t dates = s.instrument == Instrument::Bermudan ? s.steps : 0;  // exercise_dates, read before
  model.schema_note("steps", steps_default());
  s.steps = model.count("steps", dates                                   ? dates
                                 : s.instrument == Instrument::American ? kAmericanDefaultDates
                                                                        : kHestonDefaultSteps, 1, kMaxSteps);
  s.exercise_dates = dates ? dates : s.instrument == Instrument::American ? s.steps : 1;
  if (s.steps % s.exercise_dates)
    model.error("steps", fmt::format("a Bermudan basket steps to each of its {} exercise dates: steps must be a "
                                     "multiple of them (got {})", s.exercise_dates, s.steps));
}

// model.process.volatility: one number, or {times, values}, piecewise constant.
void parse_volatility(io::Block& process, OptionSpec& s) {
  if (!process.has("volatility") || process.has_scalar("volatility")) {
    s.volatility = process.real("volatility", std::nullopt, kVolatility);
    s.vol_term = market::VolTerm::flat(s.volatility);
    return;
  }
  process.schema_note("volatility", "", kVolatility.describe());
  io::Block v = process.child("volatility", true);
  const auto times = v.reals("times", kMaturity);
  const auto values = v.reals("values", kVolatility);
  v.finish();
  if (!v.valid()) return;
  if (times.empty() || times.size() != values.size())
    return v.error(times.empty() ? "times" : "values", fmt::format("needs one value per time ({}), got {}", times.size(),
                                                                  values.size()));
  for (std::size_t i = 1; i < times.size(); ++i)
    if (!(times[i] > times[i - 1]))
      return v.error_where(v.where_of("times", static_cast<int>(i)), "times must increase");
  s.vol_term = market::VolTerm(times, values);
  s.volatility = values.front();
}

// model.process.jumps: Merton's lognormal jumps on gbm (Merton) or heston (Bates).
void parse_jumps(io::Block& process, OptionSpec& s) {
  io::Block j = process.child("jumps", true);
  s.jumping = true;
  s.jumps.intensity = j.real("intensity", std::nullopt, io::Range{0, 1000, true, false});
  s.jumps.mean = j.real("mean", std::nullopt, {-5.0, 5.0});
  s.jumps.vol = j.real("vol", std::nullopt, io::Range{0, 5, false, false});
  j.finish();
  if (s.multi_asset()) process.error("jumps", "jumps move a single asset (gbm or heston), not model.process.assets");
  else if (!s.gbm_diffusion() && !s.heston())
    process.error("jumps", "jumps join a gbm (Merton) or heston (Bates) process, not " + name_of(s.process));
}

// Cash dividends are paid on GBM paths walked step by step (StepPath's CashGbm).
void check_cash_dividends(io::Block& model, const OptionSpec& s) {
  if (!s.market.has_cash()) return;
  const auto refuse = [&](const std::string& why) {
    model.error("market", "cash dividends " + why + " (a proportional dividend serves there)");
  };
  if (s.process != Process::Gbm || s.jumping)
    refuse("are paid on gbm paths without jumps in this version, not under " + name_of(s.process) +
           (s.jumping ? " with jumps" : ""));
  else if (s.hybrid())
    refuse("are not paid beside a short rate or on an autocallable in this version");
  else if (s.sobol)
    refuse("put steps at the ex-dates among the fixings, which sobol's Brownian bridge does not take");
}

// Flat inputs to maturity equivalent to the market's (for closed forms and the
// summary), the surface's arbitrage checks and Dupire's grid on the path's steps.
// Only for a job whose every key read well: these use the spot, the maturity and the data together.
void finish_market(io::Block& model, OptionSpec& s) {
  if (s.multi_asset() || !model.diagnostics().empty()) return;
  const double t = s.maturity;
  const market::Market& m = s.market;
  if (s.term_structure()) flat_equivalents(s);
  if (!m.surface) return;
  auto problems = market::arbitrage(*m.surface, s.spot, m);
  for (const auto& p : problems) model.error_where(p.where, p.message);
  if (!problems.empty() || s.process != Process::LocalVol) return;
  std::vector<double> ends;
  const std::uint64_t n = s.times.empty() ? s.steps : s.times.size();
  for (std::uint64_t i = 1; i <= n; ++i) ends.push_back(s.times.empty() ? t * static_cast<double>(i) / n : s.times[i - 1]);
  auto grid = market::dupire_grid(*m.surface, s.spot, m, ends, &problems);
  for (const auto& p : problems) model.error_where(model.where_of("market"), "vol_surface: " + p.message);
  s.local_vol = std::make_shared<const market::LocalVolGrid>(std::move(grid));
}

}  // namespace

const std::vector<std::string>& process_names() {
  static const std::vector<std::string> n{"gbm", "heston", "local_vol", "cev"};
  return n;
}
const std::vector<std::string>& instrument_names() {
  static const std::vector<std::string> n{"european", "digital",  "asian",    "barrier",       "lookback",
                                          "basket",   "american", "bermudan", "forward_start", "cliquet",
                                          "autocallable"};
  return n;
}
const std::vector<std::string>& average_names() {
  static const std::vector<std::string> n{"arithmetic", "geometric"};
  return n;
}
const std::vector<std::string>& strike_type_names() {
  static const std::vector<std::string> n{"fixed", "floating"};
  return n;
}
const std::vector<std::string>& knock_names() {
  static const std::vector<std::string> n(std::begin(kBarrierKindNames), std::end(kBarrierKindNames));
  return n;
}
const std::vector<std::string>& basket_names() {
  static const std::vector<std::string> n{"average", "max", "min", "exchange", "spread"};
  return n;
}

std::unique_ptr<Model> parse_option_model(io::Block& model) {
  OptionSpec s;
  using io::Range;

  s.market = market::parse_market(model);
  io::Block process = model.child("process", true);
  s.process = process.choice_of("type", process_names(), std::optional<Process>(Process::Gbm));
  // A curve in model.market replaces the process's flat rate or dividend.
  if (s.market.has_discount && process.has("rate"))
    process.error("rate", "the rate comes from model.market.discount: give one or the other");
  else if (!s.market.has_discount)
    s.market.discount = market::Curve::flat(s.rate = process.real("rate", 0.0, {-1.0, 1.0}));
  if (process.has("assets")) {
    parse_assets(process, s);
  } else {
    s.spot = process.real("spot", std::nullopt, Range::positive());
    if (s.market.has_dividend_yield && process.has("dividend"))
      process.error("dividend", "the yield comes from model.market.dividend_yield: give one or the other");
    else if (!s.market.has_dividend_yield)
      s.market.dividend_yield = market::Curve::flat(s.dividend = process.real("dividend", 0.0, {-1.0, 1.0}));
    process.not_available("correlation", "a correlation without model.process.assets");
  }
  const bool market_data = !s.market.flat() || s.market.surface;
  if (market_data && (s.heston() || s.multi_asset()))
    model.error("market", std::string(s.heston() ? "heston" : "several assets") +
                              " take a flat rate and dividend in this version (market curves, dividends and surfaces "
                              "serve gbm, local_vol and cev)");
  if (s.market.surface && s.process != Process::LocalVol)
    model.error("market", "a vol_surface is the input of process type local_vol (under " + name_of(s.process) +
                              " it would be unused)");
  if (s.process == Process::LocalVol && !s.market.surface)
    process.error("type", "local_vol needs the implied volatilities of model.market.vol_surface");
  if (s.heston()) {
    if (!s.multi_asset()) read_heston(process, s.v0, s.kappa, s.theta, s.xi, s.rho);
    s.qe = process.choice("scheme", {"qe", "euler"}, std::string("qe")) == "qe";
  } else if (s.process == Process::Cev) {
    s.cev_sigma = process.real("sigma", std::nullopt, Range::positive());
    s.cev_beta = process.real("beta", std::nullopt, Range{0, 1, true, false});
  } else if (s.gbm_diffusion() && !s.multi_asset()) {
    parse_volatility(process, s);
  }
  if (process.has("jumps")) parse_jumps(process, s);
  if (process.has("short_rate")) parse_short_rate(process, s);
  process.finish();

  io::Block inst = model.child("instrument", true);
  parse_instrument(inst, process, s);

  if (s.instrument == Instrument::Asian) {
    if (model.has("steps")) model.error("steps", "an Asian option steps at its fixings; set instrument.fixings");
  } else if (s.multi_asset()) {
    parse_basket_steps(model, s);
  } else if (s.instrument == Instrument::Bermudan) {
    if (model.has("steps")) model.error("steps", "a Bermudan option steps at its exercise dates; set instrument.exercise_dates");
  } else if (s.periodic()) {
    if (model.has("steps"))
      model.error("steps", "a forward start steps to its start and maturity, a cliquet to its resets (instrument.resets)");
  } else {
    model.schema_note("steps", steps_default());
    s.steps = model.count("steps", s.heston() || s.local() ? kHestonDefaultSteps
                                   : s.instrument == Instrument::American ? kAmericanDefaultDates : 1, 1, kMaxSteps);
  }
  if (s.early_exercise()) {
    if (s.multi_asset() ? s.exercise_dates > kMaxDates : s.steps > kMaxDates) model.error("steps", "an American option is exercisable on at most " + std::to_string(kMaxDates) + " dates");
    s.regression_paths = model.count("regression_paths", kDefaultRegressionPaths, 64, std::uint64_t{1} << 26);
    if (s.regression_paths % 2) model.error("regression_paths", "must be even (paths are drawn in pairs)");
  } else if (model.has("regression_paths")) {
    model.error("regression_paths", "only American and Bermudan options fit an exercise rule");
  }
  if ((s.heston() || s.local() || s.jumping) && !s.hybrid() && !s.multi_asset()) {
    // Heston, local-volatility and jump paths are stepped and watched at the steps.
    const std::string under = "under " + name_of(s.process) + (s.jumping ? " with jumps" : "");
    if (s.instrument != Instrument::European && s.instrument != Instrument::Digital && !s.path_dependent())
      inst.error("type", under + " mcsim prices european, digital, asian, barrier and lookback options");
    if (s.instrument == Instrument::Digital && s.heston())
      inst.error("type", "under heston mcsim prices european, asian, barrier and lookback options");
    if (!s.times.empty() && (s.heston() || s.jumping))
      inst.error("times", under + " fixings are equally spaced; give fixings, not times");
    if (s.continuous)
      inst.error("monitoring", "continuous monitoring needs GBM's Brownian bridge; " + under +
                                   " the steps are watched (monitoring: discrete, with model.steps or fixings as fine "
                                   "as needed)");
  }
  if (s.term_structure() && s.gbm() && s.instrument != Instrument::European && s.instrument != Instrument::Digital &&
      !s.path_dependent() && !s.periodic() && !s.hybrid())
    model.error("market", "market curves, dividends and a volatility term structure serve european, digital, asian, "
                          "barrier and lookback options in this version");
  for (const auto& v : model.choices("variance_reduction", {"antithetic", "control_variate", "sobol"})) {
    if (v == "antithetic") s.antithetic = true;
    if (v == "control_variate") s.control_variate = true;
    if (v == "sobol") s.sobol = true;
  }
  if (s.sobol) {
    // The Brownian bridge builds one GBM path on equal steps.
    if (!s.gbm() || s.multi_asset() || s.early_exercise() || s.instrument == Instrument::Digital || s.periodic())
      model.error("variance_reduction", "sobol drives a single GBM asset's path: european, asian, barrier or lookback");
    else if (!s.times.empty())
      model.error("variance_reduction", "sobol builds paths on equally spaced steps; give fixings, not times");
    else if (s.antithetic)
      model.error("variance_reduction", "sobol and antithetic do not combine (scrambled points are already balanced)");
  }
  if (s.antithetic && s.basket_steps())
    model.error("variance_reduction", "antithetic pairs serve a basket paid at maturity under gbm, not one walked step "
                                      "by step (heston assets, early exercise) in this version");
  if (s.control_variate) {
    // The control must have a known mean and move with the payoff.
    if (!s.gbm() || s.term_structure())
      model.error("variance_reduction", "the controls' means are GBM closed forms: control_variate needs process gbm "
                                        "with flat rates and volatility");
    else if (s.early_exercise())
      model.error("variance_reduction", "control_variate is not available for early exercise in this version");
    else if (s.instrument == Instrument::Basket && s.basket != BasketKind::Average)
      model.error("variance_reduction", "a basket's control is the geometric basket: it serves payoff: average");
    else if (!s.path_dependent() && s.instrument != Instrument::Basket)
      model.error("variance_reduction", "control_variate needs a path-dependent instrument (asian, barrier, lookback) "
                                        "or an average basket; a European is its own closed form");
    else if (s.instrument == Instrument::Asian && (s.average != Average::Arithmetic || s.knock != KnockKind::None))
      model.error("variance_reduction", "an Asian's control is the geometric Asian: it serves an arithmetic average "
                                        "without a barrier");
  }
  check_hybrid(model, inst, s);
  check_cash_dividends(model, s);
  s.greeks = model.choices("greeks", {"delta", "gamma", "vega", "rho", "dividend_rho", "theta", "correlation", "buckets"});
  s.bump_greeks = model.choice("greek_method", {"path", "bump"}, std::string("path")) == "bump";
  for (const auto& g : s.greeks) {
    const bool heston_vega = s.heston() && !s.jumping;  // the initial volatility sqrt(v0)
    if (g == "vega" && !heston_vega && !s.gbm())
      model.error("greeks", "vega is the sensitivity to a GBM volatility (flat, or every node of a term structure) or to Heston's initial one "
                            "(under " + name_of(s.process) + (s.jumping ? " with jumps" : "") +
                                ", bump its inputs with --set and compare; a local volatility's surface: greeks: [buckets])");
    if (g == "correlation" && !s.multi_asset())
      model.error("greeks", "correlation sensitivities are a basket's, one per pair of model.process.assets");
    const bool vol_nodes = s.gbm_diffusion() && !s.vol_term.is_flat();
    if (g == "buckets" && !s.market.has_discount && !s.market.has_dividend_yield && !vol_nodes && !s.market.surface)
      model.error("greeks", "buckets are the sensitivities to each pillar of model.market.discount and dividend_yield, "
                            "each node of a volatility term structure and each quote of a vol_surface: this job has none");
  }
  finish_market(model, s);

  // Errors inside list items (assets) reach the diagnostics without their parent block.
  if (!model.valid() || !process.valid() || !inst.valid() || !model.diagnostics().empty()) return nullptr;
  return std::make_unique<OptionModel>(s);
}


// The keys of an option job's model: block.
// Each key once: its type, default, range or choices and meaning as its reader
// above describes them (a test loads every job the tests do and fails on a key
// read that is missing here or described otherwise).
const std::vector<io::KeySchema>& option_keys() {
  static const std::vector<io::KeySchema> keys{
      {"model.process", "block", "", "",
       "the price process of an option job"},
      {"model.process.type", "one of", "gbm", "gbm, heston, local_vol, cev",
       "geometric Brownian motion, Heston's stochastic volatility, Dupire's local volatility from "
       "model.market.vol_surface, or the constant elasticity of variance"},
      {"model.process.rate", "number", "0", "in [-1, 1]",
       "the continuously compounded risk-free rate, per year"},
      {"model.process.spot", "number", "", "> 0",
       "the underlying's price today"},
      {"model.process.dividend", "number", "0", "in [-1, 1]",
       "the continuous dividend yield, per year"},
      {"model.process.volatility", "number or block", "", "in (0, 5]",
       "the annual volatility of the underlying: one number, or {times, values}, piecewise constant"},
      {"model.process.volatility.times", "list of numbers", "-", "in (0, 100]",
       "the ends of the volatility's intervals in years, increasing; the last value holds beyond"},
      {"model.process.volatility.values", "list of numbers", "-", "in (0, 5]",
       "the volatility on each interval, one per time"},
      {"model.process.sigma", "number", "", "> 0",
       "CEV: the volatility scale sigma in dS = (r - q) S dt + sigma S^beta dW"},
      {"model.process.beta", "number", "", "in (0, 1]",
       "CEV: the elasticity beta (1: GBM)"},
      {"model.process.jumps", "block", "", "",
       "Merton's lognormal jumps of the log spot, on gbm (Merton's model) or heston (Bates's): a Poisson number a "
       "year, each normal; the drift is compensated, so the forward is unchanged"},
      {"model.process.jumps.intensity", "number", "", "in (0, 1000]", "jumps a year"},
      {"model.process.jumps.mean", "number", "", "in [-5, 5]", "the mean of one jump of the log spot"},
      {"model.process.jumps.vol", "number", "", "in [0, 5]", "the standard deviation of one jump of the log spot"},
      {"model.instrument", "block", "", "",
       "the option priced"},
      {"model.instrument.type", "one of", "",
       "european, digital, asian, barrier, lookback, basket, american, bermudan, forward_start, cliquet, autocallable",
       "the payoff family"},
      {"model.instrument.option", "one of", "", "call, put",
       "call or put (a cliquet has none)"},
      {"model.instrument.maturity", "number", "", "in (0, 100]",
       "years to expiry"},
      {"model.instrument.strike", "number", "", "> 0 or any for a spread",
       "the strike price"},
      {"model.steps", "whole number", "1; 100 under heston, local_vol and cev, 50 for an American option, a Bermudan basket's exercise dates", ">= 1, <= 1000000",
       "time steps of a path (path-dependent payoffs, Heston, American exercise dates; a Bermudan basket's, a multiple of its exercise dates)"},
      {"model.regression_paths", "whole number", "65536", ">= 64, <= 67108864",
       "American and Bermudan: paths of the Longstaff-Schwartz fit, apart from the pricing paths"},
      {"model.variance_reduction", "list, each one of", "-", "antithetic, control_variate, sobol",
       "antithetic pairs, the control variate of the payoff family, scrambled Sobol points"},
      {"model.greeks", "list, each one of", "-", "delta, gamma, vega, rho, dividend_rho, theta, correlation, buckets",
       "sensitivities estimated on the same paths (pathwise or bump and revalue); a basket's per asset, "
       "correlation per pair of assets; with market curves rho and dividend_rho shift every zero rate and under a "
       "volatility term structure vega every node; buckets: one per curve pillar (rho_<t>, dividend_rho_<t>), "
       "volatility node (vega_<t>) and surface quote (vega_<expiry>_<strike>)"},
      {"model.greek_method", "one of", "path", "path, bump",
       "path: Greeks scored on each path (pathwise or likelihood ratio) where the path can, else bump and revalue; "
       "bump: bump and revalue on the same random numbers for all"},
      {"model.instrument.exercise_dates", "whole number", "", ">= 1, <= 256",
       "Bermudan: equally spaced exercise dates up to maturity"},
      {"model.instrument.average", "one of", "arithmetic", "arithmetic, geometric",
       "Asian: the kind of average of the fixings"},
      {"model.instrument.fixings", "whole number", "", ">= 1, <= 1000000",
       "Asian: equally spaced fixings over [0, maturity], the last at maturity"},
      {"model.instrument.barrier", "number", "", "> 0",
       "barrier: the barrier level"},
      {"model.instrument.kind", "one of", "", "down-and-out, up-and-out, down-and-in, up-and-in",
       "barrier: which side and whether crossing knocks the option out or in"},
      {"model.instrument.rebate", "number", "0", ">= 0",
       "barrier: paid at maturity when a knock-out option is knocked out (or a knock-in never is)"},
      {"model.instrument.times", "list of numbers", "-", "> 0",
       "Asian: the fixing times in years, increasing (instead of fixings); cliquet: the period ends (instead of resets)"},
      {"model.instrument.monitoring", "one of", "discrete", "continuous, discrete",
       "barrier: checked continuously (Brownian-bridge correction) or at the steps only"},
      {"model.process.assets", "list of blocks", "-", "",
       "several underlyings (basket options): each with name, spot, dividend, and volatility (gbm) or v0, kappa, "
       "theta, xi, rho (heston)"},
      {"model.process.assets[].name", "text", "asset0, asset1, ...", "",
       "the asset's name"},
      {"model.process.assets[].spot", "number", "", "> 0",
       "the asset's price today"},
      {"model.process.assets[].volatility", "number", "", "in (0, 5]",
       "the asset's annual volatility"},
      {"model.process.assets[].v0", "number", "", ">= 0", "Heston: the asset's variance today"},
      {"model.process.assets[].kappa", "number", "", "> 0", "Heston: the speed of mean reversion of its variance"},
      {"model.process.assets[].theta", "number", "", "> 0", "Heston: its long-run variance"},
      {"model.process.assets[].xi", "number", "", "> 0", "Heston: the volatility of its variance"},
      {"model.process.assets[].rho", "number", "", "in [-1, 1]",
       "Heston: the correlation of its price and variance shocks (the variance is correlated with its own spot only)"},
      {"model.process.assets[].dividend", "number", "0", "in [-1, 1]",
       "the asset's continuous dividend yield"},
      {"model.process.correlation", "matrix", "-", "in [-1, 1]",
       "the assets' correlation matrix (positive definite, ones on the diagonal): of their prices' shocks"},
      {"model.instrument.payoff", "one of", "", "average, max, min, exchange, spread",
       "basket: the function of the assets' prices paid against the strike"},
      {"model.instrument.weights", "list of numbers", "-", "> 0",
       "basket: one weight per asset"},
      {"model.instrument.cash", "number", "1", "> 0",
       "digital: the amount paid in the money"},
      {"model.instrument.moneyness", "number", "1", "> 0",
       "forward start: the strike as a fraction of the spot at the start"},
      {"model.instrument.start", "number", "", "> 0",
       "forward start: when the strike is set (years, before the maturity)"},
      {"model.instrument.resets", "whole number", "", ">= 1, <= 10000",
       "cliquet: equally spaced period ends over [0, maturity] (or times: the period ends, the last at maturity)"},
      {"model.instrument.local_floor", "number", "-1 (none)", "in [-1, 1e+06]", "cliquet: the least return a period counts"},
      {"model.instrument.local_cap", "number", "none", "in [-1, 1e+06]", "cliquet: the most return a period counts"},
      {"model.instrument.global_floor", "number", "none", "in [-1, 1e+06]", "cliquet: the least sum of returns paid"},
      {"model.instrument.global_cap", "number", "none", "in [-1, 1e+06]", "cliquet: the most sum of returns paid"},
      {"model.process.v0", "number", "", ">= 0",
       "Heston: the variance today"},
      {"model.process.kappa", "number", "", "> 0",
       "Heston: the speed of mean reversion of the variance"},
      {"model.process.theta", "number", "", "> 0",
       "Heston: the long-run variance"},
      {"model.process.xi", "number", "", "> 0",
       "Heston: the volatility of the variance"},
      {"model.process.rho", "number", "", "in [-1, 1]",
       "Heston: the correlation of the price and variance shocks"},
      {"model.process.scheme", "one of", "qe", "qe, euler",
       "Heston: Andersen's quadratic-exponential scheme or full-truncation Euler"},
      {"model.instrument.strike_type", "one of", "fixed", "fixed, floating",
       "lookback: a fixed strike, or the path's extreme as a floating strike"},
  };
  static const std::vector<io::KeySchema> all = [] {
    std::vector<io::KeySchema> out = keys;
    out.insert(out.end(), market::market_keys().begin(), market::market_keys().end());
    out.insert(out.end(), hybrid_keys().begin(), hybrid_keys().end());
    return out;
  }();
  return all;
}

}  // namespace mcsim::option
