// References for options on several assets: Margrabe's exchange option, two-asset
// payoffs (sum, spread, best-of, worst-of) by one integral over the first asset,
// and the weighted geometric basket, lognormal like a single asset.
#include <algorithm>
#include <cmath>

#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"

namespace mcsim::option {

double margrabe_price(double spot1, double spot2, double q1, double q2, double vol1, double vol2, double rho,
                      double maturity) {
  const double vol = std::sqrt(vol1 * vol1 + vol2 * vol2 - 2 * rho * vol1 * vol2);
  // A call on S1 / S2 struck at 1, with S2's yield as the rate, paid in units of S2.
  const BsmInput ratio{spot1 / spot2, 1.0, q2, q1, vol, maturity, true};
  return spot2 * bsm_price(ratio);  // bsm_price discounts at "rate" q2: S2 e^{-q2 T} as numeraire
}

namespace {

// Undiscounted Black call or put on a lognormal Y with mean f and log-volatility v:
// Black-Scholes-Merton at zero rates over one unit of time, plus the edges it
// does not cover (a strike at or below zero, no volatility left).
double black(double f, double k, double v, bool call) {
  if (k <= 0) return call ? f - k : 0.0;
  if (v < 1e-14) return std::max(0.0, call ? f - k : k - f);
  return bsm_price({f, k, 0.0, 0.0, v, 1.0, call});
}
double black_call(double f, double k, double v) { return black(f, k, v, true); }
double black_put(double f, double k, double v) { return black(f, k, v, false); }

// Standard normals beyond this carry no weight a double can see.
constexpr double kTail = 10.0;
constexpr int kPanels = 200;

}  // namespace

double two_asset_price(const TwoAssetInput& in, TwoAssetPayoff payoff, double w1, double w2, double strike,
                       bool call) {
  const double t = in.maturity, s1 = in.vol1 * std::sqrt(t), s2 = in.vol2 * std::sqrt(t);
  const double m1 = std::log(w1 * in.spot1) + (in.rate - in.q1 - 0.5 * in.vol1 * in.vol1) * t;
  const double m2 = std::log(std::fabs(w2) * in.spot2) + (in.rate - in.q2 - 0.5 * in.vol2 * in.vol2) * t;
  const double v = s2 * std::sqrt(1 - in.rho * in.rho);  // Y's log-volatility given Z1
  const double k = strike;
  // Given Z1 = z: X = w1 S1 is known and Y = |w2| S2 is lognormal with mean f.
  const auto given = [&](double z) {
    const double x = std::exp(m1 + s1 * z), f = std::exp(m2 + s2 * in.rho * z + 0.5 * v * v);
    switch (payoff) {
      case TwoAssetPayoff::Sum:
        if (w2 >= 0) return call ? black_call(f, k - x, v) : black_put(f, k - x, v);
        return call ? black_put(f, x - k, v) : black_call(f, x - k, v);  // X - Y against K
      case TwoAssetPayoff::Max:  // max(X, Y) = X + (Y - X)+
        if (call) return x >= k ? x - k + black_call(f, x, v) : black_call(f, k, v);
        return x >= k ? 0.0 : black_put(f, k, v) - black_put(f, x, v);
      case TwoAssetPayoff::Min:  // min(X, Y) = Y - (Y - X)+
        if (call) return x <= k ? 0.0 : black_call(f, k, v) - black_call(f, x, v);
        return x >= k ? black_put(f, k, v) : k - x + black_put(f, x, v);
    }
    return 0.0;
  };
  const auto weighted = [&](double z) { return normal_pdf(z) * given(z); };
  // Best- and worst-of payoffs bend where X = K: a panel edge there keeps the rule exact.
  const double kink = k > 0 ? (std::log(k) - m1) / s1 : -kTail;
  double sum;
  if (payoff != TwoAssetPayoff::Sum && kink > -kTail && kink < kTail)
    sum = integrate(-kTail, kink, kPanels, weighted) + integrate(kink, kTail, kPanels, weighted);
  else
    sum = integrate(-kTail, kTail, 2 * kPanels, weighted);
  return std::exp(-in.rate * t) * sum;
}

double geometric_basket_price(const BasketInput& in, double strike, bool call) {
  const std::size_t n = in.spots.size();
  double total_weight = 0;
  for (double w : in.weights) total_weight += w;
  double mean = 0, var = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const double g = in.weights[a] / total_weight;
    mean += g * (std::log(in.spots[a]) + (in.rate - in.dividends[a] - 0.5 * in.vols[a] * in.vols[a]) * in.maturity);
    for (std::size_t b = 0; b < n; ++b)
      var += g * in.weights[b] / total_weight * in.correlation[a][b] * in.vols[a] * in.vols[b] * in.maturity;
  }
  // W G is lognormal with this mean: Black-Scholes-Merton on its discounted forward.
  const double forward = total_weight * std::exp(mean + 0.5 * var);
  const BsmInput level{forward * std::exp(-in.rate * in.maturity), strike, in.rate, 0.0,
                       std::sqrt(var / in.maturity), in.maturity, call};
  return bsm_price(level);
}

}  // namespace mcsim::option
