// The Hull-White one-factor short rate fitted to today's discount curve, in
// Brigo and Mercurio's form: r(t) = x(t) + phi(t), dx = -a x dt + sigma dW, x(0) = 0,
// with phi such that the model's zero-coupon bonds reprice the curve. Bond prices
// at a later time are closed forms in x; the references for bonds, bond options,
// caps, floors and swaptions (Jamshidian) and the Black-Scholes-Hull-White European
// are here, host-only.
#pragma once
#include <vector>

#include "models/market/curve.hpp"

namespace mcsim::rates {

struct HullWhite {
  double a, sigma;       // mean reversion (> 0) and volatility of the short rate
  market::Curve curve;   // P^M(0, t), today's discount curve

  // B(t, T) = (1 - e^{-a (T - t)}) / a.
  double b(double t, double t_end) const;
  // V(t, T): the variance of the integral of x over [t, T] given x(t).
  double v(double t, double t_end) const;
  // P(t, T) given x(t) = x: P^M(0,T)/P^M(0,t) exp(0.5 [V(t,T) - V(0,T) + V(0,t)] - B(t,T) x).
  double bond(double t, double t_end, double x) const;
  // The standard deviation of ln P(T, S) at T seen from t < T (today by default):
  // sigma B(T, S) sqrt((1 - e^{-2a(T - t)}) / 2a).
  double bond_option_sd(double expiry, double maturity, double from = 0) const;
  // A European call (put) expiring at T on the zero-coupon bond maturing at S > T,
  // struck at K (Jamshidian 1989).
  double bond_option(double expiry, double maturity, double strike, bool call) const;
};

// The exact step of the factor and its integral over dt years given x at the start:
// x' = decay x + sd_x z1 and I' = I + b x + load1 z1 + load2 z2, z1 and z2 independent
// standard normals (zero loads without volatility).
struct RateStep {
  double decay, sd_x, b, load1, load2;  // in the order of hull_white_step's fields
};
RateStep rate_step(const HullWhite& m, double dt);

// The state x at `date` where the bonds paying amounts[i] at times[i] are worth
// `level` together (their sum falls as x rises): Jamshidian's exercise boundary,
// which splits an option on them into options on each bond struck at its value there.
double par_state(const HullWhite& m, double date, const std::vector<double>& amounts, const std::vector<double>& times,
                 double level);

// A caplet (floorlet) on the simple rate over [start, end], accrual end - start,
// paid at `end`, per unit notional: a put (call) on the bond P(start, end).
double caplet_price(const HullWhite& m, double start, double end, double strike, bool cap);
// A cap (floor): caplets on the consecutive periods of `dates` (d_0 = the first start).
double cap_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool cap);

// A European swaption expiring at dates.front() on the swap paying fixed `strike`
// (payer) or receiving it (receiver) with fixed payments at dates[1..n] and accrual
// between consecutive dates, per unit notional: Jamshidian's decomposition into
// options on the zero-coupon bonds of the fixed leg.
double swaption_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool payer);

// The par swap rate of those dates today: (P(0, d_0) - P(0, d_n)) / sum accrual_i P(0, d_i).
double swap_rate(const market::Curve& curve, const std::vector<double>& dates);

// A European on a stock with volatility `vol` and yield `dividend`, its Brownian
// correlated `rho` with the short rate's: the forward to T is lognormal under the
// T-forward measure with the stock's and the bond's volatilities combined.
double bs_hull_white_price(const HullWhite& m, double spot, double dividend, double vol, double rho, double strike,
                           double maturity, bool call);

}  // namespace mcsim::rates
