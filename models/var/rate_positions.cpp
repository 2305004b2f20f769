#include "models/var/rate_positions.hpp"

#include <cmath>
#include <stdexcept>

#include "models/var/rate_legs.hpp"

namespace mcsim::var {

std::vector<rates::RateEvent> rate_events(const Position& p) {
  switch (p.instrument) {
    case Instrument::Bond: return rates::coupon_bond(p.maturity, p.coupon, p.period);
    case Instrument::Cap:
    case Instrument::Floor:
      return rates::cap_events(rates::schedule(p.start, p.maturity, p.period), p.strike, p.instrument == Instrument::Cap);
    case Instrument::PayerSwaption:
    case Instrument::ReceiverSwaption:
      return rates::swaption_events(rates::schedule(p.start, p.maturity, p.period), p.strike,
                                    p.instrument == Instrument::PayerSwaption);
    default: throw std::invalid_argument("rate_events: not a rate position");
  }
}

std::vector<double> rate_legs(const rates::HullWhite& m, const Position& p, double elapsed) {
  const auto log_bond = [&](double t) { return std::log(m.bond(elapsed, t, 0)); };
  std::vector<double> legs;
  for (const rates::RateEvent& e : rate_events(p)) {
    if (e.sign == 0) {
      for (std::size_t i = 0; i < e.amounts.size(); ++i) {
        const bool paid = e.times[i] <= elapsed;  // cash by the horizon
        legs.insert(legs.end(), {e.amounts[i], paid ? 0.0 : log_bond(e.times[i]), paid ? 0.0 : m.b(elapsed, e.times[i]),
                                 0.0, 0.0, 0.0, 0.0});
      }
      continue;
    }
    if (!(e.date > elapsed)) throw std::invalid_argument("rate_legs: an option expires by the valuation date");
    // Jamshidian: the option on the coupon bond is options on each of its bonds,
    // struck at their values where the coupon bond is worth the strike.
    const double x_star = rates::par_state(m, e.date, e.amounts, e.times, e.strike);
    const double log_expiry = log_bond(e.date), b_expiry = m.b(elapsed, e.date);
    for (std::size_t i = 0; i < e.amounts.size(); ++i) {
      const double t = e.times[i];
      legs.insert(legs.end(), {e.amounts[i], log_bond(t), m.b(elapsed, t), std::log(m.bond(e.date, t, x_star)) + log_expiry,
                               b_expiry, m.bond_option_sd(e.date, t, elapsed), static_cast<double>(e.sign)});
    }
  }
  return legs;
}

double legs_value(const std::vector<double>& legs, double x) {
  return legs_value(legs.data(), static_cast<int>(legs.size() / kLegTerms), x);
}

double rate_value(const rates::HullWhite& m, const Position& p, double elapsed, double x) {
  return p.quantity * legs_value(rate_legs(m, p, elapsed), x);
}

const rates::HullWhite& short_rate_of(const VarSpec& s, const Position& p) {
  const RiskAsset& a = s.assets.at(static_cast<std::size_t>(p.asset));
  if (!a.short_rate) throw std::invalid_argument("short_rate_of: " + a.name + " is no short-rate factor");
  return *a.short_rate;
}

}  // namespace mcsim::var
