// One particle history through a layered slab, written once for host and device:
// flights to the next collision or plane, reflection at reflective planes,
// scattering into a new group and cosine, and the end of the history by
// absorption or leakage. `visit(region, group, length)` sees every track segment
// (the flux's track-length estimator) and `collide(region, group)` every
// collision, so tallies stay outside the maths.
#pragma once
#include <vector>

#include "models/transport/physics.hpp"
#include "models/transport/transport_spec.hpp"
#include "rng/stream.hpp"

namespace mcsim::transport {

// A slab as a history reads it, through pointers to host or device copies. Per
// region r and group g: total[r G + g], scatter_out[r G + g], and the cumulative
// scatter row cumulative[(r G + g) G + h] (the probability, given a scatter, of
// leaving in group h or faster); mean_cosine per region.
template <class Real>
struct SlabView {
  int regions, groups;
  const Real* planes;  // regions + 1, increasing
  const Real* total;
  const Real* scatter_out;
  const Real* cumulative;
  const Real* mean_cosine;
  bool reflect_left, reflect_right;
};

// Uniforms one at a time from a history's stream, a Philox block at a time.
template <class Real>
struct Uniforms {
  rng::Stream& stream;
  rng::NormalBlock<Real> block{};
  int left = 0;
  MCSIM_HD Real next() {
    if (left == 0) block = rng::uniforms<Real>(stream), left = rng::NormalBlock<Real>::size;
    return block.z[--left];
  }
};

enum class Fate : int { Absorbed, LeakedLeft, LeakedRight };

// Follows one particle from x with cosine mu in group g until it is absorbed or
// leaks; returns its fate.
template <class Real, class Visit, class Collide>
MCSIM_HD Fate slab_history(const SlabView<Real>& s, Uniforms<Real>& u, Real x, Real mu, int g, Visit&& visit,
                           Collide&& collide) {
  int r = 0;
  while (r + 1 < s.regions && x >= s.planes[r + 1]) ++r;
  for (;;) {
    const int rg = r * s.groups + g;
    const Real to_collision = flight_distance(u.next(), s.total[rg]);
    // The plane ahead: the region's right one moving right, its left one moving left.
    const int plane = mu > Real(0) ? r + 1 : r;
    const Real to_plane = distance_to_plane(x, mu, s.planes[plane]);
    if (to_collision < to_plane) {
      visit(r, g, to_collision);
      x += mu * to_collision;
      collide(r, g);
      if (u.next() * s.total[rg] >= s.scatter_out[rg]) return Fate::Absorbed;
      // Scatter: the outgoing group by the cumulative row, then the new cosine.
      const Real pick = u.next();
      int h = 0;
      while (h + 1 < s.groups && pick >= s.cumulative[rg * s.groups + h]) ++h;
      g = h;
      const Real turn = scattering_cosine(u.next(), s.mean_cosine[r]);
      mu = turned_cosine(mu, turn, static_cast<Real>(cos(Real(6.283185307179586) * u.next())));
      continue;
    }
    visit(r, g, to_plane);
    x = s.planes[plane];
    if (plane == 0 || plane == s.regions) {
      const bool reflective = plane == 0 ? s.reflect_left : s.reflect_right;
      if (!reflective) return plane == 0 ? Fate::LeakedLeft : Fate::LeakedRight;
      mu = -mu;  // a mirror: the same plane, the other way
    } else {
      r = mu > Real(0) ? r + 1 : r - 1;
    }
  }
}

// The flat arrays behind a view, built from a slab job's regions and materials.
template <class Real>
struct SlabArrays {
  int regions = 0, groups = 1;
  bool reflect_left = false, reflect_right = false;
  std::vector<Real> planes, total, scatter_out, cumulative, mean_cosine;
  SlabView<Real> view() const {
    return {regions, groups, planes.data(), total.data(), scatter_out.data(), cumulative.data(), mean_cosine.data(),
            reflect_left, reflect_right};
  }
};
template <class Real>
SlabArrays<Real> slab_arrays(const TransportSpec& s);

}  // namespace mcsim::transport
