// Single-barrier options under GBM with continuous monitoring, in Haug's notation
// (b = r - q, mu = (b - sigma^2/2) / sigma^2; the terms A..D combined per barrier
// kind and strike position), written once for host and device: the closed-form
// references (analytic_barrier.cpp adds the rebates) and the revaluation of barrier
// positions in risk scenarios.
#pragma once
#include "models/option/bsm.hpp"

namespace mcsim::option {

enum class BarrierKind { DownOut, UpOut, DownIn, UpIn };
// Their names in configs, in that order.
constexpr const char* kBarrierKindNames[] = {"down-and-out", "up-and-out", "down-and-in", "up-and-in"};

MCSIM_HD bool is_down(BarrierKind k) { return k == BarrierKind::DownOut || k == BarrierKind::DownIn; }
MCSIM_HD bool is_out(BarrierKind k) { return k == BarrierKind::DownOut || k == BarrierKind::UpOut; }

// Haug's A..D, and the x2, y2 and (H/S)^{2 mu} the rebate terms share.
template <class Real>
struct BarrierTerms {
  Real A, B, C, D, x2, y2, hs2mu;
};

// From the carried spot S e^{(b-r)T}, the discounted strike X e^{-rT}, ln S, ln X,
// ln H, sd = sigma sqrt(T) and mu.
template <class Real>
MCSIM_HD BarrierTerms<Real> barrier_terms(Real carry, Real discounted_strike, Real log_spot, Real log_strike,
                                          Real log_barrier, Real sd, Real mu, bool call, bool down) {
  const Real phi = call ? Real(1) : Real(-1), eta = down ? Real(1) : Real(-1), shift = (Real(1) + mu) * sd;
  const Real x1 = (log_spot - log_strike) / sd + shift, x2 = (log_spot - log_barrier) / sd + shift;
  const Real y1 = (Real(2) * log_barrier - log_spot - log_strike) / sd + shift, y2 = (log_barrier - log_spot) / sd + shift;
  const Real hs2mu = exp(Real(2) * mu * (log_barrier - log_spot)), hs2mu1 = hs2mu * exp(Real(2) * (log_barrier - log_spot));
  const auto N = [](Real x) { return std_normal_cdf(x); };
  BarrierTerms<Real> t;
  t.A = phi * carry * N(phi * x1) - phi * discounted_strike * N(phi * x1 - phi * sd);
  t.B = phi * carry * N(phi * x2) - phi * discounted_strike * N(phi * x2 - phi * sd);
  t.C = phi * carry * hs2mu1 * N(eta * y1) - phi * discounted_strike * hs2mu * N(eta * y1 - eta * sd);
  t.D = phi * carry * hs2mu1 * N(eta * y2) - phi * discounted_strike * hs2mu * N(eta * y2 - eta * sd);
  t.x2 = x2, t.y2 = y2, t.hs2mu = hs2mu;
  return t;
}

// The option's value without rebate, spot on the live side; high_strike: X > H.
template <class Real>
MCSIM_HD Real barrier_value(const BarrierTerms<Real>& t, bool call, BarrierKind kind, bool high_strike) {
  if (call) {
    switch (kind) {
      case BarrierKind::DownIn: return high_strike ? t.C : t.A - t.B + t.D;
      case BarrierKind::UpIn: return high_strike ? t.A : t.B - t.C + t.D;
      case BarrierKind::DownOut: return high_strike ? t.A - t.C : t.B - t.D;
      default: return high_strike ? Real(0) : t.A - t.B + t.C - t.D;  // up-and-out
    }
  }
  switch (kind) {
    case BarrierKind::DownIn: return high_strike ? t.B - t.C + t.D : t.A;
    case BarrierKind::UpIn: return high_strike ? t.A - t.B + t.D : t.C;
    case BarrierKind::DownOut: return high_strike ? t.A - t.B + t.C - t.D : Real(0);
    default: return high_strike ? t.B - t.D : t.A - t.C;  // up-and-out
  }
}

}  // namespace mcsim::option
