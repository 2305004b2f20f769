// One time step of Heston's stochastic volatility model for the log spot x and the
// variance v: Andersen's quadratic-exponential (QE) scheme, or full-truncation
// Euler. Two normals per step: z1 drives the variance, z2 the independent part of
// the log spot. StepPath walks it under every stepped payoff.
#pragma once
#include <array>
#include <cmath>

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

  // The coefficients that depend on the step, in the order of heston_step_fields.
  static constexpr int kStepFields = 8;
  MCSIM_HD void set_step(const Real* f) {
    dt = f[0], decay = f[1], s2_v = f[2], s2_0 = f[3], k0 = f[4], k1 = f[5], k2 = f[6], k3 = k4 = f[7];
  }

  // With `tangent`, also d(next) given dv, the variance's tangent in some input: the
  // branch held, as a pathwise derivative takes it. At psi = 1.5 the two branches map z
  // to different variances, a jump the derivative leaves out; its share of a vega is
  // far inside the vega's error (tests/test_path_greeks.cpp: against the characteristic
  // function's vega and bump and revalue's).
  MCSIM_HD Real qe_variance(Real v, Real z, Real dv = Real(0), Real* tangent = nullptr) const {
    const Real m = theta + (v - theta) * decay;
    const Real psi = (v * s2_v + s2_0) / (m * m);
    const Real dm = decay * dv, dpsi = s2_v * dv / (m * m) - Real(2) * psi * dm / m;
    if (psi <= Real(1.5)) {  // moment-matched square of a shifted normal
      // Kept as one expression: on the host sqrt(float) is the double one, whose
      // product is rounded to Real only in b2 (the bits of every Heston job).
      const Real t = Real(2) / psi;
      const Real b2 = t - Real(1) + sqrt(t) * sqrt(t - Real(1));
      const Real b = sqrt(b2);
      if (tangent) {  // b2 and m / (1 + b2) through psi and m
        const Real root = sqrt(t) * sqrt(t - Real(1));
        const Real db2 = (Real(1) + (t - Real(0.5)) / root) * (-t / psi) * dpsi, db = db2 / (Real(2) * b);
        const Real a = m / (Real(1) + b2), da = (dm - a * db2) / (Real(1) + b2);
        *tangent = (b + z) * (da * (b + z) + Real(2) * a * db);
      }
      return m / (Real(1) + b2) * (b + z) * (b + z);
    }
    // A mass at zero and an exponential tail, inverted at U = Phi(z). 1 - U is
    // taken as Phi(-z): in float, Phi(z) rounds to 1 beyond z = 5.4 (once in about
    // 3e7 draws) and 1 - U to 0, an infinite variance.
    const Real p = (psi - Real(1)) / (psi + Real(1));
    const Real above = fast_normcdf(-z);  // 1 - U
    if (above >= Real(1) - p) {
      if (tangent) *tangent = Real(0);
      return Real(0);
    }
    const Real tail = fast_log((Real(1) - p) / above);
    if (tangent) {  // tail m / (1 - p) through p and m
      const Real q = Real(1) - p, dp = Real(2) * dpsi / ((psi + Real(1)) * (psi + Real(1)));
      *tangent = (tail * (dm + m * dp / q) - m * dp / q) / q;
    }
    return tail * m / (Real(1) - p);
  }

  // The log spot's standard deviation over a step, given the variance's path from v
  // to next: z2 over it is the score of the log spot's start, which path Greeks weigh by.
  MCSIM_HD Real spot_deviation(Real v, Real next) const {
    if (qe) {
      const Real var = k3 * v + k4 * next;
      return sqrt(var > Real(0) ? var : Real(0));
    }
    return sqrt((v > Real(0) ? v : Real(0)) * dt) * rho_bar;
  }

  // With dx and dv, also carries the log spot's and the variance's tangents in some
  // input (a vega's: the initial volatility) through the step, pathwise: the kinks of
  // the square roots and of the truncation at 0 held, QE's branch held (qe_variance).
  MCSIM_HD void advance(Real& x, Real& v, Real z1, Real z2, Real* dx = nullptr, Real* dv = nullptr) const {
    if (qe) {
      Real dnext = Real(0);
      const Real next = qe_variance(v, z1, dv ? *dv : Real(0), dv ? &dnext : nullptr);
      const Real var = k3 * v + k4 * next;
      x += carry_dt + k0 + k1 * v + k2 * next + sqrt(var > Real(0) ? var : Real(0)) * z2;  // one expression (qe_variance)
      if (dv) {
        const Real root = sqrt(var > Real(0) ? var : Real(0)), dvar = k3 * *dv + k4 * dnext;
        *dx += k1 * *dv + k2 * dnext + (root > Real(0) ? dvar * z2 / (Real(2) * root) : Real(0));
        *dv = dnext;
      }
      v = next;
    } else {
      const Real vp = v > Real(0) ? v : Real(0);
      const Real root = sqrt(vp * dt);
      x += carry_dt - Real(0.5) * vp * dt + root * (rho * z1 + rho_bar * z2);
      if (dv) {
        const Real dvp = v > Real(0) ? *dv : Real(0), droot = root > Real(0) ? dvp * dt / (Real(2) * root) : Real(0);
        *dx += -Real(0.5) * dvp * dt + droot * (rho * z1 + rho_bar * z2);
        *dv += -kappa * dvp * dt + xi * droot * z1;
      }
      v += kappa * (theta - vp) * dt + xi * root * z1;
    }
  }
};

// A step of dt years: dt, e^{-kappa dt}, the QE conditional-variance coefficients
// and Andersen's K0, K1, K2 and K3 = K4 (gamma1 = gamma2 = 1/2). Host only.
inline std::array<double, 8> heston_step_fields(double kappa, double theta, double xi, double rho, double dt) {
  const double decay = std::exp(-kappa * dt), x2 = xi * xi;
  const double g = 0.5 * dt, lean = kappa * rho / xi - 0.5;
  return {dt,
          decay,
          x2 * decay * (1 - decay) / kappa,
          theta * x2 * (1 - decay) * (1 - decay) / (2 * kappa),
          -rho * kappa * theta * dt / xi,
          g * lean - rho / xi,
          g * lean + rho / xi,
          g * (1 - rho * rho)};
}

// Heston's step of dt years with carry (r - q) dt. Host only.
template <class Real>
HestonStep<Real> make_heston_step(bool qe, double v0, double kappa, double theta, double xi, double rho, double dt,
                                  double carry_dt) {
  HestonStep<Real> k{};
  k.qe = qe;
  k.v0 = static_cast<Real>(v0);
  k.carry_dt = static_cast<Real>(carry_dt);
  k.kappa = static_cast<Real>(kappa), k.theta = static_cast<Real>(theta), k.xi = static_cast<Real>(xi);
  k.rho = static_cast<Real>(rho), k.rho_bar = static_cast<Real>(std::sqrt(1 - rho * rho));
  const auto f = heston_step_fields(kappa, theta, xi, rho, dt);
  Real fields[HestonStep<Real>::kStepFields];
  for (int i = 0; i < HestonStep<Real>::kStepFields; ++i) fields[i] = static_cast<Real>(f[i]);
  k.set_step(fields);
  return k;
}

}  // namespace mcsim::option
