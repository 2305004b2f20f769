#include "models/rates/rate_model.hpp"

#include <cmath>
#include <sstream>

#include "models/market/market.hpp"
#include "models/rates/bermudan.hpp"

namespace mcsim::rates {

namespace {
constexpr std::uint64_t kRegressionPaths = 65536;

const std::vector<std::string>& instrument_names() {
  static const std::vector<std::string> n{"zero_coupon_bond", "cap", "floor", "swaption", "bermudan_swaption"};
  return n;
}

std::vector<RateEvent> events_of(const RateSpec& s) {
  switch (s.instrument) {
    case RateInstrument::ZeroCouponBond: return zero_coupon_bond(s.maturity);
    case RateInstrument::Cap: return cap_events(s.dates(), s.strike, true);
    case RateInstrument::Floor: return cap_events(s.dates(), s.strike, false);
    case RateInstrument::Swaption: return swaption_events(s.dates(), s.strike, s.payer);
    case RateInstrument::BermudanSwaption: return bermudan_swaption_events(s.dates(), s.strike, s.payer);
  }
  return {};
}

// Longstaff-Schwartz's rule falls short of the optimal exercise by a small part of
// the price (as for equity Bermudans); the grid's reference carries this tolerance.
constexpr double kLsmTolerance = 0.005;

RateTables tables_of(const RateSpec& s) {
  RateTables t = make_rate_tables(s.model, events_of(s));
  t.exercise = s.instrument == RateInstrument::BermudanSwaption;
  return t;
}
}  // namespace

std::vector<double> RateSpec::dates() const {
  if (instrument == RateInstrument::ZeroCouponBond) return {maturity};
  return schedule(start, maturity, period);
}

RateModel::RateModel(RateSpec spec) : spec_(std::move(spec)), tables_(tables_of(spec_)) {}

std::vector<std::string> RateModel::outputs() const {
  if (spec_.antithetic) return {"price", "price_single"};
  return {"price"};
}

std::vector<Reference> RateModel::references() const {
  const auto& m = spec_.model;
  switch (spec_.instrument) {
    case RateInstrument::ZeroCouponBond: return {{"price", m.curve.discount(spec_.maturity)}};
    case RateInstrument::Cap: return {{"price", cap_price(m, spec_.dates(), spec_.strike, true)}};
    case RateInstrument::Floor: return {{"price", cap_price(m, spec_.dates(), spec_.strike, false)}};
    case RateInstrument::Swaption: return {{"price", swaption_price(m, spec_.dates(), spec_.strike, spec_.payer)}};
    case RateInstrument::BermudanSwaption: {
      // The grid's own error, about (at most): the gap to a grid of half the nodes.
      const double fine = bermudan_swaption_price(m, spec_.dates(), spec_.strike, spec_.payer);
      const double coarse = bermudan_swaption_price(m, spec_.dates(), spec_.strike, spec_.payer, 401);
      return {{"price", fine, kLsmTolerance * fine + std::fabs(fine - coarse)}};
    }
  }
  return {};
}

PathKernel RateModel::kernel(const KernelSetup& setup) const {
  const bool f = setup.precision == Precision::Float;
  // A Bermudan's rule, fitted once per seed; the kernel keeps a view, so the model keeps the table.
  static const TableData kNone;
  const auto fit = [&] { return fit_bermudan_rule(tables_, spec_.regression_paths, setup.seed); };
  const TableData& r = !tables_.exercise ? kNone : rules_.count(setup.seed) ? rules_[setup.seed] : rules_[setup.seed] = fit();
  if (spec_.antithetic)
    return f ? PathKernel(make_short_rate_path<float, 2>(tables_, r)) : PathKernel(make_short_rate_path<double, 2>(tables_, r));
  return f ? PathKernel(make_short_rate_path<float, 1>(tables_, r)) : PathKernel(make_short_rate_path<double, 1>(tables_, r));
}

std::string RateModel::describe() const {
  const RateSpec& s = spec_;
  std::ostringstream o;
  o << instrument_names()[static_cast<std::size_t>(s.instrument)];
  if (s.instrument == RateInstrument::Swaption || s.instrument == RateInstrument::BermudanSwaption)
    o << " " << (s.payer ? "payer" : "receiver");
  if (s.instrument != RateInstrument::ZeroCouponBond)
    o << " K=" << s.strike << " from " << s.start << " every " << s.period;
  o << " to " << s.maturity << ", Hull-White a=" << s.model.a << " sigma=" << s.model.sigma
    << (s.model.curve.is_flat() ? " on a flat rate " + std::to_string(s.model.curve.zero_rate(1)) : " on the discount curve")
    << ", " << tables_.count << (tables_.exercise ? " exercise dates, Longstaff-Schwartz rule fitted on " +
                                                        std::to_string(s.regression_paths) + " separate paths"
                                                  : " dates")
    << (s.antithetic ? ", antithetic" : "");
  return o.str();
}

HullWhite read_hull_white(io::Block& short_rate) {
  short_rate.choice("model", {"hull_white"}, std::string("hull_white"));
  const double a = short_rate.real("a", std::nullopt, io::Range{0, 10, true, false});
  return {a, short_rate.real("sigma", std::nullopt, io::Range{0, 1, true, false}), market::Curve::flat(0)};
}

std::unique_ptr<Model> parse_rate_model(io::Block& model) {
  using io::Range;
  RateSpec s;
  const market::Market data = market::parse_market(model);
  if (data.has_dividend_yield || !data.dividends.empty() || data.surface)
    model.error("market", "a rates job reads model.market.discount only");
  io::Block process = model.child("short_rate", true);
  s.model = read_hull_white(process);
  if (data.has_discount && process.has("rate"))
    process.error("rate", "the rate comes from model.market.discount: give one or the other");
  s.model.curve = data.has_discount ? data.discount : market::Curve::flat(process.real("rate", 0.0, {-1.0, 1.0}));
  process.finish();

  io::Block inst = model.child("product", true);
  s.instrument = inst.choice_of<RateInstrument>("type", instrument_names(), std::nullopt);
  s.maturity = inst.real("maturity", std::nullopt, Range{0, 100, true, false});
  if (s.instrument != RateInstrument::ZeroCouponBond) {
    s.strike = inst.real("strike", std::nullopt, Range{-1, 1});
    s.start = inst.real("start", std::nullopt, Range{0, 100, true, false});
    s.period = inst.real("period", std::nullopt, Range{0, 100, true, false});
    if (s.instrument == RateInstrument::Swaption || s.instrument == RateInstrument::BermudanSwaption)
      s.payer = inst.choice("position", {"payer", "receiver"}, std::nullopt) == "payer";
    if (inst.valid())
      if (const std::string e = schedule_error(s.start, s.maturity, s.period); !e.empty()) inst.error("period", e);
  }
  inst.finish();
  if (s.instrument == RateInstrument::BermudanSwaption)
    s.regression_paths = model.count("regression_paths", kRegressionPaths, 64, std::uint64_t{1} << 26);
  else if (model.has("regression_paths"))
    model.error("regression_paths", "only a Bermudan swaption fits an exercise rule");
  for (const auto& v : model.choices("variance_reduction", {"antithetic", "control_variate", "sobol"})) {
    if (v == "antithetic") s.antithetic = true;
    else model.error("variance_reduction", v + " serves option jobs; a rates job takes antithetic pairs");
  }
  if (!model.diagnostics().empty()) return nullptr;
  return std::make_unique<RateModel>(s);
}

const std::vector<io::KeySchema>& rate_keys() {
  static const std::vector<io::KeySchema> keys = [] {
    std::vector<io::KeySchema> k{
        {"model.short_rate", "block", "", "", "rates: the short-rate model, fitted to model.market.discount"},
        {"model.short_rate.model", "one of", "hull_white", "hull_white", "Hull-White one-factor"},
        {"model.short_rate.a", "number", "", "in (0, 10]", "the mean reversion of the short rate"},
        {"model.short_rate.sigma", "number", "", "in (0, 1]", "the volatility of the short rate"},
        {"model.short_rate.rate", "number", "0", "in [-1, 1]", "a flat zero rate, without a discount curve"},
        {"model.product", "block", "", "", "rates: the product, per unit notional"},
        {"model.product.type", "one of", "", "zero_coupon_bond, cap, floor, swaption, bermudan_swaption",
         "the product (a Bermudan swaption: exercisable at start and each fixed date but the last, into the swap left)"},
        {"model.regression_paths", "whole number", std::to_string(kRegressionPaths), ">= 64, <= 67108864",
         "a Bermudan swaption's: paths of Longstaff-Schwartz's fit, separate from pricing"},
        {"model.product.maturity", "number", "", "in (0, 100]", "the last payment (years)"},
        {"model.product.strike", "number", "", "in [-1, 1]", "the cap or floor rate, or the swap's fixed rate"},
        {"model.product.start", "number", "", "in (0, 100]", "the first period's start (a swaption's expiry)"},
        {"model.product.period", "number", "", "in (0, 100]", "the accrual period in years"},
        {"model.product.position", "one of", "", "payer, receiver", "a swaption's: pay or receive the fixed rate"},
    };
    return k;
  }();
  return keys;
}

}  // namespace mcsim::rates
