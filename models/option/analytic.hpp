// Closed-form Black-Scholes-Merton values (continuous dividend yield q), the
// references the Monte Carlo estimates are validated against.
#pragma once

namespace mcsim::option {

struct BsmInput {
  double spot, strike, rate, dividend, volatility, maturity;
  bool call;
};

double normal_cdf(double x);
double normal_pdf(double x);

double bsm_price(const BsmInput& in);
double bsm_delta(const BsmInput& in);  // dV/dS
double bsm_vega(const BsmInput& in);   // dV/dsigma, per unit of volatility
// Cash-or-nothing digital: pays `cash` if S_T > K (call) or S_T < K (put).
double digital_price(const BsmInput& in, double cash);

}  // namespace mcsim::option
