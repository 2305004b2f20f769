// A local volatility's log-Euler step, as StepPath walks it: sigma(t, S) at the
// path's log spot (Dupire's from the step's row of the grid, or CEV's power of the
// spot), and the step's tangents that the path's Greeks carry.
#pragma once
#include "models/option/step_kinds.hpp"
#include "rng/hd.hpp"

namespace mcsim::option {

template <class Real, Dynamics D>
struct LocalStep {
  Real inv_dk, last;          // Dupire: 1 / the node spacing; the last node less a half
  Real curve0;                // Greeks: sigma'' in x at the spot on the first step
  Real cev_sigma, cev_power;  // CEV: sigma(S) = cev_sigma exp(cev_power log S), cev_power = beta - 1

  // The volatility at log spot x: CEV's power of the spot, or the step's row of the
  // Dupire grid, linear between nodes and flat beyond the ends. A row holds each
  // cell's (midpoint value, slope) and u is x's place in cells less a half, so its
  // nearest integer is the cell and the remainder, within +-1/2, the offset from the
  // cell's midpoint: one paired load and no float-to-integer conversion.
  // With `slope`, also its derivative in x (0 beyond the grid's ends).
  MCSIM_HD Real sigma(const Real* row, Real origin, Real x, Real* slope = nullptr) const {
    if constexpr (D == Dynamics::Cev) {
      const Real sigma = cev_sigma * fast_exp(cev_power * x);
      if (slope) *slope = cev_power * sigma;
      return sigma;
    } else {
      struct alignas(2 * sizeof(Real)) Cell {
        Real mid, slope;
      };
      const Real place = x * inv_dk - origin, u = clamp_to(place, Real(-0.5), last);
      Real cell;
      const Cell c = reinterpret_cast<const Cell*>(row)[nearest_integer(u, &cell)];
      if (slope) *slope = place == u ? c.slope * inv_dk : Real(0);
      return c.mid + (u - cell) * c.slope;
    }
  }

  // The step from x, x' = x + carry + sigma (sqrt(dt) z - dt sigma / 2), in its
  // tangents: `factor` is dx'/dx, 1 + sigma_x (sqrt(dt) z - dt sigma). On the first
  // step, `gamma_weight` is the likelihood-ratio weight that turns the pathwise delta
  // into gamma (delta x weight / S_0): x_1's density moves with S_0 through its mean
  // (slope m') and deviation (sd'), and so does the pathwise delta's factor
  // h = m' + z sd' at a fixed x_1; the weight is score - 1 + dh/h.
  struct Tangents {
    Real factor, gamma_weight;
  };
  MCSIM_HD Tangents tangents(Real sigma, Real slope, Real z, Real root_dt, Real dt, bool first) const {
    Tangents t{Real(1) + slope * (root_dt * z - dt * sigma), Real(0)};
    if (first) {
      // sigma'' in x: CEV's sigma (beta - 1)^2; the grid's, linear within a cell, is
      // its nodes' second difference at the spot (curve0), the same for every path.
      Real curve = curve0;
      if constexpr (D == Dynamics::Cev) curve = cev_power * slope;
      const Real sd = sigma * root_dt, m1 = Real(1) - dt * sigma * slope, sd1 = root_dt * slope;
      const Real score = (z * m1 + (z * z - Real(1)) * sd1) / sd;
      const Real h = t.factor, dh = -dt * (slope * slope + sigma * curve) - h * sd1 / sd + z * root_dt * curve;
      t.gamma_weight = score - Real(1) + dh / h;
    }
    return t;
  }
};

}  // namespace mcsim::option
