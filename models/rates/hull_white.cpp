// Hull-White closed forms (Brigo and Mercurio, Interest Rate Models, ch. 3.3).
#include "models/rates/hull_white.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/option/bsm.hpp"

namespace mcsim::rates {

double HullWhite::b(double t, double t_end) const { return -std::expm1(-a * (t_end - t)) / a; }

double HullWhite::v(double t, double t_end) const {
  const double tau = t_end - t, e = std::exp(-a * tau);
  return sigma * sigma / (a * a) * (tau + 2 / a * e - 0.5 / a * e * e - 1.5 / a);
}

RateStep rate_step(const HullWhite& m, double dt) {
  const double a = m.a, s2 = m.sigma * m.sigma;
  const double decay = std::exp(-a * dt), b = m.b(0, dt), b2 = -std::expm1(-2 * a * dt) / (2 * a);
  // x's move, I's move given x at the start, and their covariance (exact OU).
  const double var_x = s2 * b2, var_i = s2 / (a * a) * (dt - 2 * b + b2);
  const double cov = s2 / (2 * a * a) * (1 - decay) * (1 - decay);
  const double sd_x = std::sqrt(var_x), load1 = sd_x > 0 ? cov / sd_x : 0.0;
  return {decay, sd_x, b, load1, std::sqrt(std::max(0.0, var_i - load1 * load1))};
}

double HullWhite::bond(double t, double t_end, double x) const {
  const double fit = 0.5 * (v(t, t_end) - v(0, t_end) + v(0, t));
  return std::exp(curve.log_discount(t_end) - curve.log_discount(t) + fit - b(t, t_end) * x);
}

double HullWhite::bond_option_sd(double expiry, double maturity, double from) const {
  return sigma * b(expiry, maturity) * std::sqrt(-std::expm1(-2 * a * (expiry - from)) / (2 * a));
}

double HullWhite::bond_option(double expiry, double maturity, double strike, bool call) const {
  const double ps = curve.discount(maturity), pt = curve.discount(expiry);
  const double sd = bond_option_sd(expiry, maturity);
  if (!(sd > 0)) {
    const double paid = (call ? 1 : -1) * (ps - strike * pt);
    return paid > 0 ? paid : 0;
  }
  // Black's formula on the bond's forward P(0,S)/P(0,T), paid in T-bonds.
  return option::bsm_core(ps, strike * pt, std::log(ps / (strike * pt)), sd, call ? 1.0 : -1.0);
}

double caplet_price(const HullWhite& m, double start, double end, double strike, bool cap) {
  const double tau = end - start, k = 1 / (1 + strike * tau);
  // (1 + K tau) times an option on P(start, end) struck at 1 / (1 + K tau).
  return (1 + strike * tau) * m.bond_option(start, end, k, !cap);
}

double cap_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool cap) {
  double sum = 0;
  for (std::size_t i = 1; i < dates.size(); ++i) sum += caplet_price(m, dates[i - 1], dates[i], strike, cap);
  return sum;
}

double par_state(const HullWhite& m, double date, const std::vector<double>& amounts, const std::vector<double>& times,
                 double level) {
  const auto sum = [&](double x) {
    double s = 0;
    for (std::size_t i = 0; i < amounts.size(); ++i) s += amounts[i] * m.bond(date, times[i], x);
    return s;
  };
  double lo = -1, hi = 1;
  while (sum(lo) < level) lo *= 2;
  while (sum(hi) > level) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * (1 + std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (sum(mid) > level ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double swaption_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool payer) {
  if (dates.size() < 2) throw std::invalid_argument("a swaption needs an expiry and one payment date");
  const double expiry = dates.front();
  std::vector<double> coupon;
  for (std::size_t i = 1; i < dates.size(); ++i) coupon.push_back(strike * (dates[i] - dates[i - 1]));
  coupon.back() += 1;
  const double x_star = par_state(m, expiry, coupon, std::vector<double>(dates.begin() + 1, dates.end()), 1.0);
  // A payer swaption is a put on the coupon bond: a sum of puts on its bonds.
  double price = 0;
  for (std::size_t i = 1; i < dates.size(); ++i)
    price += coupon[i - 1] * m.bond_option(expiry, dates[i], m.bond(expiry, dates[i], x_star), !payer);
  return price;
}

double swap_rate(const market::Curve& curve, const std::vector<double>& dates) {
  double annuity = 0;
  for (std::size_t i = 1; i < dates.size(); ++i) annuity += (dates[i] - dates[i - 1]) * curve.discount(dates[i]);
  return (curve.discount(dates.front()) - curve.discount(dates.back())) / annuity;
}

double bs_hull_white_price(const HullWhite& m, double spot, double dividend, double vol, double rho, double strike,
                           double t, bool call) {
  const double p = m.curve.discount(t), forward = spot * std::exp(-dividend * t) / p;
  // int_0^T B(s,T) ds and int_0^T B(s,T)^2 ds.
  const double bt = m.b(0, t), ib = (t - bt) / m.a;
  const double ib2 = (t - 2 * bt - 0.5 * std::expm1(-2 * m.a * t) / m.a) / (m.a * m.a);
  const double var = vol * vol * t + 2 * rho * vol * m.sigma * ib + m.sigma * m.sigma * ib2;
  return p * option::bsm_core(forward, strike, std::log(forward / strike), std::sqrt(var), call ? 1.0 : -1.0);
}

}  // namespace mcsim::rates
