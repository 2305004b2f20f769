// European options under Heston's stochastic volatility, stepped in time by
// Andersen's quadratic-exponential (QE) scheme or by full-truncation Euler. Each
// step draws two normals per path (one Philox block each for the group): one for
// the variance and one for the independent part of the log spot.
#pragma once
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

template <class Real, int Copies>
struct HestonPath {
  using real_type = Real;
  static constexpr int kOutputs = Copies == 2 ? 2 : 1;  // price [, the first path of each antithetic pair]
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMinBlocksPerSM = 2;

  bool qe;  // else full-truncation Euler
  int steps;
  Real log_spot, strike, sign, discount;
  Real dt, carry_dt;  // step, (r - q) dt
  Real kappa, theta, xi, rho, rho_bar, v0;  // rho_bar = sqrt(1 - rho^2)
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

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup, N = Copies * G;
    Real x[N], v[N];
    for (int i = 0; i < N; ++i) x[i] = log_spot, v[i] = v0;
    for (int step = 0; step < steps; ++step) {
      const auto zv = rng::normals<Real>(stream);
      const auto zs = rng::normals<Real>(stream);
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) {
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const int i = c * G + lane;
          const Real z1 = c ? -zv.z[lane] : zv.z[lane], z2 = c ? -zs.z[lane] : zs.z[lane];
          if (qe) {
            const Real next = qe_variance(v[i], z1);
            const Real var = k3 * v[i] + k4 * next;
            x[i] += carry_dt + k0 + k1 * v[i] + k2 * next + sqrt(var > Real(0) ? var : Real(0)) * z2;
            v[i] = next;
          } else {
            const Real vp = v[i] > Real(0) ? v[i] : Real(0);
            const Real root = sqrt(vp * dt);
            x[i] += carry_dt - Real(0.5) * vp * dt + root * (rho * z1 + rho_bar * z2);
            v[i] += kappa * (theta - vp) * dt + xi * root * z1;
          }
        }
      }
    }
    for (int lane = 0; lane < lanes; ++lane) {
      Real total = Real(0), first = Real(0);
      MCSIM_UNROLL
      for (int c = 0; c < Copies; ++c) {
        const Real paid = sign * (fast_exp(x[c * G + lane]) - strike);
        const Real value = discount * (paid > Real(0) ? paid : Real(0));
        total += value;
        if (c == 0) first = value;
      }
      acc.add(0, total / static_cast<Real>(Copies));
      if constexpr (Copies == 2) acc.add(1, first);
    }
  }
};

}  // namespace mcsim::option
