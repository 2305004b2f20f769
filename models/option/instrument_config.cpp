// Reading an option job's model.instrument block, every mistake reported with its
// key and line.
#include "models/option/instrument_config.hpp"

#include <fmt/format.h>

#include "models/option/config_limits.hpp"
#include "models/option/hybrid.hpp"

namespace mcsim::option {

namespace {

std::string number(double x) { return fmt::format("{:g}", x); }

// A basket's payoff, weights and strike.
void parse_basket(io::Block& inst, OptionSpec& s) {
  using io::Range;
  s.basket = inst.choice_of<BasketKind>("payoff", basket_names(), std::nullopt, 1);
  const std::size_t n = s.assets.size();
  const bool pair = s.basket == BasketKind::Exchange || s.basket == BasketKind::Spread;
  if (pair && n != 2) inst.error("payoff", name_of(s.basket) + " needs exactly two assets (got " + std::to_string(n) + ")");
  if (s.basket == BasketKind::Exchange) {
    if (inst.has("strike")) inst.error("strike", "an exchange option has no strike (it pays S1 - S2)");
  } else {
    if (pair) inst.schema_note("strike", "", "any for a spread");
    s.strike = inst.real("strike", std::nullopt, pair ? Range{} : Range::positive());  // a spread's may be <= 0
  }
  if (inst.has("weights")) {
    s.weights = inst.reals("weights", Range::positive());
    if (s.weights.size() != n && inst.valid())
      inst.error("weights", "needs one weight per asset (" + std::to_string(n) + "), got " +
                                std::to_string(s.weights.size()));
  } else {
    // An average basket is the plain mean; the others take each asset once.
    s.weights.assign(n, s.basket == BasketKind::Average ? 1.0 / static_cast<double>(n) : 1.0);
  }
}

// A forward start's moneyness and start, or a cliquet's periods and bounds.
void parse_periodic(io::Block& inst, OptionSpec& s) {
  using io::Range;
  if (s.instrument == Instrument::ForwardStart) {
    s.moneyness = inst.real("moneyness", 1.0, Range::positive());
    s.start = inst.real("start", std::nullopt, Range::positive());
    if (s.maturity > 0 && !(s.start < s.maturity)) inst.error("start", "the strike is set before the maturity");
    s.times = {s.start, s.maturity};  // two exact steps
    return;
  }
  if (inst.has("times")) {
    s.times = inst.reals("times", Range::positive());
    if (inst.has("resets")) inst.error("resets", "give resets or times, not both");
    for (std::size_t i = 1; i < s.times.size(); ++i)
      if (!(s.times[i] > s.times[i - 1])) inst.error("times", "reset times must increase");
    if (s.times.empty() || s.times.back() != s.maturity) inst.error("times", "the last reset time is the maturity");
  } else {
    s.steps = inst.count("resets", std::nullopt, 1, 10000);
  }
  const auto bound = [&](const char* key, double none) {
    inst.schema_note(key, none == -1 ? "-1 (none)" : "none");
    return inst.has(key) ? inst.real(key, std::nullopt, {-1.0, 1e6}) : none;
  };
  s.local_floor = bound("local_floor", -1);
  s.local_cap = bound("local_cap", INFINITY);
  s.global_floor = bound("global_floor", -INFINITY);
  s.global_cap = bound("global_cap", INFINITY);
  if (s.local_floor > s.local_cap) inst.error("local_cap", "below local_floor");
  if (s.global_floor > s.global_cap) inst.error("global_cap", "below global_floor");
}

}  // namespace

void parse_instrument(io::Block& inst, const io::Block& process, OptionSpec& s) {
  using io::Range;
  s.instrument = inst.choice_of<Instrument>("type", instrument_names(), std::nullopt);
  if (s.instrument == Instrument::Basket && !s.multi_asset() && process.valid())
    inst.error("type", "a basket needs several assets: give model.process.assets and correlation");
  const bool basket_family = s.instrument == Instrument::Basket || s.early_exercise();
  if (!basket_family && s.multi_asset())
    inst.error("type", "several assets price a basket (type: basket, or american or bermudan for early exercise)");
  if (s.instrument == Instrument::Autocallable) {
    // no option: parse_autocallable refuses one
  } else if (s.instrument == Instrument::Cliquet) {
    if (inst.has("option")) inst.error("option", "a cliquet pays its bounded returns, neither a call nor a put");
  } else {
    s.call = inst.choice("option", {"call", "put"}, std::nullopt) != "put";
  }
  s.maturity = inst.real("maturity", std::nullopt, kMaturity);
  if (s.instrument == Instrument::Lookback) {
    s.strike_type = inst.choice_of("strike_type", strike_type_names(), std::optional<StrikeType>(StrikeType::Fixed), 1);
    if (s.strike_type == StrikeType::Fixed) s.strike = inst.real("strike", std::nullopt, Range::positive());
    else if (inst.has("strike")) inst.error("strike", "a floating-strike lookback has no strike");
  } else if (s.instrument == Instrument::Basket || (s.multi_asset() && s.early_exercise())) {
    parse_basket(inst, s);
  } else if (s.periodic()) {
    parse_periodic(inst, s);
  } else if (s.instrument == Instrument::Autocallable) {
    parse_autocallable(inst, s);
  } else {
    s.strike = inst.real("strike", std::nullopt, Range::positive());
  }
  if (s.instrument == Instrument::Bermudan) {
    s.steps = inst.count("exercise_dates", std::nullopt, 1, kMaxDates);
  } else if (inst.has("exercise_dates")) {
    inst.error("exercise_dates", "only a Bermudan option has exercise dates (an American is exercisable at every step)");
  }
  if (s.instrument == Instrument::Digital) {
    s.cash = inst.real("cash", 1.0, Range::positive());
  } else if (inst.has("cash")) {
    inst.error("cash", "only a digital option has a cash payout");
  }
  if (s.instrument == Instrument::Asian) {
    s.average = inst.choice_of("average", average_names(), std::optional<Average>(Average::Arithmetic), 1);
    if (inst.has("times")) {
      s.times = inst.reals("times", Range::positive());
      if (inst.has("fixings")) inst.error("fixings", "give fixings or times, not both");
      for (std::size_t i = 0; i < s.times.size(); ++i) {
        if (i && s.times[i] <= s.times[i - 1]) inst.error("times", "fixing times must increase");
        if (s.times[i] > s.maturity) inst.error("times", "a fixing time is after the maturity");
      }
      if (s.times.empty()) inst.error("times", "needs at least one fixing time");
      if (s.times.size() > kMaxSteps) inst.error("times", fmt::format("at most {} fixing times", kMaxSteps));
    } else {
      s.steps = inst.count("fixings", std::nullopt, 1, kMaxSteps);
    }
  }
  // A barrier: the instrument of type barrier (on the European payoff) or an
  // optional knock condition on an Asian.
  const bool barrier_allowed = s.instrument == Instrument::Barrier || s.instrument == Instrument::Asian;
  if (barrier_allowed && (s.instrument == Instrument::Barrier || inst.has("barrier"))) {
    s.barrier = inst.real("barrier", std::nullopt, Range::positive());
    s.knock = inst.choice_of<KnockKind>("kind", knock_names(), std::nullopt, 1);
    s.rebate = inst.real("rebate", 0.0, Range{0, 1e308, false, false});
    const bool down = s.knock == KnockKind::DownOut || s.knock == KnockKind::DownIn;
    if (s.knock != KnockKind::None && s.spot > 0 && (down ? s.spot <= s.barrier : s.spot >= s.barrier))
      inst.error("barrier", "the spot " + number(s.spot) + " is already " + (down ? "at or below" : "at or above") +
                                " the " + (down ? "down" : "up") + " barrier " + number(s.barrier));
  } else {
    for (const char* key : {"barrier", "kind", "rebate"})
      if (inst.has(key)) inst.error(key, "only a barrier or an Asian option has a barrier");
  }
  if (s.instrument == Instrument::Barrier || s.instrument == Instrument::Lookback) {
    s.continuous = inst.choice("monitoring", {"continuous", "discrete"}, std::string("discrete")) == "continuous";
  } else if (inst.has("monitoring") && !(s.instrument == Instrument::Asian && s.knock != KnockKind::None)) {
    inst.error("monitoring", "only barriers and lookbacks are monitored");
  } else if (inst.has("monitoring")) {
    s.continuous = inst.choice("monitoring", {"continuous", "discrete"}, std::string("discrete")) == "continuous";
  }
  inst.finish();
}

}  // namespace mcsim::option
