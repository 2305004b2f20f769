// Config of the hybrid stock-and-rate process and of autocallables.
#include <cmath>
#include <string>

#include "models/option/hybrid.hpp"

namespace mcsim::option {

void parse_short_rate(io::Block& process, OptionSpec& s) {
  io::Block r = process.child("short_rate", true);
  s.hull_white = true;
  s.hw_a = r.real("a", std::nullopt, io::Range{0, 10, true, false});
  s.hw_sigma = r.real("sigma", std::nullopt, io::Range{0, 1, true, false});
  s.hw_correlation = r.real("correlation", 0.0, {-1.0, 1.0});
  r.finish();
  if (s.multi_asset() || s.jumping || !(s.gbm_diffusion() || s.heston()))
    process.error("short_rate", "a Hull-White rate joins a single gbm or heston stock without jumps, not " +
                                    std::string(s.multi_asset() ? "model.process.assets" : s.jumping ? "jumps" : name_of(s.process)));
  else if (s.heston() && s.hw_correlation * s.hw_correlation + s.rho * s.rho >= 1)
    r.error("correlation", "with heston's rho the correlations are not a valid matrix: correlation^2 + rho^2 must be below 1");
}

void parse_autocallable(io::Block& inst, OptionSpec& s) {
  using io::Range;
  if (inst.has("times")) {
    s.times = inst.reals("times", Range::positive());
    if (inst.has("observations")) inst.error("observations", "give observations or times, not both");
    for (std::size_t i = 1; i < s.times.size(); ++i)
      if (!(s.times[i] > s.times[i - 1])) inst.error("times", "observation times must increase");
    if (s.times.empty() || s.times.back() != s.maturity) inst.error("times", "the last observation is at the maturity");
  } else {
    const std::uint64_t n = inst.count("observations", std::nullopt, 1, 1000);
    for (std::uint64_t i = 1; i <= n; ++i) s.times.push_back(s.maturity * static_cast<double>(i) / static_cast<double>(n));
  }
  s.initial_spot = inst.real("initial_spot", std::nullopt, Range::positive());
  s.coupon = inst.real("coupon", std::nullopt, Range{0, 10, false, false});
  s.autocall_barrier = inst.real("autocall_barrier", 1.0, Range::positive());
  inst.schema_note("coupon_barrier", "autocall_barrier");
  s.coupon_barrier = inst.real("coupon_barrier", s.autocall_barrier, Range::positive());
  s.knock_in = inst.real("knock_in", 0.0, Range{0, 10, false, false});
  s.memory = inst.choice("memory", {"true", "false"}, std::string("false")) == "true";
  for (const char* key : {"option", "strike"})
    if (inst.has(key)) inst.error(key, "an autocallable pays its coupons and redemption, it has no " + std::string(key));
}

void check_hybrid(io::Block& model, io::Block& inst, const OptionSpec& s) {
  if (!s.hybrid()) return;
  if (s.instrument != Instrument::European && s.instrument != Instrument::Autocallable)
    inst.error("type", "with process.short_rate mcsim prices european options and autocallables");
  else if (s.instrument == Instrument::Autocallable && (s.multi_asset() || s.jumping || !(s.gbm_diffusion() || s.heston())))
    inst.error("type", "an autocallable is priced on a single gbm or heston stock without jumps");
  if (s.control_variate || s.sobol)
    model.error("variance_reduction", "a stock with a short rate or an autocallable takes antithetic pairs only");
}

const std::vector<io::KeySchema>& hybrid_keys() {
  static const std::vector<io::KeySchema> keys{
      {"model.process.short_rate", "block", "", "",
       "a Hull-White short rate beside the stock, fitted to the discount curve (gbm: Black-Scholes-Hull-White, "
       "heston: Heston-Hull-White)"},
      {"model.process.short_rate.a", "number", "", "in (0, 10]", "the rate's mean reversion"},
      {"model.process.short_rate.sigma", "number", "", "in (0, 1]", "the rate's volatility"},
      {"model.process.short_rate.correlation", "number", "0", "in [-1, 1]",
       "the correlation of the stock's and the rate's shocks"},
      {"model.instrument.observations", "whole number", "", ">= 1, <= 1000",
       "autocallable: equally spaced observations over [0, maturity] (or times: the observations, the last at maturity)"},
      {"model.instrument.initial_spot", "number", "", "> 0",
       "autocallable: the spot at the trade's initial fixing, of which the barriers are fractions (today's spot for a "
       "new trade; a spot bump for delta leaves it)"},
      {"model.instrument.coupon", "number", "", "in [0, 10]", "autocallable: the coupon per observation, per unit notional"},
      {"model.instrument.autocall_barrier", "number", "1", "> 0",
       "autocallable: the fraction of initial_spot at or above which an observation before maturity redeems it"},
      {"model.instrument.coupon_barrier", "number", "autocall_barrier", "> 0",
       "autocallable: the fraction of initial_spot at or above which an observation pays the coupon"},
      {"model.instrument.knock_in", "number", "0", "in [0, 10]",
       "autocallable: below this fraction of initial_spot at maturity the redemption is S_T / initial_spot (a put "
       "struck there); 0: none"},
      {"model.instrument.memory", "one of", "false", "true, false",
       "autocallable: a paid coupon also pays the ones missed before it"},
  };
  return keys;
}

}  // namespace mcsim::option
