#include "models/rates/rate_products.hpp"

#include <cmath>
#include <stdexcept>

namespace mcsim::rates {

std::vector<RateEvent> zero_coupon_bond(double maturity) { return {{maturity, {1.0}, {maturity}, 0, 0}}; }

std::vector<RateEvent> coupon_bond(double maturity, double coupon, double period) {
  if (coupon == 0) return zero_coupon_bond(maturity);
  RateEvent e{maturity, {}, {}, 0, 0};
  const auto n = static_cast<int>(std::ceil(maturity / period - 1e-9));  // coupon dates after today
  for (int k = n - 1; k >= 0; --k) {
    e.times.push_back(maturity - k * period);
    e.amounts.push_back(coupon * period + (k == 0 ? 1.0 : 0.0));
  }
  return {e};
}

std::vector<double> schedule(double start, double maturity, double period) {
  std::vector<double> d;
  const auto n = static_cast<int>(std::lround((maturity - start) / period));
  for (int i = 0; i <= n; ++i) d.push_back(i == n ? maturity : start + i * period);
  return d;
}

std::string schedule_error(double start, double maturity, double period) {
  const double periods = (maturity - start) / period;
  return periods >= 1 - 1e-9 && std::fabs(periods - std::round(periods)) < 1e-9
             ? ""
             : "maturity - start must be a whole number (>= 1) of periods";
}

std::vector<RateEvent> cap_events(const std::vector<double>& dates, double strike, bool cap) {
  std::vector<RateEvent> out;
  for (std::size_t i = 1; i < dates.size(); ++i) {
    const double tau = dates[i] - dates[i - 1];
    // tau (L - K)+ paid at the end is (1 - (1 + K tau) P(start, end))+ at the start.
    out.push_back({dates[i - 1], {1 + strike * tau}, {dates[i]}, 1.0, cap ? -1 : 1});
  }
  return out;
}

std::vector<RateEvent> swaption_events(const std::vector<double>& dates, double strike, bool payer) {
  RateEvent e{dates.front(), {}, {}, 1.0, payer ? -1 : 1};
  for (std::size_t i = 1; i < dates.size(); ++i) {
    e.amounts.push_back(strike * (dates[i] - dates[i - 1]) + (i + 1 == dates.size() ? 1.0 : 0.0));
    e.times.push_back(dates[i]);
  }
  return {e};
}

std::vector<RateEvent> bermudan_swaption_events(const std::vector<double>& dates, double strike, bool payer) {
  std::vector<RateEvent> out;
  for (std::size_t k = 0; k + 1 < dates.size(); ++k) {
    const auto e = swaption_events(std::vector<double>(dates.begin() + static_cast<std::ptrdiff_t>(k), dates.end()),
                                   strike, payer);
    out.push_back(e.front());
  }
  return out;
}

RateTables make_rate_tables(const HullWhite& m, const std::vector<RateEvent>& events) {
  std::vector<double> d, c;
  double before = 0;
  for (const RateEvent& e : events) {
    const double dt = e.date - before;
    if (!(dt > 0)) throw std::invalid_argument("rate events must be on increasing dates after today");
    const RateStep r = rate_step(m, dt);
    const double log_fit = m.curve.log_discount(e.date) - 0.5 * m.v(0, e.date);
    d.insert(d.end(), {r.decay, r.sd_x, r.b, r.load1, r.load2, log_fit, static_cast<double>(c.size() / 3),
                       static_cast<double>(e.amounts.size()), e.strike, static_cast<double>(e.sign)});
    for (std::size_t i = 0; i < e.amounts.size(); ++i) {
      const double fit = 0.5 * (m.v(e.date, e.times[i]) - m.v(0, e.times[i]) + m.v(0, e.date));
      const double log_a = m.curve.log_discount(e.times[i]) - m.curve.log_discount(e.date) + fit;
      c.insert(c.end(), {e.amounts[i], log_a, m.b(e.date, e.times[i])});
    }
    before = e.date;
  }
  RateTables t;
  t.dates = TableData(d);
  t.coupons = TableData(c);
  t.count = static_cast<int>(events.size());
  return t;
}

}  // namespace mcsim::rates
