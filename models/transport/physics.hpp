// The sampling and tracking maths of a particle history, written once for host and
// device: flight distances, scattering angles, and distances to the surfaces of
// slabs and spheres. A sphere's particle is tracked by its radius r and the cosine
// mu between its direction and the outward radial direction; a slab's by x and the
// cosine with the x axis.
#pragma once
#include <cmath>

#include "rng/hd.hpp"

namespace mcsim::transport {

// A standard exponential from a uniform u in (0, 1]. (In float, the fast
// logarithm of rng/hd.hpp.)
template <class Real>
MCSIM_HD Real exponential(Real u) {
  return -fast_log(u);
}

// The distance to the next collision in a medium of mean free path
// 1 / (total cross section), from a standard exponential e.
template <class Real>
MCSIM_HD Real flight_distance(Real e, Real mean_free_path) {
  return e * mean_free_path;
}

// The sine and cosine of a uniform azimuth, from a uniform u.
template <class Real>
MCSIM_HD void azimuth(Real u, Real* s, Real* c) {
  fast_sincos(Real(6.283185307179586) * u, s, c);
}
template <class Real>
MCSIM_HD Real azimuth_cosine(Real u) {
  Real s, c;
  azimuth(u, &s, &c);
  return c;
}

// A scattering cosine from a uniform u in (0, 1) under the linearly anisotropic law
// p(mu) = (1 + 3 m mu) / 2 on [-1, 1], |m| <= 1/3 its mean (m = 0: isotropic,
// mu = 2u - 1). Its distribution function is (mu + 1) / 2 + 3 m (mu^2 - 1) / 4;
// the root is taken in the form that stays exact as m goes to 0.
template <class Real>
MCSIM_HD Real scattering_cosine(Real u, Real mean) {
  const Real a = Real(0.75) * mean, c = Real(0.5) - a - u;  // a mu^2 + mu / 2 + c = 0
  const Real disc = Real(0.25) - Real(4) * a * c;
  const Real mu = Real(-2) * c / (Real(0.5) + sqrt(disc > Real(0) ? disc : Real(0)));
  return mu < Real(-1) ? Real(-1) : mu > Real(1) ? Real(1) : mu;
}

// The direction cosine with an axis after turning by a cosine mu0 from a direction
// with cosine mu, at azimuth phi about the old direction.
template <class Real>
MCSIM_HD Real turned_cosine(Real mu, Real mu0, Real cos_phi) {
  const Real s = (Real(1) - mu * mu) * (Real(1) - mu0 * mu0);
  const Real out = mu * mu0 + sqrt(s > Real(0) ? s : Real(0)) * cos_phi;
  return out < Real(-1) ? Real(-1) : out > Real(1) ? Real(1) : out;
}

// A unit direction (x, y, z) turned by the cosine mu0 at an azimuth (sine, cosine)
// about it: the cosine with the old direction is mu0. Written about the z axis,
// or about the y axis for directions close to z, where the first form divides by
// nearly nothing; renormalised against rounding.
template <class Real>
MCSIM_HD void turn_direction(Real* x, Real* y, Real* z, Real mu0, Real sin_phi, Real cos_phi) {
  const Real a2 = Real(1) - mu0 * mu0, a = sqrt(a2 > Real(0) ? a2 : Real(0));
  Real nx, ny, nz;
  if (*z * *z < Real(0.99)) {
    const Real b = sqrt(Real(1) - *z * *z);
    nx = mu0 * *x + a * (*x * *z * cos_phi - *y * sin_phi) / b;
    ny = mu0 * *y + a * (*y * *z * cos_phi + *x * sin_phi) / b;
    nz = mu0 * *z - a * b * cos_phi;
  } else {
    const Real b = sqrt(Real(1) - *y * *y);
    nx = mu0 * *x + a * (*x * *y * cos_phi + *z * sin_phi) / b;
    ny = mu0 * *y - a * b * cos_phi;
    nz = mu0 * *z + a * (*y * *z * cos_phi - *x * sin_phi) / b;
  }
  const Real norm = Real(1) / sqrt(nx * nx + ny * ny + nz * nz);
  *x = nx * norm, *y = ny * norm, *z = nz * norm;
}

// Slab: the distance from x to the plane at `plane` along a direction of cosine
// mu, given as inv_mu = 1 / mu; 0 on it and moving on, infinite when the particle
// moves away from it or parallel to it.
template <class Real>
MCSIM_HD Real distance_to_plane(Real x, Real inv_mu, Real plane) {
  const Real d = (plane - x) * inv_mu;
  return d >= Real(0) ? d : Real(INFINITY);
}

// Sphere, from inside the sphere of radius R (r <= R): the distance along cosine mu
// to its surface, always ahead.
template <class Real>
MCSIM_HD Real distance_out_of_sphere(Real r, Real mu, Real R) {
  const Real left = R * R - r * r * (Real(1) - mu * mu);  // R^2 minus the line's squared distance from the centre
  return -r * mu + sqrt(left > Real(0) ? left : Real(0));
}

// Sphere, from outside the sphere of radius R (r >= R): the distance to where the
// line enters it; infinite when the particle moves outwards or the line misses.
template <class Real>
MCSIM_HD Real distance_into_sphere(Real r, Real mu, Real R) {
  const Real left = R * R - r * r * (Real(1) - mu * mu);
  if (!(mu < Real(0)) || !(left > Real(0))) return Real(INFINITY);
  const Real d = -r * mu - sqrt(left);
  return d > Real(0) ? d : Real(0);
}

// Sphere: radius and cosine after a flight of d from (r, mu).
template <class Real>
MCSIM_HD void sphere_move(Real* r, Real* mu, Real d) {
  const Real r2 = *r * *r + Real(2) * *r * d * *mu + d * d;
  const Real next = sqrt(r2 > Real(0) ? r2 : Real(0));
  *mu = next > Real(0) ? (*r * *mu + d) / next : Real(1);
  *r = next;
}

}  // namespace mcsim::transport
