// Closed-form Black-Scholes-Merton values (continuous dividend yield q), the
// references the Monte Carlo estimates are validated against.
#pragma once
#include <vector>

#include "models/option/barrier.hpp"

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
double bsm_gamma(const BsmInput& in);  // d2V/dS2
double bsm_rho(const BsmInput& in);    // dV/dr
double bsm_theta(const BsmInput& in);  // -dV/dT: value change per year of calendar time
// Cash-or-nothing digital: pays `cash` if S_T > K (call) or S_T < K (put).
double digital_price(const BsmInput& in, double cash);
struct DigitalGreeks {
  double delta, gamma, vega, rho;
};
DigitalGreeks digital_greeks(const BsmInput& in, double cash);

}  // namespace mcsim::option

namespace mcsim::option {

// Geometric-average Asian with fixings at `times` (years, increasing, in (0, T]):
// ln G is normal, so the price is Black's formula on its moments (Kemna-Vorst).
double geometric_asian_price(const BsmInput& in, const std::vector<double>& times);
// Continuous averaging over [0, T].
double geometric_asian_continuous_price(const BsmInput& in);

enum class RebateTime { AtHit, AtExpiry };
// Continuously monitored single barrier (Merton, Reiner-Rubinstein; Haug's A-F
// terms). The rebate is paid when knocked out (at the hit or at expiry) or, for an
// in-option never knocked in, at expiry. Spot must be on the live side of H.
double barrier_price(const BsmInput& in, BarrierKind kind, double barrier, double rebate, RebateTime when);
// Discrete monitoring every dt: Broadie-Glasserman-Kou's continuity correction, the
// continuous price with the barrier moved away from the spot by exp(0.5826 sigma sqrt(dt)).
double barrier_price_discrete(const BsmInput& in, BarrierKind kind, double barrier, double rebate, double dt);
// Probability that a continuously monitored barrier is touched before T.
double barrier_hit_probability(const BsmInput& in, BarrierKind kind, double barrier);

// Continuously monitored lookbacks, observation from now (running extreme = spot):
// floating strike (Goldman-Sosin-Gatto) pays S_T - min S (call) or max S - S_T (put);
// fixed strike (Conze-Viswanathan) pays max(max S - K, 0) or max(K - min S, 0).
double lookback_floating_price(const BsmInput& in, double running_extreme);
double lookback_fixed_price(const BsmInput& in, double running_extreme);

}  // namespace mcsim::option

namespace mcsim::option {

struct HestonInput {
  double spot, strike, rate, dividend, maturity;
  double v0, kappa, theta, xi, rho;  // initial variance, mean reversion, long-run variance, vol of vol, correlation
  bool call;
};
// European option under Heston's stochastic volatility: the characteristic function
// in its "little trap" form (Albrecher et al.), integrated by Gauss-Legendre panels.
double heston_price(const HestonInput& in);

// Jumps of the log spot: a Poisson number at `intensity` a year, each normal with
// `mean` and `vol`; the drift is compensated by intensity (E[e^J] - 1), so the
// forward is unchanged.
struct Jumps {
  double intensity = 0, mean = 0, vol = 0;
  double compensator() const;  // E[e^J] - 1
};
// Merton (1976): GBM with jumps, the Poisson mixture of Black's formula over the
// number of jumps (summed until the weights left are below 1e-16).
double merton_price(const BsmInput& in, const Jumps& jumps);
// Bates (1996): Heston with Merton's jumps, the Heston characteristic function
// times the jumps'; no jumps is heston_price.
double bates_price(const HestonInput& in, const Jumps& jumps);

// dS = (r - q) S dt + sigma S^beta dW, 0 < beta < 1, absorbed at zero.
struct CevInput {
  double spot, strike, rate, dividend, maturity, sigma, beta;
  bool call;
};
// European option under the constant elasticity of variance (Schroder 1989); beta = 1
// is Black-Scholes with volatility sigma.
double cev_price(const CevInput& in);
// The Black-Scholes volatility that gives `price` (bisection on the price, which
// rises with the volatility); NaN when no volatility in (0, 5] does.
double implied_volatility(const BsmInput& in, double price);

}  // namespace mcsim::option

namespace mcsim::option {

// Rubinstein (1991): an option whose strike is set at `start` to in.strike times
// the spot then (in.strike is that fraction), expiring at in.maturity > start.
double forward_start_price(const BsmInput& in, double start);
// A cliquet paying at in.maturity the sum over the periods between `resets`
// (0 < t_1 < ... < t_n = T, the first period from 0) of each period's return
// S_i / S_{i-1} - 1 held within [local_floor, local_cap] (a floor of -1 is none, a
// cap may be infinite), with no global floor or cap: each period is the floor plus
// a call spread on its return.
double cliquet_price(const BsmInput& in, const std::vector<double>& resets, double local_floor, double local_cap);

// A European call or put (or a cash-or-nothing digital paying `cash`) on a GBM
// spot that drops by D_i at ex-dates t_i < T, not below zero. Between dates, leg i
// carries the spot's log forward growth, its log variance and its discount factor;
// legs.size() = dividends + 1, the last to maturity. Nested Gauss-Legendre
// quadrature over the normal of each leg, Black's formula on the last: exact to
// about 1e-10 of the price, but the work grows as 192^dividends (kCashDividendsMost).
struct CashLeg {
  double growth, variance, discount, cash;  // cash: paid at the leg's end (the last's: at maturity)
};
constexpr int kCashDividendsMost = 3;
double cash_dividend_price(double spot, double strike, bool call, const std::vector<CashLeg>& legs,
                           bool digital = false, double cash = 1);

// Cox-Ross-Rubinstein binomial tree with `steps` steps: the European price, or with
// early exercise at every node (American) or only on `exercise_dates` equally
// spaced dates (Bermudan; steps must be a multiple). Converges as steps grow.
double binomial_price(const BsmInput& in, int steps, bool american, int exercise_dates = 0);

// Margrabe: the option to exchange asset 2 for asset 1 at T, max(S1 - S2, 0), with
// continuous yields q1, q2, volatilities s1, s2 and correlation rho.
double margrabe_price(double spot1, double spot2, double q1, double q2, double vol1, double vol2, double rho,
                      double maturity);

// Two correlated GBM assets under the same rate.
struct TwoAssetInput {
  double spot1, spot2, q1, q2, vol1, vol2, rho, rate, maturity;
};
// What a two-asset payoff observes of X = w1 S1 and Y = |w2| S2 (w1 > 0): their sum
// X + Y (X - Y when w2 < 0: a spread), or the larger or smaller (w2 > 0).
enum class TwoAssetPayoff { Sum, Max, Min };
// A European call or put on that level struck at K, by one integral: given S1 the
// payoff in S2 is Black's formula, integrated over S1 on Gauss-Legendre panels
// split where the payoff bends. Exact to about 1e-10 while |rho| < 1.
double two_asset_price(const TwoAssetInput& in, TwoAssetPayoff payoff, double w1, double w2, double strike,
                       bool call);

// Correlated GBM assets: spots, volatilities, dividend yields, correlation matrix,
// and basket weights.
struct BasketInput {
  std::vector<double> spots, vols, dividends;
  std::vector<std::vector<double>> correlation;
  std::vector<double> weights;
  double rate, maturity;
};
// The weighted geometric basket: pays max(+-(W G - K), 0) with G = prod S_i^(w_i/W),
// W = sum w_i (weights positive). ln G is normal, so Black-Scholes-Merton applies.
double geometric_basket_price(const BasketInput& in, double strike, bool call);

}  // namespace mcsim::option
