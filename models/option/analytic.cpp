#include "models/option/analytic.hpp"

#include <cmath>

#include "models/option/bsm.hpp"

namespace mcsim::option {

double normal_cdf(double x) { return std_normal_cdf(x); }
double normal_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

namespace {
struct D12 {
  double d1, d2;
};
D12 d12(const BsmInput& in) {
  const double d1 = bsm_d1(in.spot, in.strike, in.rate, in.dividend, in.volatility, in.maturity);
  return {d1, d1 - in.volatility * std::sqrt(in.maturity)};
}
}  // namespace

double bsm_price(const BsmInput& in) {
  return bsm_value(in.spot, in.strike, in.rate, in.dividend, in.volatility, in.maturity, in.call);
}

double implied_volatility(const BsmInput& in, double price) {
  BsmInput at = in;
  double lo = 1e-6, hi = 5;
  const auto value = [&](double v) { return at.volatility = v, bsm_price(at); };
  if (!(price >= value(lo)) || !(price <= value(hi))) return NAN;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    (value(mid) < price ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double bsm_delta(const BsmInput& in) {
  const auto d = d12(in);
  const double qf = std::exp(-in.dividend * in.maturity);
  return in.call ? qf * normal_cdf(d.d1) : qf * (normal_cdf(d.d1) - 1.0);
}

double bsm_vega(const BsmInput& in) {
  const auto d = d12(in);
  return in.spot * std::exp(-in.dividend * in.maturity) * normal_pdf(d.d1) * std::sqrt(in.maturity);
}

double bsm_gamma(const BsmInput& in) {
  const auto d = d12(in);
  return std::exp(-in.dividend * in.maturity) * normal_pdf(d.d1) / (in.spot * in.volatility * std::sqrt(in.maturity));
}

double bsm_rho(const BsmInput& in) {
  const auto d = d12(in);
  const double w = in.call ? 1.0 : -1.0;
  return w * in.strike * in.maturity * std::exp(-in.rate * in.maturity) * normal_cdf(w * d.d2);
}

double bsm_theta(const BsmInput& in) {
  const auto d = d12(in);
  const double w = in.call ? 1.0 : -1.0, qf = std::exp(-in.dividend * in.maturity), df = std::exp(-in.rate * in.maturity);
  return -in.spot * qf * normal_pdf(d.d1) * in.volatility / (2 * std::sqrt(in.maturity)) -
         w * in.rate * in.strike * df * normal_cdf(w * d.d2) + w * in.dividend * in.spot * qf * normal_cdf(w * d.d1);
}

double digital_price(const BsmInput& in, double cash) {
  const auto d = d12(in);
  const double w = in.call ? 1.0 : -1.0;
  return cash * std::exp(-in.rate * in.maturity) * normal_cdf(w * d.d2);
}

// The digital's Greeks: derivatives of cash e^{-rT} N(w d2) through d2.
DigitalGreeks digital_greeks(const BsmInput& in, double cash) {
  const auto d = d12(in);
  const double w = in.call ? 1.0 : -1.0, root_t = std::sqrt(in.maturity), sv = in.volatility * root_t;
  const double pv = cash * std::exp(-in.rate * in.maturity), density = normal_pdf(d.d2);
  DigitalGreeks g;
  g.delta = w * pv * density / (in.spot * sv);
  g.gamma = -w * pv * density * d.d1 / (in.spot * in.spot * sv * sv);
  g.vega = -w * pv * density * d.d1 / in.volatility;
  g.rho = pv * (-in.maturity * normal_cdf(w * d.d2) + w * density * root_t / in.volatility);
  return g;
}

}  // namespace mcsim::option
