// Surfaces of constructive solid geometry, written once for host and device: each
// a quadric f(p) = 0 whose negative side f(p) < 0 is its "-" half-space, as in
// OpenMC. Planes and axis-aligned cylinders and spheres keep their own short
// forms; every other quadric takes the general ten coefficients.
#pragma once
#include <cmath>

#include "rng/hd.hpp"

namespace mcsim::transport::geometry {

template <class Real>
struct Vec3 {
  Real x, y, z;
};
template <class Real>
MCSIM_HD Vec3<Real> operator+(Vec3<Real> a, Vec3<Real> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class Real>
MCSIM_HD Vec3<Real> operator-(Vec3<Real> a, Vec3<Real> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class Real>
MCSIM_HD Vec3<Real> operator*(Real s, Vec3<Real> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class Real>
MCSIM_HD Real dot(Vec3<Real> a, Vec3<Real> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// The kinds and their coefficients c[]:
//   XPlane x0 | YPlane y0 | ZPlane z0 | Plane A B C D (A x + B y + C z = D)
//   XCylinder y0 z0 r | YCylinder x0 z0 r | ZCylinder x0 y0 r | Sphere x0 y0 z0 r
//   Quadric a b c d e f g h j k: a x^2 + b y^2 + c z^2 + d xy + e yz + f xz + g x + h y + j z + k
enum class SurfaceKind : int { XPlane, YPlane, ZPlane, Plane, XCylinder, YCylinder, ZCylinder, Sphere, Quadric };
constexpr int kSurfaceCoefficients = 10;

// f along the ray p + t u as A t^2 + 2 B t + C (C = f(p)), and the gradient at p.
template <class Real>
struct AlongRay {
  Real A, B, C;
};

template <class Real>
MCSIM_HD Real sq(Real v) { return v * v; }

template <class Real>
MCSIM_HD AlongRay<Real> along_ray(SurfaceKind kind, const Real* c, Vec3<Real> p, Vec3<Real> u) {
  switch (kind) {
    case SurfaceKind::XPlane: return {Real(0), Real(0.5) * u.x, p.x - c[0]};
    case SurfaceKind::YPlane: return {Real(0), Real(0.5) * u.y, p.y - c[0]};
    case SurfaceKind::ZPlane: return {Real(0), Real(0.5) * u.z, p.z - c[0]};
    case SurfaceKind::Plane:
      return {Real(0), Real(0.5) * (c[0] * u.x + c[1] * u.y + c[2] * u.z), c[0] * p.x + c[1] * p.y + c[2] * p.z - c[3]};
    case SurfaceKind::XCylinder: {
      const Real a = p.y - c[0], b = p.z - c[1];
      return {sq(u.y) + sq(u.z), a * u.y + b * u.z, sq(a) + sq(b) - sq(c[2])};
    }
    case SurfaceKind::YCylinder: {
      const Real a = p.x - c[0], b = p.z - c[1];
      return {sq(u.x) + sq(u.z), a * u.x + b * u.z, sq(a) + sq(b) - sq(c[2])};
    }
    case SurfaceKind::ZCylinder: {
      const Real a = p.x - c[0], b = p.y - c[1];
      return {sq(u.x) + sq(u.y), a * u.x + b * u.y, sq(a) + sq(b) - sq(c[2])};
    }
    case SurfaceKind::Sphere: {
      const Vec3<Real> d{p.x - c[0], p.y - c[1], p.z - c[2]};
      return {dot(u, u), dot(d, u), dot(d, d) - sq(c[3])};
    }
    default: {  // the general quadric: f(p + t u) expanded
      const Real a = c[0], b = c[1], cc = c[2], d = c[3], e = c[4], f = c[5], g = c[6], h = c[7], j = c[8], k = c[9];
      const Real A = a * sq(u.x) + b * sq(u.y) + cc * sq(u.z) + d * u.x * u.y + e * u.y * u.z + f * u.x * u.z;
      const Real B = a * p.x * u.x + b * p.y * u.y + cc * p.z * u.z +
                     Real(0.5) * (d * (p.x * u.y + p.y * u.x) + e * (p.y * u.z + p.z * u.y) + f * (p.x * u.z + p.z * u.x) +
                                  g * u.x + h * u.y + j * u.z);
      const Real C = a * sq(p.x) + b * sq(p.y) + cc * sq(p.z) + d * p.x * p.y + e * p.y * p.z + f * p.x * p.z + g * p.x +
                     h * p.y + j * p.z + k;
      return {A, B, C};
    }
  }
}

// Which side of the surface p is on, moving along u: on the surface itself, the
// side u points to (so a particle just across a surface is on its new side).
template <class Real>
MCSIM_HD bool positive_side(SurfaceKind kind, const Real* c, Vec3<Real> p, Vec3<Real> u) {
  const AlongRay<Real> r = along_ray(kind, c, p, u);
  return r.C > Real(0) || (r.C == Real(0) && r.B > Real(0));
}

// The distance along u from p to the surface: the smallest root t > 0 of
// A t^2 + 2 B t + C, or infinity. Roots are taken in the form that does not
// cancel (q = -(B + sign(B) sqrt(B^2 - A C)), roots q / A and C / q).
template <class Real>
MCSIM_HD Real surface_distance(SurfaceKind kind, const Real* c, Vec3<Real> p, Vec3<Real> u) {
  const Real inf = INFINITY;
  const AlongRay<Real> r = along_ray(kind, c, p, u);
  if (r.A == Real(0)) {  // a plane, or a ray along a cylinder's axis
    if (r.B == Real(0)) return inf;
    const Real t = -r.C / (Real(2) * r.B);
    return t > Real(0) ? t : inf;
  }
  const Real disc = r.B * r.B - r.A * r.C;
  if (disc < Real(0)) return inf;
  const Real q = -(r.B + (r.B < Real(0) ? -sqrt(disc) : sqrt(disc)));
  const Real t1 = q / r.A, t2 = q != Real(0) ? r.C / q : t1;
  const Real lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
  return lo > Real(0) ? lo : hi > Real(0) ? hi : inf;
}

// The surface's gradient at p (an outward normal of its "-" side, not unit length).
template <class Real>
MCSIM_HD Vec3<Real> surface_gradient(SurfaceKind kind, const Real* c, Vec3<Real> p) {
  switch (kind) {
    case SurfaceKind::XPlane: return {Real(1), Real(0), Real(0)};
    case SurfaceKind::YPlane: return {Real(0), Real(1), Real(0)};
    case SurfaceKind::ZPlane: return {Real(0), Real(0), Real(1)};
    case SurfaceKind::Plane: return {c[0], c[1], c[2]};
    case SurfaceKind::XCylinder: return {Real(0), Real(2) * (p.y - c[0]), Real(2) * (p.z - c[1])};
    case SurfaceKind::YCylinder: return {Real(2) * (p.x - c[0]), Real(0), Real(2) * (p.z - c[1])};
    case SurfaceKind::ZCylinder: return {Real(2) * (p.x - c[0]), Real(2) * (p.y - c[1]), Real(0)};
    case SurfaceKind::Sphere: return {Real(2) * (p.x - c[0]), Real(2) * (p.y - c[1]), Real(2) * (p.z - c[2])};
    default:
      return {Real(2) * c[0] * p.x + c[3] * p.y + c[5] * p.z + c[6], Real(2) * c[1] * p.y + c[3] * p.x + c[4] * p.z + c[7],
              Real(2) * c[2] * p.z + c[4] * p.y + c[5] * p.x + c[8]};
  }
}

// |cos| of the angle between u and the surface's normal at p (0 where it has none).
template <class Real>
MCSIM_HD Real normal_cosine(SurfaceKind kind, const Real* c, Vec3<Real> p, Vec3<Real> u) {
  const Vec3<Real> n = surface_gradient(kind, c, p);
  const Real nn = dot(n, n), un = dot(u, n);
  return nn > Real(0) ? (un < Real(0) ? -un : un) / sqrt(nn) : Real(0);
}

// u mirrored in the surface at p: u - 2 (u.n / n.n) n.
template <class Real>
MCSIM_HD Vec3<Real> reflect(SurfaceKind kind, const Real* c, Vec3<Real> p, Vec3<Real> u) {
  const Vec3<Real> n = surface_gradient(kind, c, p);
  const Real nn = dot(n, n);
  return nn > Real(0) ? u - (Real(2) * dot(u, n) / nn) * n : u;
}

}  // namespace mcsim::transport::geometry
