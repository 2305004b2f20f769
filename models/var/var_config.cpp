#include <fmt/format.h>

#include "models/correlation.hpp"
#include "io/schema.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

namespace {

using io::Range;

void parse_factors(io::Block& factors, VarSpec& s) {
  s.student_t = factors.choice("distribution", {"normal", "student_t"}, std::string("normal")) == "student_t";
  if (s.student_t) {
    // Shocks are scaled to unit variance, which needs more than 2 degrees of freedom.
    s.dof = factors.real("dof", std::nullopt, Range{2, 1e6, true, false});
  } else if (factors.has("dof")) {
    factors.error("dof", "degrees of freedom belong to distribution: student_t");
  }
  auto list = factors.children("assets");
  for (std::size_t i = 0; i < list.size(); ++i) {
    io::Block& b = list[i];
    RiskAsset a;
    a.name = b.text("name", std::nullopt);
    a.spot = b.real("spot", std::nullopt, Range::positive());
    a.volatility = b.real("volatility", std::nullopt, Range{0, 5, true, false});  // above 500% a year: absurd
    a.drift = b.real("drift", 0.0, {-1.0, 1.0});
    b.finish();
    for (const RiskAsset& earlier : s.assets)
      if (earlier.name == a.name) b.error("name", "asset '" + a.name + "' is listed twice");
    s.assets.push_back(a);
  }
  const std::size_t n = s.assets.size();
  if (n == 0) {
    factors.error("assets", "needs at least one asset");
    return;
  }
  read_correlation(factors, n, &s.correlation, &s.cholesky);
}

void parse_portfolio(io::Block& model, VarSpec& s) {
  std::vector<std::string> names;
  for (const auto& a : s.assets) names.push_back(a.name);
  auto list = model.children("portfolio");
  if (list.empty() && model.valid()) model.error("portfolio", "needs at least one position");
  for (io::Block& b : list) {
    Position p;
    b.schema_note("name", "p0, p1, ...");
    p.name = b.text("name", "p" + std::to_string(s.portfolio.size()));
    for (const Position& earlier : s.portfolio)
      if (earlier.name == p.name) b.error("name", "position '" + p.name + "' is named twice");
    const std::string type = b.choice("type", {"stock", "forward", "option"}, std::nullopt);
    const std::string asset = b.text("asset", std::nullopt);
    p.quantity = b.real("quantity", std::nullopt);
    p.asset = -1;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == asset) p.asset = static_cast<int>(i);
    if (p.asset < 0 && !names.empty() && !asset.empty()) {
      const std::string hint = io::did_you_mean(asset, names);
      b.error("asset", "no risk factor named '" + asset + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (type == "stock") {
      p.instrument = Instrument::Stock;
    } else if (!type.empty()) {
      if (type == "option")
        p.instrument = b.choice("option", {"call", "put"}, std::nullopt) == "call" ? Instrument::Call : Instrument::Put;
      else
        p.instrument = Instrument::Forward;
      p.strike = b.real("strike", std::nullopt, type == "option" ? Range::positive() : Range{});
      p.maturity = b.real("maturity", std::nullopt, Range::positive());
      // Revalued at the horizon on its remaining life, which must not have ended.
      if (b.valid() && p.maturity <= s.horizon())
        b.error("maturity", fmt::format("{} years ends before the horizon of {} days ({:.6g} years)", p.maturity,
                                        s.horizon_days, s.horizon()));
    }
    b.finish();
    s.portfolio.push_back(p);
  }
}

}  // namespace

bool parse_var_spec(io::Block& model, VarSpec& s) {
  s.horizon_days = model.count("horizon_days", std::nullopt, 1, 10000);
  s.confidence = model.has("confidence") ? model.reals("confidence", Range{0, 1, true, true})
                                         : std::vector<double>{0.95, 0.99};
  if (s.confidence.empty()) model.error("confidence", "needs at least one level");
  if (s.confidence.size() > kMaxLevels)
    model.error("confidence", "at most " + std::to_string(kMaxLevels) + " levels");
  io::Block factors = model.child("factors", true);
  parse_factors(factors, s);
  factors.finish();
  s.rate = model.real("rate", 0.0, {-1.0, 1.0});
  parse_portfolio(model, s);
  return model.valid() && factors.valid() && model.diagnostics().empty();
}


// The keys of a portfolio-risk job's model: block.
// Each key once: its type, default, range or choices and meaning as its reader
// above describes them (a test loads every job the tests do and fails on a key
// read that is missing here or described otherwise).
const std::vector<io::KeySchema>& var_keys() {
  static const std::vector<io::KeySchema> keys{
      {"model.horizon_days", "whole number", "", ">= 1, <= 10000",
       "risk: the horizon in trading days (252 a year)"},
      {"model.confidence", "list of numbers", "-", "in (0, 1)",
       "risk: the VaR and ES levels, e.g. [0.95, 0.99]"},
      {"model.factors", "block", "", "",
       "risk: the risk factors (asset prices) and their joint shocks"},
      {"model.factors.distribution", "one of", "normal", "normal, student_t",
       "risk: normal or Student-t shocks (with dof)"},
      {"model.factors.assets", "list of blocks", "-", "",
       "risk: the assets; each with name, spot, volatility, drift"},
      {"model.factors.assets[].name", "text", "", "",
       "risk: the asset's name, which positions refer to"},
      {"model.factors.assets[].spot", "number", "", "> 0",
       "risk: the asset's price today"},
      {"model.factors.assets[].volatility", "number", "", "in (0, 5]",
       "risk: the asset's annual volatility"},
      {"model.factors.assets[].drift", "number", "0", "in [-1, 1]",
       "risk: the asset's annual drift over the horizon"},
      {"model.factors.correlation", "number or matrix", "(depends on other keys)", "in [-1, 1]",
       "risk: the assets' correlation matrix, or one number for every pair"},
      {"model.rate", "number", "0", "in [-1, 1]",
       "risk: the risk-free rate that values the options"},
      {"model.portfolio", "list of blocks", "-", "",
       "risk: the positions; each a stock, forward or option on one asset"},
      {"model.portfolio[].name", "text", "p0, p1, ...", "",
       "risk: the position's name in the contributions"},
      {"model.portfolio[].type", "one of", "", "stock, forward, option",
       "risk: the kind of position"},
      {"model.portfolio[].asset", "text", "", "",
       "risk: the asset the position is on"},
      {"model.portfolio[].quantity", "number", "", "",
       "risk: units held (negative: short)"},
      {"model.portfolio[].option", "one of", "", "call, put",
       "risk: call or put (option positions)"},
      {"model.portfolio[].strike", "number", "", "> 0",
       "risk: the strike (forward and option positions)"},
      {"model.portfolio[].maturity", "number", "", "> 0",
       "risk: years to maturity today (forward and option positions)"},
      {"model.factors.dof", "number", "", "in (2, 1e+06]",
       "risk: the Student-t degrees of freedom"},
  };
  return keys;
}

}  // namespace mcsim::var
