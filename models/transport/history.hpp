// One particle history through layered slabs or concentric spheres, written once
// for host and device: flights to the next collision or surface, reflection at
// mirror surfaces, scattering into a new group and cosine, and the end of the
// history by absorption or leakage. `visit(region, group, length)` sees every
// track segment (the flux's track-length estimator) and `collide(region, group)`
// every collision, so tallies stay outside the maths.
#pragma once
#include <vector>

#include "models/transport/physics.hpp"
#include "models/transport/transport_spec.hpp"
#include "rng/stream.hpp"

namespace mcsim::transport {

// The regions as a history reads them, through pointers to host or device copies.
// Per region r and group g: total[r G + g], scatter_out[r G + g], and the
// cumulative scatter row cumulative[(r G + g) G + h] (the probability, given a
// scatter, of leaving in group h or faster); mean_cosine per region.
template <class Real>
struct LayerView {
  int regions, groups;
  const Real* surfaces;  // a slab's regions + 1 planes, or a sphere's regions radii; increasing
  const Real* total;
  const Real* scatter_out;
  const Real* cumulative;
  const Real* mean_cosine;
  bool reflect_low, reflect_high;  // mirrors at the first and last surface (a sphere's outer one is `high`)
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

// Absorbed, or leaked through the lowest surface (a slab's left plane) or the
// highest (a slab's right plane, a sphere's outer surface).
enum class Fate : int { Absorbed, LeakedLow, LeakedHigh };

// A collision in region r, group g: false when the particle is absorbed; else it
// scatters into a new *g and a new cosine *mu (with the axis or the radius).
template <class Real>
MCSIM_HD bool scatter(const LayerView<Real>& s, Uniforms<Real>& u, int r, int* g, Real* mu) {
  const int rg = r * s.groups + *g;
  if (u.next() * s.total[rg] >= s.scatter_out[rg]) return false;
  const Real pick = u.next();
  int h = 0;
  while (h + 1 < s.groups && pick >= s.cumulative[rg * s.groups + h]) ++h;
  *g = h;
  const Real turn = scattering_cosine(u.next(), s.mean_cosine[r]);
  *mu = turned_cosine(*mu, turn, static_cast<Real>(cos(Real(6.283185307179586) * u.next())));
  return true;
}

// Slab: follows one particle from x with cosine mu in group g until it is absorbed
// or leaks; returns its fate.
template <class Real, class Visit, class Collide>
MCSIM_HD Fate slab_history(const LayerView<Real>& s, Uniforms<Real>& u, Real x, Real mu, int g, Visit&& visit,
                           Collide&& collide) {
  int r = 0;
  while (r + 1 < s.regions && x >= s.surfaces[r + 1]) ++r;
  for (;;) {
    const Real to_collision = flight_distance(u.next(), s.total[r * s.groups + g]);
    // The plane ahead: the region's right one moving right, its left one moving left.
    const int plane = mu > Real(0) ? r + 1 : r;
    const Real to_plane = distance_to_plane(x, mu, s.surfaces[plane]);
    if (to_collision < to_plane) {
      visit(r, g, to_collision);
      x += mu * to_collision;
      collide(r, g);
      if (!scatter(s, u, r, &g, &mu)) return Fate::Absorbed;
      continue;
    }
    visit(r, g, to_plane);
    x = s.surfaces[plane];
    if (plane == 0 || plane == s.regions) {
      if (!(plane == 0 ? s.reflect_low : s.reflect_high)) return plane == 0 ? Fate::LeakedLow : Fate::LeakedHigh;
      mu = -mu;  // a mirror: the same plane, the other way
    } else {
      r = mu > Real(0) ? r + 1 : r - 1;
    }
  }
}

// Sphere: follows one particle from radius r0 with cosine mu (to the outward
// radius) in group g until it is absorbed or leaks through the outer surface.
template <class Real, class Visit, class Collide>
MCSIM_HD Fate sphere_history(const LayerView<Real>& s, Uniforms<Real>& u, Real r0, Real mu, int g, Visit&& visit,
                             Collide&& collide) {
  Real rad = r0;
  int r = 0;
  while (r + 1 < s.regions && rad >= s.surfaces[r]) ++r;
  for (;;) {
    const Real to_collision = flight_distance(u.next(), s.total[r * s.groups + g]);
    const Real out = distance_out_of_sphere(rad, mu, s.surfaces[r]);
    const Real in = r > 0 ? distance_into_sphere(rad, mu, s.surfaces[r - 1]) : Real(INFINITY);
    const Real to_surface = in < out ? in : out;
    if (to_collision < to_surface) {
      visit(r, g, to_collision);
      sphere_move(&rad, &mu, to_collision);
      collide(r, g);
      if (!scatter(s, u, r, &g, &mu)) return Fate::Absorbed;
      continue;
    }
    visit(r, g, to_surface);
    sphere_move(&rad, &mu, to_surface);
    if (in < out) {
      rad = s.surfaces[r - 1], r -= 1;
    } else if (r + 1 < s.regions) {
      rad = s.surfaces[r], r += 1;
    } else {
      rad = s.surfaces[r];
      if (!s.reflect_high) return Fate::LeakedHigh;
      mu = -mu;  // a mirror sphere: back inwards at the same angle
    }
  }
}

// The flat arrays behind a view, built from a slab or sphere job's regions and
// materials.
template <class Real>
struct LayerArrays {
  int regions = 0, groups = 1;
  bool reflect_low = false, reflect_high = false;
  std::vector<Real> surfaces, total, scatter_out, cumulative, mean_cosine;
  LayerView<Real> view() const {
    return {regions, groups, surfaces.data(), total.data(), scatter_out.data(), cumulative.data(), mean_cosine.data(),
            reflect_low, reflect_high};
  }
};
template <class Real>
LayerArrays<Real> layer_arrays(const TransportSpec& s);

}  // namespace mcsim::transport
