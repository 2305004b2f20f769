#include "models/rates/rate_model.hpp"

#include <cmath>
#include <sstream>

#include "models/market/market.hpp"

namespace mcsim::rates {

namespace {
const std::vector<std::string>& instrument_names() {
  static const std::vector<std::string> n{"zero_coupon_bond", "cap", "floor", "swaption"};
  return n;
}

std::vector<RateEvent> events_of(const RateSpec& s) {
  switch (s.instrument) {
    case RateInstrument::ZeroCouponBond: return zero_coupon_bond(s.maturity);
    case RateInstrument::Cap: return cap_events(s.dates(), s.strike, true);
    case RateInstrument::Floor: return cap_events(s.dates(), s.strike, false);
    case RateInstrument::Swaption: return swaption_events(s.dates(), s.strike, s.payer);
  }
  return {};
}
}  // namespace

std::vector<double> RateSpec::dates() const {
  std::vector<double> d;
  if (instrument == RateInstrument::ZeroCouponBond) return {maturity};
  const auto n = static_cast<int>(std::lround((maturity - start) / period));
  for (int i = 0; i <= n; ++i) d.push_back(i == n ? maturity : start + i * period);
  return d;
}

RateModel::RateModel(RateSpec spec) : spec_(std::move(spec)), tables_(make_rate_tables(spec_.model, events_of(spec_))) {}

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
  }
  return {};
}

PathKernel RateModel::kernel(const KernelSetup& setup) const {
  const bool f = setup.precision == Precision::Float;
  if (spec_.antithetic)
    return f ? PathKernel(make_short_rate_path<float, 2>(tables_)) : PathKernel(make_short_rate_path<double, 2>(tables_));
  return f ? PathKernel(make_short_rate_path<float, 1>(tables_)) : PathKernel(make_short_rate_path<double, 1>(tables_));
}

std::string RateModel::describe() const {
  const RateSpec& s = spec_;
  std::ostringstream o;
  o << instrument_names()[static_cast<std::size_t>(s.instrument)];
  if (s.instrument == RateInstrument::Swaption) o << " " << (s.payer ? "payer" : "receiver");
  if (s.instrument != RateInstrument::ZeroCouponBond)
    o << " K=" << s.strike << " from " << s.start << " every " << s.period;
  o << " to " << s.maturity << ", Hull-White a=" << s.model.a << " sigma=" << s.model.sigma
    << (s.model.curve.is_flat() ? " on a flat rate " + std::to_string(s.model.curve.zero_rate(1)) : " on the discount curve")
    << ", " << tables_.count << " dates" << (s.antithetic ? ", antithetic" : "");
  return o.str();
}

std::unique_ptr<Model> parse_rate_model(io::Block& model) {
  using io::Range;
  RateSpec s;
  const market::Market data = market::parse_market(model);
  if (data.has_dividend_yield || !data.dividends.empty() || data.surface)
    model.error("market", "a rates job reads model.market.discount only");
  io::Block process = model.child("short_rate", true);
  process.choice("model", {"hull_white"}, std::string("hull_white"));
  s.model.a = process.real("a", std::nullopt, Range{0, 10, true, false});
  s.model.sigma = process.real("sigma", std::nullopt, Range{0, 1, true, false});
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
    if (s.instrument == RateInstrument::Swaption)
      s.payer = inst.choice("position", {"payer", "receiver"}, std::nullopt) == "payer";
    const double periods = (s.maturity - s.start) / s.period;
    if (inst.valid() && !(periods >= 1 - 1e-9 && std::fabs(periods - std::round(periods)) < 1e-9))
      inst.error("period", "maturity - start must be a whole number (>= 1) of periods");
  }
  inst.finish();
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
        {"model.product.type", "one of", "", "zero_coupon_bond, cap, floor, swaption", "the product"},
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
