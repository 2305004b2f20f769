// Single-barrier options under GBM, continuous monitoring, in Haug's notation:
// b = r - q, mu = (b - sigma^2/2) / sigma^2, lambda = sqrt(mu^2 + 2r / sigma^2),
// and the terms A..F combined per barrier kind and strike position.
#include <cmath>
#include <stdexcept>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {

struct Terms {
  double A, B, C, D, E, F;
};

bool is_down(BarrierKind k) { return k == BarrierKind::DownOut || k == BarrierKind::DownIn; }
bool is_out(BarrierKind k) { return k == BarrierKind::DownOut || k == BarrierKind::UpOut; }

Terms terms(const BsmInput& in, BarrierKind kind, double h, double rebate) {
  const double S = in.spot, X = in.strike, T = in.maturity, r = in.rate, v = in.volatility;
  const double b = r - in.dividend, sd = v * std::sqrt(T);
  const double mu = (b - 0.5 * v * v) / (v * v), lambda = std::sqrt(mu * mu + 2.0 * r / (v * v));
  const double phi = in.call ? 1.0 : -1.0, eta = is_down(kind) ? 1.0 : -1.0;
  const double x1 = std::log(S / X) / sd + (1 + mu) * sd, x2 = std::log(S / h) / sd + (1 + mu) * sd;
  const double y1 = std::log(h * h / (S * X)) / sd + (1 + mu) * sd, y2 = std::log(h / S) / sd + (1 + mu) * sd;
  const double z = std::log(h / S) / sd + lambda * sd;
  const double carry = S * std::exp((b - r) * T), df = std::exp(-r * T);
  const double hs2mu1 = std::pow(h / S, 2 * (mu + 1)), hs2mu = std::pow(h / S, 2 * mu);
  const auto N = normal_cdf;
  Terms t;
  t.A = phi * carry * N(phi * x1) - phi * X * df * N(phi * x1 - phi * sd);
  t.B = phi * carry * N(phi * x2) - phi * X * df * N(phi * x2 - phi * sd);
  t.C = phi * carry * hs2mu1 * N(eta * y1) - phi * X * df * hs2mu * N(eta * y1 - eta * sd);
  t.D = phi * carry * hs2mu1 * N(eta * y2) - phi * X * df * hs2mu * N(eta * y2 - eta * sd);
  t.E = rebate * df * (N(eta * x2 - eta * sd) - hs2mu * N(eta * y2 - eta * sd));  // never hit, paid at T
  t.F = rebate * (std::pow(h / S, mu + lambda) * N(eta * z) +
                  std::pow(h / S, mu - lambda) * N(eta * z - 2 * eta * lambda * sd));  // paid at the hit
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
  const bool high_strike = in.strike > h;
  double v = 0;
  if (in.call) {
    switch (kind) {
      case BarrierKind::DownIn: v = high_strike ? t.C : t.A - t.B + t.D; break;
      case BarrierKind::UpIn: v = high_strike ? t.A : t.B - t.C + t.D; break;
      case BarrierKind::DownOut: v = high_strike ? t.A - t.C : t.B - t.D; break;
      case BarrierKind::UpOut: v = high_strike ? 0.0 : t.A - t.B + t.C - t.D; break;
    }
  } else {
    switch (kind) {
      case BarrierKind::DownIn: v = high_strike ? t.B - t.C + t.D : t.A; break;
      case BarrierKind::UpIn: v = high_strike ? t.A - t.B + t.D : t.C; break;
      case BarrierKind::DownOut: v = high_strike ? t.A - t.B + t.C - t.D : 0.0; break;
      case BarrierKind::UpOut: v = high_strike ? t.B - t.D : t.A - t.C; break;
    }
  }
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
