// One particle history through a constructive-solid-geometry model, written once
// for host and device: each flight finds the particle's cell, flies to the next
// collision or to the nearest boundary of any level, and there applies the root
// surfaces' boundary conditions (vacuum: it leaks; reflective: a mirror; periodic:
// it reappears on the partner plane). Collisions are the layered histories'
// (collision_outcome), then a turn of the 3-D direction. A tally sees
//   t.track(place, position, group, weight, direction, length)   (the flight's place: csg_tally.hpp)
//   t.collision(material, group, weight, position)
//   t.absorbed(material, group, weight)
#pragma once
#include <vector>

#include "models/transport/geometry/csg.hpp"
#include "models/transport/history.hpp"

namespace mcsim::transport::geometry {

template <class Real>
struct Particle3 {
  Vec3<Real> p, u;  // position, unit direction
  Real w;
  int g;
  int flights = 0;  // so far; past kMaxFlights the history counts as lost
};

// A history's flights at most (OpenMC's default limit of a particle's events): a
// particle caught by a geometry's flaw ends instead of running forever.
constexpr int kMaxFlights = 1000000;

// A direction uniform on the sphere, from two uniforms.
template <class Real>
MCSIM_HD Vec3<Real> isotropic_direction(Real u_cosine, Real u_azimuth) {
  const Real mu = Real(2) * u_cosine - Real(1), r2 = Real(1) - mu * mu, r = sqrt(r2 > Real(0) ? r2 : Real(0));
  Real s, c;
  azimuth(u_azimuth, &s, &c);
  return {r * c, r * s, mu};
}

// A collision in material m: its outcome, then a scatter's new direction
// (isotropic, or turned from the old one by a linearly anisotropic cosine).
template <class Real, class Tally>
MCSIM_HD bool collide3(const LayerView<Real>& materials, Uniforms<Real>& u, int m, Particle3<Real>& p, Tally& t) {
  if (!collision_outcome(materials, u, m, p.p, p.w, p.g, t)) return false;
  const Real mean = materials.mean_cosine[m];
  if (mean == Real(0)) {
    const Real a = u.next();
    p.u = isotropic_direction(a, u.next());
    return true;
  }
  const Real turn = scattering_cosine(u.next(), mean);
  Real s, c;
  azimuth(u.next(), &s, &c);
  turn_direction(&p.u.x, &p.u.y, &p.u.z, turn, s, c);
  return true;
}

// One flight of p: to a collision (and its outcome) or across the nearest
// boundary. False when the history has ended: absorbed, leaked through the vacuum
// surface *surface (-1: off to infinity through a void), or lost in no cell.
template <class Real, class Tally>
MCSIM_HD bool csg_flight(const CsgView<Real>& g, const LayerView<Real>& materials, Uniforms<Real>& u, Particle3<Real>& p,
                         Tally& t, Fate* fate, int* surface) {
  if (++p.flights > kMaxFlights) {
    *fate = Fate::Lost, *surface = -1;
    return false;
  }
  Place at;
  const Boundary<Real> b = place_flight(g, p.p, p.u, &at);
  const int m = at.material;
  const Real to_collision = m >= 0 ? flight_distance(u.e, materials.mean_free_path[m * materials.groups + p.g]) : Real(0);
  const bool collides = to_collision < b.distance;
  const Real d = collides ? to_collision : b.distance;
  if (m < 0 || !(d < Real(INFINITY))) {  // lost, or flying forever through a boundless void
    *fate = m < 0 ? Fate::Lost : Fate::LeakedHigh, *surface = -1;
    return false;
  }
  t.track(at, p.p, p.g, p.w, p.u, d);
  p.p = p.p + d * p.u;
  if (collides) {
    // A collision within a nudge of the boundary ahead (across it) may have rounded
    // onto or past it, where the next search finds the wrong cell or none: it is
    // moved back inside by the nudge.
    if (b.distance < Real(INFINITY)) {
      const Vec3<Real> n = crossing_normal(g, b, p.u, p.u);
      if ((b.distance - d) * dot(n, p.u) < surface_nudge<Real>()) p.p = p.p - surface_nudge<Real>() * n;
    }
    *fate = Fate::Absorbed;
    return collide3(materials, u, m, p, t);
  }
  const Vec3<Real> u_before = p.u;
  if (b.surface >= 0 && b.level == 0) {
    const int s = b.surface;
    const auto kind = static_cast<SurfaceKind>(g.surface_kind[s]);
    switch (static_cast<SurfaceBoundary>(g.surface_boundary[s])) {
      case SurfaceBoundary::Vacuum:
        *fate = Fate::LeakedHigh, *surface = s;
        return false;
      case SurfaceBoundary::Reflective: p.u = reflect(kind, coefficients_of(g, s), p.p, p.u); break;
      case SurfaceBoundary::Periodic: {  // onto the partner plane of the same axis
        const Real shift = coefficients_of(g, g.periodic_partner[s])[0] - coefficients_of(g, s)[0];
        if (kind == SurfaceKind::XPlane) p.p.x += shift;
        else if (kind == SurfaceKind::YPlane) p.p.y += shift;
        else p.p.z += shift;
        break;
      }
      default: break;
    }
  }
  p.p = p.p + surface_nudge<Real>() * crossing_normal(g, b, u_before, p.u);
  return true;
}

// Follows p until it is absorbed or leaks, each flight on a fresh block of uniforms.
template <class Real, class Tally>
MCSIM_HD Fate csg_history(const CsgView<Real>& g, const LayerView<Real>& materials, Uniforms<Real>& u, Particle3<Real>& p,
                          Tally& t, int* surface) {
  Fate f{};
  *surface = -1;
  do {
    u.renew();
  } while (csg_flight(g, materials, u, p, t, &f, surface));
  return f;
}

// The job's materials as LayerArrays' regions, one per material: a cell names its
// material, not a region.
template <class Real>
LayerArrays<Real> material_arrays(const TransportSpec& s) {
  TransportSpec by_material = s;
  by_material.geometry = Geometry{};
  by_material.region_material.clear();
  for (std::size_t m = 0; m < s.materials.size(); ++m) by_material.region_material.push_back(static_cast<int>(m));
  LayerArrays<Real> a = layer_arrays<Real>(by_material);
  a.regions = static_cast<int>(s.materials.size());
  return a;
}

}  // namespace mcsim::transport::geometry
