// The jumps of one time step of Merton's and Bates's models: a Poisson number N of
// jumps in the log spot, by inversion of a uniform, their sum N mean + sqrt(N) vol z
// (normal given N), and the compensating drift that keeps the forward.
#pragma once
#include "rng/hd.hpp"

namespace mcsim::option {

template <class Real>
struct JumpStep {
  Real p0;       // e^{-lambda dt}: no jump in the step
  Real rate_dt;  // lambda dt
  Real drift;    // -lambda (E[e^J] - 1) dt
  Real mean, vol;
  int most;      // N stops here: P(N > most) < 1e-15 (and a float CDF's top)

  MCSIM_HD Real move(Real u, Real z) const {
    Real p = p0, cdf = p0;
    int n = 0;
    while (u > cdf && n < most) {
      ++n;
      p *= rate_dt / static_cast<Real>(n);
      cdf += p;
    }
    const Real count = static_cast<Real>(n);
    return drift + count * mean + sqrt(count) * vol * z;
  }
};

}  // namespace mcsim::option
