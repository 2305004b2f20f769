// Rate products as dated events on a Hull-White path (short_rate_path.hpp), and
// the tables that path reads: zero-coupon bonds, caps and floors, European
// swaptions.
#pragma once
#include <string>
#include <vector>

#include "models/kernel_table.hpp"
#include "models/rates/hull_white.hpp"
#include "models/rates/short_rate_path.hpp"

namespace mcsim::rates {

// At a date: a bond of coupons (amount, payment time after the date), or a call
// (sign +1) or put (-1) on it struck at `strike`; sign 0 pays the bond itself.
struct RateEvent {
  double date;
  std::vector<double> amounts, times;
  double strike = 0;
  int sign = 0;
};
std::vector<RateEvent> zero_coupon_bond(double maturity);
// A bullet bond paying coupon * period every `period` years back from maturity
// (dates after today) and the notional 1 at maturity; coupon 0: the zero-coupon bond.
std::vector<RateEvent> coupon_bond(double maturity, double coupon, double period);

// Period dates start, start + period, ..., maturity, and the error of a schedule
// whose maturity - start is no whole number (>= 1) of periods ("" when it is).
std::vector<double> schedule(double start, double maturity, double period);
std::string schedule_error(double start, double maturity, double period);
// Caplets (floorlets) on the periods between consecutive `dates`, each a put (call)
// on its period's bond, at the period's start.
std::vector<RateEvent> cap_events(const std::vector<double>& dates, double strike, bool cap);
// A swaption exercised at dates.front() into the swap paying (payer) or receiving
// `strike` on the fixed dates dates[1..n].
std::vector<RateEvent> swaption_events(const std::vector<double>& dates, double strike, bool payer);
// A Bermudan swaption: at each of dates[0..n-1], the swaption into the swap on the
// fixed dates left (co-terminal); the path exercises at most once (ShortRatePath::exercise).
std::vector<RateEvent> bermudan_swaption_events(const std::vector<double>& dates, double strike, bool payer);

// The path's tables: one step per event date (the dates increasing).
struct RateTables {
  TableData dates, coupons;
  int count = 0;
  bool exercise = false;  // Bermudan: the rule's table comes with the pricing seed (bermudan.hpp)
};
RateTables make_rate_tables(const HullWhite& m, const std::vector<RateEvent>& events);

// `rule`: a Bermudan's exercise rule (fit_bermudan_rule), else empty.
template <class Real, int Copies>
ShortRatePath<Real, Copies> make_short_rate_path(const RateTables& t, const TableData& rule = {}) {
  return {t.count, t.dates.view<Real>(), t.coupons.view<Real>(), t.exercise, rule.view<Real>()};
}

}  // namespace mcsim::rates
