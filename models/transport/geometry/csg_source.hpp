// Where a fixed-source history starts in a CSG model, written once for host and
// device: an isotropic point, or isotropic emission uniform over a box, optionally
// only where the material is fissionable (points elsewhere are drawn again).
#pragma once
#include "models/transport/geometry/csg_history.hpp"

namespace mcsim::transport::geometry {

template <class Real>
struct CsgSource {
  enum Kind : int { Point, Box } kind = Point;
  Vec3<Real> low{}, high{};  // a point source's place is `low`
  int group = 0;
  bool fissionable_only = false;
  const int* fissionable = nullptr;  // per material: 1 where it fissions (fissionable_only)
  int max_tries = 10000;             // draws of a box point before the history is given up as lost
};

// The source's next particle, its draws from u (a fresh block for each try).
// False when no fissionable point was found in max_tries draws.
template <class Real>
MCSIM_HD bool start_particle(const CsgSource<Real>& s, const CsgView<Real>& g, Uniforms<Real>& u, Particle3<Real>* p) {
  p->w = Real(1), p->g = s.group;
  for (int t = 0; t < s.max_tries; ++t) {
    u.renew();
    const Real a = u.next();
    p->u = isotropic_direction(a, u.next());
    if (s.kind == CsgSource<Real>::Point) {
      p->p = s.low;
      return true;
    }
    const Real x = u.next();
    u.renew();
    const Real y = u.next(), z = u.next();
    p->p = {s.low.x + x * (s.high.x - s.low.x), s.low.y + y * (s.high.y - s.low.y), s.low.z + z * (s.high.z - s.low.z)};
    if (!s.fissionable_only) return true;
    const int m = locate(g, p->p, p->u).material;
    if (m >= 0 && s.fissionable[m]) return true;
  }
  return false;
}

}  // namespace mcsim::transport::geometry
