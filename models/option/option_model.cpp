#include "models/option/option_model.hpp"

#include <cmath>
#include <sstream>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {

BsmInput bsm_input(const OptionSpec& s) {
  return {s.spot, s.strike, s.rate, s.dividend, s.volatility, s.maturity, s.call};
}

template <class Real>
EuropeanPath<Real> make_path(const OptionSpec& s) {
  EuropeanPath<Real> k{};
  k.log_drift = static_cast<Real>(std::log(s.spot) +
                                  (s.rate - s.dividend - 0.5 * s.volatility * s.volatility) * s.maturity);
  k.vol_sqrt_t = static_cast<Real>(s.volatility * std::sqrt(s.maturity));
  k.strike = static_cast<Real>(s.strike);
  k.discount = static_cast<Real>(std::exp(-s.rate * s.maturity));
  k.cash = static_cast<Real>(s.cash);
  k.sign = s.call ? Real(1) : Real(-1);
  k.digital = s.instrument == "digital";
  k.antithetic = s.antithetic;
  return k;
}

}  // namespace

std::vector<Reference> OptionModel::references() const {
  const BsmInput in = bsm_input(spec_);
  if (spec_.instrument == "digital") return {{"price", digital_price(in, spec_.cash)}};
  return {{"price", bsm_price(in)}};
}

PathKernel OptionModel::kernel(Precision precision) const {
  if (precision == Precision::Float) return make_path<float>(spec_);
  return make_path<double>(spec_);
}

std::string OptionModel::describe() const {
  std::ostringstream s;
  s << spec_.instrument << " " << (spec_.call ? "call" : "put") << ", GBM S0=" << spec_.spot
    << " K=" << spec_.strike << " T=" << spec_.maturity << " sigma=" << spec_.volatility
    << " r=" << spec_.rate << " q=" << spec_.dividend
    << (spec_.instrument == "digital" ? " cash=" + std::to_string(spec_.cash) : "")
    << (spec_.antithetic ? ", antithetic" : "");
  return s.str();
}

std::unique_ptr<Model> parse_option_model(io::Block& model) {
  OptionSpec s;
  using io::Range;

  io::Block process = model.child("process", true);
  process.choice("type", {"gbm"}, std::string("gbm"));
  s.spot = process.real("spot", std::nullopt, Range::positive());
  s.rate = process.real("rate", 0.0, {-1.0, 1.0});
  s.dividend = process.real("dividend", 0.0, {-1.0, 1.0});
  s.volatility = process.real("volatility", std::nullopt, Range::positive());
  process.finish();

  io::Block inst = model.child("instrument", true);
  s.instrument = inst.choice("type", {"european", "digital"}, std::nullopt);
  s.call = inst.choice("option", {"call", "put"}, std::nullopt) != "put";
  s.strike = inst.real("strike", std::nullopt, Range::positive());
  s.maturity = inst.real("maturity", std::nullopt, Range::positive());
  if (s.instrument == "digital") {
    s.cash = inst.real("cash", 1.0, Range::positive());
  } else if (inst.has("cash")) {
    inst.error("cash", "only a digital option has a cash payout");
  }
  inst.finish();

  s.steps = model.count("steps", 1, 1);
  for (const auto& v : model.choices("variance_reduction", {"antithetic", "control_variate"})) {
    if (v == "antithetic") s.antithetic = true;
    if (v == "control_variate")
      model.error("variance_reduction", "control_variate is not available in this version (use antithetic)");
  }
  model.not_available("greeks", "Monte Carlo Greeks");
  model.not_available("assets", "a multi-asset process");
  model.not_available("correlation", "a multi-asset process");

  if (!model.valid() || !process.valid() || !inst.valid()) return nullptr;
  return std::make_unique<OptionModel>(s);
}

}  // namespace mcsim::option
