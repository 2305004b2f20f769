// Constructive solid geometry as a history reads it, written once for host and
// device: cells are regions over the surfaces' half-spaces, filled with a material,
// a universe (other cells, moved by a translation) or a rectangular or hexagonal
// lattice of universes. Finding a point's cell walks down from the root universe, a level per
// fill; the distance to a cell's boundary is the least over the levels of the
// distances to the surfaces of each level's region and to the lattice element's
// walls. The arrays come from Geometry (csg_geometry.hpp), on host or device.
#pragma once
#include <cstdint>

#include "models/transport/geometry/surface.hpp"

namespace mcsim::transport::geometry {

// A region in postfix: a token >= 0 is the half-space of surface token >> 1, "+"
// when token & 1; the operators pop their operands and push the result.
enum RegionOp : int { kAnd = -1, kOr = -2, kNot = -3 };
constexpr int kMaxRegionDepth = 16;  // the evaluation stack (the parser refuses deeper regions)
constexpr int kMaxLevels = 8;        // fills within fills

enum class Fill : int { Material, Universe, Lattice };

// A lattice's elements: boxes, or hexagons with neighbours above and below (HexY:
// flat top and bottom faces) or beside (HexX: flat left and right faces).
enum class LatticeKind : int { Rectangular, HexY, HexX };

// What a particle meets at a surface of the root universe's cells.
enum class SurfaceBoundary : int { Transmission, Vacuum, Reflective, Periodic };

template <class Real>
struct CsgView {
  int surfaces, cells, universes, lattices, root;
  const int* surface_kind;          // a SurfaceKind per surface
  const Real* coefficients;         // kSurfaceCoefficients per surface
  const int* surface_boundary;      // a SurfaceBoundary per surface (it acts on the root universe's surfaces)
  const int* periodic_partner;      // per surface: the plane a periodic boundary leads to, else -1
  const int* region_begin;          // cells + 1 offsets into region_tokens
  const int* region_tokens;
  const int* fill_kind;             // a Fill per cell
  const int* fill;                  // its material, universe or lattice
  const Real* translation;          // 3 per cell: a filled universe's origin in the cell's coordinates
  const int* universe_begin;        // universes + 1 offsets into universe_cells
  const int* universe_cells;
  // Lattices: per lattice lower-left corner and pitch (3 each; a 2-D lattice has
  // nz = 1 and an infinite z pitch), shape (3 ints), the offset of its element
  // universes in lattice_universes ((k ny + j) nx + i, j = 0 the lowest row), and
  // the universe outside its elements (-1: none). A hexagonal lattice of n rings
  // keeps its centre (x, y; and its lowest z) as lower-left corner, the distance
  // between neighbouring centres as pitch (x, y; the layers' height as z), and a
  // layer's elements by axial indices: i - (n - 1) steps of the first neighbour
  // (HexY: 30 degrees up from x; HexX: along x), j - (n - 1) of the second (HexY:
  // along y; HexX: 60 degrees), in a (2n - 1)^2 square whose corners beyond ring
  // n - 1 hold -1.
  const int* lattice_kind;  // a LatticeKind per lattice
  const Real* lattice_lower_left;
  const Real* lattice_pitch;
  const int* lattice_shape;
  const int* lattice_begin;
  const int* lattice_universes;
  const int* lattice_outer;
};

template <class Real>
MCSIM_HD const Real* coefficients_of(const CsgView<Real>& g, int s) {
  return g.coefficients + static_cast<std::size_t>(s) * kSurfaceCoefficients;
}

// Whether p (moving along u) is inside cell c's region. The evaluation stack is
// the bits of a word (top the lowest), so a GPU keeps it in a register.
static_assert(kMaxRegionDepth <= 32, "the region stack is one 32-bit word");
template <class Real>
MCSIM_HD bool in_cell(const CsgView<Real>& g, int c, Vec3<Real> p, Vec3<Real> u) {
  unsigned stack = 0;
  int top = 0;
  for (int t = g.region_begin[c]; t < g.region_begin[c + 1]; ++t) {
    const int token = g.region_tokens[t];
    if (token >= 0) {
      const int s = token >> 1;
      const bool positive = positive_side(static_cast<SurfaceKind>(g.surface_kind[s]), coefficients_of(g, s), p, u);
      stack = stack << 1 | static_cast<unsigned>(positive == ((token & 1) != 0)), ++top;
    } else if (token == kNot) {
      stack ^= 1u;
    } else {
      const unsigned b = stack & 1u, a = stack >> 1 & 1u;
      stack = (stack >> 2) << 1 | (token == kAnd ? a & b : a | b), --top;
    }
  }
  return top == 0 || (stack & 1u) != 0;  // an empty region is everywhere
}

// One level of a point's place: the universe, the cell of it holding the point,
// and the point in that universe's coordinates; for a lattice fill, the element
// (outside the lattice's elements: the one it would be) and the point in the
// element's coordinates, centred on it.
template <class Real>
struct Level {
  int universe, cell;
  Vec3<Real> p;
  int lattice, i, j, k;  // lattice -1: the cell's fill is not a lattice
  Vec3<Real> q;
};

template <class Real>
struct Location {
  int levels = 0;          // 0: the point is in no cell of the root universe
  int material = -1;       // the deepest cell's; -1 when lost
  Level<Real> level[kMaxLevels];
};

// A hexagonal lattice's two axial steps as (x, y) per unit pitch; the third
// neighbour is their difference.
template <class Real>
MCSIM_HD void hex_steps(LatticeKind kind, Real a[2], Real b[2]) {
  const Real half_root3 = Real(0.8660254037844386);
  if (kind == LatticeKind::HexY) a[0] = half_root3, a[1] = Real(0.5), b[0] = Real(0), b[1] = Real(1);
  else a[0] = Real(1), a[1] = Real(0), b[0] = Real(0.5), b[1] = half_root3;
}

// A hexagon's wall axis x (0, 1, 2): the unit steps to its neighbours a, b and
// a - b, so its walls are the slabs |q . axis| <= pitch / 2.
template <class Real>
MCSIM_HD Vec3<Real> hex_axis(LatticeKind kind, int x) {
  Real a[2], b[2];
  hex_steps(kind, a, b);
  return x == 0 ? Vec3<Real>{a[0], a[1], Real(0)} : x == 1 ? Vec3<Real>{b[0], b[1], Real(0)}
                                                  : Vec3<Real>{a[0] - b[0], a[1] - b[1], Real(0)};
}

// The element of lattice l holding p, and p in the element's coordinates, centred
// on it; false when p is outside the lattice's elements (a hexagonal lattice's
// element indices are then -1).
template <class Real>
MCSIM_HD bool lattice_element(const CsgView<Real>& g, int l, Vec3<Real> p, int* i, int* j, int* k, Vec3<Real>* local) {
  const Real* ll = g.lattice_lower_left + 3 * l;
  const Real* pitch = g.lattice_pitch + 3 * l;
  const int* shape = g.lattice_shape + 3 * l;
  const auto kind = static_cast<LatticeKind>(g.lattice_kind[l]);
  // Along z (a lattice of one layer is infinite in z): the layer, and p about its middle.
  const int layer = shape[2] == 1 ? 0 : static_cast<int>(floor((p.z - ll[2]) / pitch[2]));
  const Real z = shape[2] == 1 ? p.z : p.z - (ll[2] + (Real(layer) + Real(0.5)) * pitch[2]);
  if (kind != LatticeKind::Rectangular) {
    // The nearest centre: p lies in a rhombus of two equilateral triangles, so it
    // is one of the rhombus's four corners.
    Real a[2], b[2];
    hex_steps(kind, a, b);
    const Real x = (p.x - ll[0]) / pitch[0], y = (p.y - ll[1]) / pitch[0];
    const Real fb = (a[0] * y - a[1] * x) / (a[0] * b[1] - a[1] * b[0]), fa = (x - fb * b[0]) / a[0];
    const int a0 = static_cast<int>(floor(fa)), b0 = static_cast<int>(floor(fb));
    int best_a = a0, best_b = b0;
    Real best = static_cast<Real>(INFINITY), dx = 0, dy = 0;
    for (int c = 0; c < 4; ++c) {
      const int ca = a0 + (c & 1), cb = b0 + (c >> 1);
      const Real ex = x - (Real(ca) * a[0] + Real(cb) * b[0]), ey = y - (Real(ca) * a[1] + Real(cb) * b[1]);
      const Real d = ex * ex + ey * ey;
      if (d < best) best = d, best_a = ca, best_b = cb, dx = ex, dy = ey;
    }
    *local = {dx * pitch[0], dy * pitch[0], z};
    const int n = (shape[0] + 1) / 2, ab = best_a + best_b;
    const int ra = best_a < 0 ? -best_a : best_a, rb = best_b < 0 ? -best_b : best_b, rab = ab < 0 ? -ab : ab;
    // Its ring, the largest of the three, is below n, and its layer one of the lattice's.
    const bool inside = ra < n && rb < n && rab < n && layer >= 0 && layer < shape[2];
    *i = inside ? best_a + n - 1 : -1, *j = inside ? best_b + n - 1 : -1, *k = inside ? layer : -1;
    return inside;
  }
  *i = static_cast<int>(floor((p.x - ll[0]) / pitch[0]));
  *j = static_cast<int>(floor((p.y - ll[1]) / pitch[1]));
  *k = layer;
  *local = {p.x - (ll[0] + (Real(*i) + Real(0.5)) * pitch[0]), p.y - (ll[1] + (Real(*j) + Real(0.5)) * pitch[1]), z};
  return *i >= 0 && *i < shape[0] && *j >= 0 && *j < shape[1] && *k >= 0 && *k < shape[2];
}

// Down one level from `level` (its universe, cell and point set), whose cell is
// filled with a universe or a lattice: the universe the point is in next, and the
// point in that universe's coordinates in *p; for a lattice, the element in
// `level`. -1 when the point is outside a lattice without an outer universe.
template <class Real>
MCSIM_HD int enter_fill(const CsgView<Real>& g, Level<Real>& level, Vec3<Real>* p) {
  const int c = level.cell;
  if (static_cast<Fill>(g.fill_kind[c]) == Fill::Universe) {
    const Real* t = g.translation + 3 * c;
    *p = {p->x - t[0], p->y - t[1], p->z - t[2]};
    return g.fill[c];
  }
  const int l = g.fill[c];
  level.lattice = l;
  if (!lattice_element(g, l, *p, &level.i, &level.j, &level.k, &level.q)) return g.lattice_outer[l];
  *p = level.q;
  const int* shape = g.lattice_shape + 3 * l;
  return g.lattice_universes[g.lattice_begin[l] + (level.k * shape[1] + level.j) * shape[0] + level.i];
}

// A lattice element's walls as slabs about its centre: per axis, q's and u's
// components along it and the half-width; returns the axes. A box's axes are x, y
// (and z in 3-D), half a pitch each; a hexagon's the unit steps to its neighbours
// a, b and a - b, half a pitch each (and z in 3-D, half the layers' height).
constexpr int kMaxWallAxes = 4;
template <class Real>
MCSIM_HD int element_walls(const CsgView<Real>& g, int l, Vec3<Real> q, Vec3<Real> u, Real pos[kMaxWallAxes],
                           Real dir[kMaxWallAxes], Real half[kMaxWallAxes]) {
  const Real* pitch = g.lattice_pitch + 3 * l;
  const auto kind = static_cast<LatticeKind>(g.lattice_kind[l]);
  const bool layered = g.lattice_shape[3 * l + 2] > 1;
  if (kind == LatticeKind::Rectangular) {
    pos[0] = q.x, pos[1] = q.y, pos[2] = q.z, dir[0] = u.x, dir[1] = u.y, dir[2] = u.z;
    for (int x = 0; x < 3; ++x) half[x] = Real(0.5) * pitch[x];
    return layered ? 3 : 2;
  }
  MCSIM_UNROLL
  for (int x = 0; x < 3; ++x) {
    const Vec3<Real> n = hex_axis<Real>(kind, x);
    pos[x] = q.x * n.x + q.y * n.y, dir[x] = u.x * n.x + u.y * n.y, half[x] = Real(0.5) * pitch[0];
  }
  pos[3] = q.z, dir[3] = u.z, half[3] = Real(0.5) * pitch[2];
  return layered ? 4 : 3;
}

// Walks from the root universe down to a material: at each level the cell holding
// p (moving along u), then into its fill. visit(depth, level) sees every level
// reached, its universe, cell and point set (and for a lattice fill its element).
// Returns the material, or -1 when p is in no cell of a universe it reaches or
// outside a lattice with no outer universe (lost). The flight visits each level as
// it goes rather than keep them all: a GPU thread then holds one level, not eight.
template <class Real, class Visit>
MCSIM_HD int descend(const CsgView<Real>& g, Vec3<Real> p, Vec3<Real> u, Visit&& visit) {
  int universe = g.root;
  for (int depth = 0; universe >= 0 && depth < kMaxLevels; ++depth) {
    int found = -1;
    for (int m = g.universe_begin[universe]; m < g.universe_begin[universe + 1]; ++m)
      if (in_cell(g, g.universe_cells[m], p, u)) {
        found = g.universe_cells[m];
        break;
      }
    if (found < 0) return -1;
    Level<Real> level{universe, found, p, -1, 0, 0, 0, p};
    const bool material = static_cast<Fill>(g.fill_kind[found]) == Fill::Material;
    if (!material) universe = enter_fill(g, level, &p);
    visit(depth, static_cast<const Level<Real>&>(level));
    if (material) return g.fill[found];
  }
  return -1;
}

// Where p (moving along u) is: the cells from the root universe down to a material.
template <class Real>
MCSIM_HD Location<Real> locate(const CsgView<Real>& g, Vec3<Real> p, Vec3<Real> u) {
  Location<Real> loc;
  loc.material = descend(g, p, u, [&](int depth, const Level<Real>& level) {
    loc.level[depth] = level;
    loc.levels = depth + 1;
  });
  return loc;
}

// The flat index of a lattice level's element ((k ny + j) nx + i), or -1 when the
// point is outside the lattice's elements.
template <class Real>
MCSIM_HD int element_index(const CsgView<Real>& g, const Level<Real>& v) {
  const int* shape = g.lattice_shape + 3 * v.lattice;
  const bool inside = v.i >= 0 && v.i < shape[0] && v.j >= 0 && v.j < shape[1] && v.k >= 0 && v.k < shape[2];
  return inside ? (v.k * shape[1] + v.j) * shape[0] + v.i : -1;
}

// How far past a surface (along its normal) a crossing puts a particle, so that
// the search of its next cell finds the cell beyond: more than ten roundings of a
// position of a metre (float; a hundred thousand in double), far below any flight.
// Boundaries closer together than this are one.
template <class Real>
MCSIM_HD Real surface_nudge() {
  return sizeof(Real) == sizeof(float) ? Real(1e-4) : Real(1e-9);
}

// What a flight from a location meets first: its distance, and the surface (or
// -1 for a lattice element's wall, then that lattice and the wall's axis as
// element_walls numbers them), the level it belongs to and the flight's start in
// that level's coordinates.
template <class Real>
struct Boundary {
  Real distance = static_cast<Real>(INFINITY);
  int surface = -1, level = -1, axis = -1, lattice = -1;
  Vec3<Real> at{};
};

// Level l's part of distance_to_boundary: its cell's surfaces and its lattice
// element's walls, each taken into *b if the rule below lets it.
template <class Real>
MCSIM_HD void level_boundary(const CsgView<Real>& g, const Level<Real>& level, int l, Vec3<Real> u, Boundary<Real>* b) {
  const Real tie = surface_nudge<Real>();
  for (int t = g.region_begin[level.cell]; t < g.region_begin[level.cell + 1]; ++t) {
    const int token = g.region_tokens[t];
    if (token < 0) continue;
    const int s = token >> 1;
    const auto kind = static_cast<SurfaceKind>(g.surface_kind[s]);
    const Real d = surface_distance(kind, coefficients_of(g, s), level.p, u);
    if (d < b->distance &&
        (b->level < 0 || b->level == l || (b->distance - d) * normal_cosine(kind, coefficients_of(g, s), level.p + d * u, u) > tie))
      b->distance = d, b->surface = s, b->level = l, b->axis = -1, b->at = level.p;
  }
  if (level.lattice < 0) return;
  Real pos[kMaxWallAxes], dir[kMaxWallAxes], half[kMaxWallAxes];
  const int axes = element_walls(g, level.lattice, level.q, u, pos, dir, half);
  MCSIM_UNROLL  // constant indices keep the walls in registers
  for (int a = 0; a < kMaxWallAxes; ++a) {
    if (a >= axes || dir[a] == Real(0)) continue;
    const Real d = ((dir[a] > Real(0) ? half[a] : -half[a]) - pos[a]) / dir[a];
    if (d < b->distance && (b->level < 0 || (b->distance - d) * (dir[a] < Real(0) ? -dir[a] : dir[a]) > tie))
      b->distance = d > Real(0) ? d : Real(0), b->surface = -1, b->level = l, b->axis = a, b->lattice = level.lattice;
  }
}

// The distance along u from the location's point to the nearest boundary of any of
// its levels' cells or lattice elements. Where boundaries coincide (a lattice's
// outer wall on its cell's plane, one plane in two universes) the surface of the
// highest level wins, so the root's boundary conditions are not missed by a
// rounding: a later candidate must be nearer by more than surface_nudge measured
// across it (along the flight, that over the cosine to its normal: a grazing
// flight's distances to two coincident planes differ by a rounding over it).
template <class Real>
MCSIM_HD Boundary<Real> distance_to_boundary(const CsgView<Real>& g, const Location<Real>& loc, Vec3<Real> u) {
  Boundary<Real> b;
  for (int l = 0; l < loc.levels; ++l) level_boundary(g, loc.level[l], l, u, &b);
  return b;
}

// What a flight's tallies need of where it starts: the material, the deepest
// cell, and per level the lattice its cell is filled with (-1: none) and the
// element's flat index (-1: outside the elements).
struct Place {
  int levels = 0, material = -1, cell = -1;
  int lattice[kMaxLevels], element[kMaxLevels];
};

// A flight's start: its place, and the nearest boundary ahead (distance_to_boundary
// of its location), in one walk down the levels.
template <class Real>
MCSIM_HD Boundary<Real> place_flight(const CsgView<Real>& g, Vec3<Real> p, Vec3<Real> u, Place* at) {
  Boundary<Real> b;
  at->levels = 0;
  at->material = descend(g, p, u, [&](int l, const Level<Real>& level) {
    at->levels = l + 1, at->cell = level.cell;
    at->lattice[l] = level.lattice, at->element[l] = level.lattice >= 0 ? element_index(g, level) : -1;
    level_boundary(g, level, l, u, &b);
  });
  return b;
}

// The unit normal of the boundary b that a flight along u crosses at b's
// distance, pointing to the side `onward` leaves it to (onward is u, or the
// mirrored direction at a reflective surface). The crossing's nudge goes along it:
// a nudge along the flight moves a grazing particle by less than a rounding of its
// position across the boundary, and the next search would find the cell it left.
template <class Real>
MCSIM_HD Vec3<Real> crossing_normal(const CsgView<Real>& g, const Boundary<Real>& b, Vec3<Real> u, Vec3<Real> onward) {
  Vec3<Real> n{};
  if (b.surface >= 0) {
    const int s = b.surface;
    n = surface_gradient(static_cast<SurfaceKind>(g.surface_kind[s]), coefficients_of(g, s), b.at + b.distance * u);
  } else if (static_cast<LatticeKind>(g.lattice_kind[b.lattice]) == LatticeKind::Rectangular) {
    n = {Real(b.axis == 0), Real(b.axis == 1), Real(b.axis == 2)};
  } else if (b.axis == 3) {  // a hexagonal layer's floor or ceiling
    n.z = Real(1);
  } else {
    n = hex_axis<Real>(static_cast<LatticeKind>(g.lattice_kind[b.lattice]), b.axis);
  }
  const Real length = sqrt(dot(n, n));
  if (!(length > Real(0))) return onward;
  return (dot(n, onward) < Real(0) ? -Real(1) / length : Real(1) / length) * n;
}

}  // namespace mcsim::transport::geometry
