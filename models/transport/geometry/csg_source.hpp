// Where a history starts in a CSG model, written once for host and device: an
// isotropic point, or isotropic emission uniform over a box or a cell, optionally
// only where the material is fissionable (points elsewhere are drawn again).
#pragma once
#include "models/transport/geometry/csg_history.hpp"

namespace mcsim::transport::geometry {

template <class Real>
struct CsgSource {
  // A cell source draws from the box and keeps the points in `cell` (at any level).
  enum Kind : int { Point, Box, Cell } kind = Point;
  Vec3<Real> low{}, high{};  // a point source's place is `low`
  int group = 0, cell = -1;
  bool fissionable_only = false;
  // Per material and group (m G + g): where any group's is above 0, the material fissions.
  const Real* nu_fission = nullptr;
  int groups = 1;
  int max_tries = 10000;  // draws of a point before the history is given up as lost
};

template <class Real>
MCSIM_HD bool fissionable(const CsgSource<Real>& s, int m) {
  for (int g = 0; g < s.groups; ++g)
    if (s.nu_fission[m * s.groups + g] > Real(0)) return true;
  return false;
}

// The source's next particle, its draws from u's uniforms: a direction, then for a
// box or cell a place, drawn again until it is in the model (and in the cell or a
// fissionable material, as asked). False when no such place was found in
// max_tries draws.
template <class Real>
MCSIM_HD bool start_particle(const CsgSource<Real>& s, const CsgView<Real>& g, Uniforms<Real>& u, Particle3<Real>* p) {
  p->w = Real(1), p->g = s.group;
  const Real a = u.next();
  p->u = isotropic_direction(a, u.next());
  if (s.kind == CsgSource<Real>::Point) {
    p->p = s.low;
    return true;
  }
  for (int t = 0; t < s.max_tries; ++t) {
    const Real x = u.next(), y = u.next(), z = u.next();
    p->p = {s.low.x + x * (s.high.x - s.low.x), s.low.y + y * (s.high.y - s.low.y), s.low.z + z * (s.high.z - s.low.z)};
    bool in_cell = s.kind != CsgSource<Real>::Cell;
    const int m = descend(g, p->p, p->u, [&](int, const Level<Real>& level) { in_cell = in_cell || level.cell == s.cell; });
    if (m >= 0 && in_cell && (!s.fissionable_only || fissionable(s, m))) return true;
  }
  return false;
}

}  // namespace mcsim::transport::geometry
