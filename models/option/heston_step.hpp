// One time step of Heston's stochastic volatility model for the log spot x and the
// variance v: Andersen's quadratic-exponential (QE) scheme, or full-truncation
// Euler. Two normals per step: z1 drives the variance, z2 the independent part of
// the log spot. StepPath walks it under every stepped payoff.
#pragma once
#include "rng/hd.hpp"

namespace mcsim::option {

template <class Real>
struct HestonStep {
  bool qe;  // else full-truncation Euler
  Real v0, dt, carry_dt;  // initial variance, step, (r - q) dt
  Real kappa, theta, xi, rho, rho_bar;  // rho_bar = sqrt(1 - rho^2)
  // QE: e^{-kappa dt}, the variance's conditional-variance coefficients, and
  // Andersen's K0..K4 for the log spot (gamma1 = gamma2 = 1/2).
  Real decay, s2_v, s2_0, k0, k1, k2, k3, k4;

  MCSIM_HD Real qe_variance(Real v, Real z) const {
    const Real m = theta + (v - theta) * decay;
    const Real psi = (v * s2_v + s2_0) / (m * m);
    if (psi <= Real(1.5)) {  // moment-matched square of a shifted normal
      const Real t = Real(2) / psi;
      const Real b2 = t - Real(1) + sqrt(t) * sqrt(t - Real(1));
      const Real b = sqrt(b2);
      return m / (Real(1) + b2) * (b + z) * (b + z);
    }
    // A mass at zero and an exponential tail, inverted at U = Phi(z).
    const Real p = (psi - Real(1)) / (psi + Real(1));
    const Real u = fast_normcdf(z);
    return u <= p ? Real(0) : fast_log((Real(1) - p) / (Real(1) - u)) * m / (Real(1) - p);
  }

  MCSIM_HD void advance(Real& x, Real& v, Real z1, Real z2) const {
    if (qe) {
      const Real next = qe_variance(v, z1);
      const Real var = k3 * v + k4 * next;
      x += carry_dt + k0 + k1 * v + k2 * next + sqrt(var > Real(0) ? var : Real(0)) * z2;
      v = next;
    } else {
      const Real vp = v > Real(0) ? v : Real(0);
      const Real root = sqrt(vp * dt);
      x += carry_dt - Real(0.5) * vp * dt + root * (rho * z1 + rho_bar * z2);
      v += kappa * (theta - vp) * dt + xi * root * z1;
    }
  }
};

}  // namespace mcsim::option
