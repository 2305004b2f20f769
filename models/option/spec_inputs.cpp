#include "models/option/spec_inputs.hpp"

#include <algorithm>

namespace mcsim::option {

BsmInput bsm_input(const OptionSpec& s) {
  return {s.spot, s.strike, s.rate, s.dividend, s.volatility, s.maturity, s.call};
}

std::vector<double> fixing_times(const OptionSpec& s) {
  if (!s.times.empty()) return s.times;
  std::vector<double> t;
  for (std::uint64_t i = 1; i <= s.steps; ++i) t.push_back(s.maturity * static_cast<double>(i) / s.steps);
  return t;
}

// The fixings and the ex-dates of cash dividends paid by maturity, in time order;
// a dividend on a fixing date is paid at that step, before the fixing is taken.
std::vector<CashStep> cash_steps(const OptionSpec& s) {
  std::vector<CashStep> out;
  for (double t : fixing_times(s)) out.push_back({t, 0, true});
  for (const market::Dividend& d : s.market.dividends) {
    if (!(d.cash > 0) || d.time > s.maturity) continue;
    const auto at = std::lower_bound(out.begin(), out.end(), d.time,
                                     [](const CashStep& a, double t) { return a.time < t; });
    if (at != out.end() && at->time == d.time) at->cash += d.cash;
    else out.insert(at, {d.time, d.cash, false});
  }
  return out;
}

BasketInput basket_input(const OptionSpec& s) {
  BasketInput in{{}, {}, {}, s.correlation, s.weights, s.rate, s.maturity};
  for (const Asset& a : s.assets) {
    in.spots.push_back(a.spot);
    in.vols.push_back(a.volatility);
    in.dividends.push_back(a.dividend);
  }
  return in;
}

}  // namespace mcsim::option
