// Single-barrier options under GBM, continuous monitoring: barrier.hpp's A..D with
// the rebate's E and F, lambda = sqrt(mu^2 + 2r / sigma^2).
#include <cmath>
#include <stdexcept>

#include "models/option/analytic.hpp"
#include "models/option/barrier.hpp"

namespace mcsim::option {

namespace {

// A..D from barrier.hpp, with the rebate's terms: E (never hit, paid at T) and F
// (paid at the hit).
struct Terms {
  BarrierTerms<double> t;
  double E, F;
};

Terms terms(const BsmInput& in, BarrierKind kind, double h, double rebate) {
  const double S = in.spot, X = in.strike, T = in.maturity, r = in.rate, v = in.volatility;
  const double b = r - in.dividend, sd = v * std::sqrt(T);
  const double mu = (b - 0.5 * v * v) / (v * v), lambda = std::sqrt(mu * mu + 2.0 * r / (v * v));
  const double eta = is_down(kind) ? 1.0 : -1.0, df = std::exp(-r * T);
  Terms t;
  t.t = barrier_terms(S * std::exp((b - r) * T), X * df, std::log(S), std::log(X), std::log(h), sd, mu, in.call,
                      is_down(kind));
  const double z = std::log(h / S) / sd + lambda * sd;
  const auto N = normal_cdf;
  t.E = rebate * df * (N(eta * t.t.x2 - eta * sd) - t.t.hs2mu * N(eta * t.t.y2 - eta * sd));
  t.F = rebate * (std::pow(h / S, mu + lambda) * N(eta * z) + std::pow(h / S, mu - lambda) * N(eta * z - 2 * eta * lambda * sd));
  return t;
}

}  // namespace

double barrier_hit_probability(const BsmInput& in, BarrierKind kind, double barrier) {
  // E with a unit rebate is e^{-rT} P(never hit).
  return 1.0 - terms(in, kind, barrier, 1.0).E * std::exp(in.rate * in.maturity);
}

double barrier_price(const BsmInput& in, BarrierKind kind, double h, double rebate, RebateTime when) {
  if (is_down(kind) ? in.spot <= h : in.spot >= h)
    throw std::invalid_argument("barrier_price: the spot is not on the live side of the barrier");
  const Terms t = terms(in, kind, h, rebate);
  const double v = barrier_value(t.t, in.call, kind, in.strike > h);
  if (!is_out(kind)) return v + t.E;
  // Knocked out: the rebate at the hit (F), or at expiry: R e^{-rT} P(hit).
  return v + (when == RebateTime::AtHit ? t.F : rebate * std::exp(-in.rate * in.maturity) - t.E);
}

double barrier_price_discrete(const BsmInput& in, BarrierKind kind, double barrier, double rebate, double dt) {
  constexpr double kBeta = 0.5825971579390106;  // -zeta(1/2) / sqrt(2 pi)
  const double shift = std::exp(kBeta * in.volatility * std::sqrt(dt));
  return barrier_price(in, kind, is_down(kind) ? barrier / shift : barrier * shift, rebate, RebateTime::AtExpiry);
}

}  // namespace mcsim::option
