// One particle history through layered slabs or concentric spheres, written once
// for host and device: flights to the next collision or surface, reflection at
// mirror surfaces, absorption (analog, or implicit capture with Russian roulette),
// scattering into a new group and cosine, and the end of the history by absorption
// or leakage. A tally object sees every event, so scoring stays outside the maths:
//   t.track(region, group, weight, position, cosine, length)   a track segment
//   t.collision(region, group, weight, position)               before its outcome
//   t.absorbed(region, group, weight)                          the weight absorbed
// An infinite medium is a slab with its planes at -+infinity.
#pragma once
#include <vector>

#include "models/transport/physics.hpp"
#include "models/transport/transport_spec.hpp"
#include "rng/stream.hpp"

namespace mcsim::transport {

// The regions as a history reads them, through pointers to host or device copies.
// Per region r and group g: mean_free_path[r G + g], one over the total cross
// section (flights and scores multiply by it: a division costs as much as several
// multiplies), scatter_probability[r G + g], the chance that a collision
// scatters (scatter over total), and the cumulative scatter row
// cumulative[(r G + g) G + h] (the probability, given a scatter, of leaving in
// group h or faster); mean_cosine per region.
template <class Real>
struct LayerView {
  int regions, groups;
  const Real* surfaces;  // a slab's regions + 1 planes, or a sphere's regions radii; increasing
  const Real* mean_free_path;
  const Real* scatter_probability;
  const Real* cumulative;
  const Real* mean_cosine;
  bool reflect_low, reflect_high;  // mirrors at the first and last surface (a sphere's outer one is `high`)
  // Implicit capture: a collision keeps weight * scatter / total; below `cutoff`
  // a particle survives Russian roulette with probability weight / survival.
  bool implicit_capture;
  Real cutoff, survival;
};

// Where a particle is: a slab's x or a sphere's radius, the cosine with the x axis
// or the outward radius, its weight and energy group.
template <class Real>
struct Particle {
  Real pos, mu, w;
  int g;
};

// What a flight draws first: the exponential of its distance to the next
// collision and three uniforms, from four uniforms of the history's stream (one
// Philox block in float, two in double). Every flight draws one, at one place in
// the code: a GPU warp then draws its threads' blocks together, not wherever a
// thread happens to run out, and the CPU draws a batch of histories' blocks in one
// vectorised loop.
template <class Real>
struct FlightBlock {
  Real exponential;
  Real z[3];
};
template <class Real>
MCSIM_HD FlightBlock<Real> flight_block(rng::Stream& stream) {
  constexpr int n = rng::NormalBlock<Real>::size;
  Real q[4];
  const rng::NormalBlock<Real> a = rng::uniforms<Real>(stream);
  MCSIM_UNROLL
  for (int i = 0; i < n; ++i) q[i] = a.z[i];
  if constexpr (n < 4) {
    const rng::NormalBlock<Real> b = rng::uniforms<Real>(stream);
    MCSIM_UNROLL
    for (int i = 0; i < n; ++i) q[n + i] = b.z[i];
  }
  return {exponential(q[0]), {q[1], q[2], q[3]}};
}

// A history's randoms: its flight's block, then uniforms one at a time (a flight
// that needs more than three, for a roulette, a group or several fission sites,
// draws more blocks as it goes).
template <class Real>
struct Uniforms {
  static constexpr int size = 3;
  rng::Stream stream;
  Real e = 0;  // the flight's exponential
  Real z[size]{};
  int left = 0;
  MCSIM_HD void load(const FlightBlock<Real>& b) {
    e = b.exponential;
    take_uniforms(b);
  }
  MCSIM_HD void renew() { load(flight_block<Real>(stream)); }
  MCSIM_HD Real next() {
    if (left == 0) take_uniforms(flight_block<Real>(stream));  // a fourth in one flight: the next block's
    // z[2], z[1], then z[0], picked with constant indices: the block stays in
    // registers on a GPU (an index would put it in local memory), and on a CPU
    // nothing is moved (a shift's wide load of narrow stores stalls forwarding).
    static_assert(size == 3, "the pick below names each uniform");
    const Real out = left == 3 ? z[2] : left == 2 ? z[1] : z[0];
    --left;
    return out;
  }

 private:
  MCSIM_HD void take_uniforms(const FlightBlock<Real>& b) {
    MCSIM_UNROLL
    for (int i = 0; i < size; ++i) z[i] = b.z[i];
    left = size;
  }
};

// Absorbed, or leaked through the lowest surface (a slab's left plane) or the
// highest (a slab's right plane, a sphere's outer surface, any of a CSG model's
// vacuum surfaces); or lost: in no cell of a CSG model.
enum class Fate : int { Absorbed, LeakedLow, LeakedHigh, Lost };

template <class Real>
MCSIM_HD Real clamp_to(Real x, Real lo, Real hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

// What a collision in region r does to a particle's weight w and group g, at
// `pos` (the tally's idea of a place): absorption (all of the weight, or under
// implicit capture its absorbed part, then roulette), else a scatter into a new
// group. False when the history ends. Any geometry's collisions start here.
template <class Real, class Pos, class Tally>
MCSIM_HD bool collision_outcome(const LayerView<Real>& s, Uniforms<Real>& u, int r, Pos pos, Real& w, int& g, Tally& t) {
  const int rg = r * s.groups + g;
  t.collision(r, g, w, pos);
  if (!s.implicit_capture) {
    if (u.next() >= s.scatter_probability[rg]) {
      t.absorbed(r, g, w);
      return false;
    }
  } else {
    const Real kept = w * s.scatter_probability[rg];
    t.absorbed(r, g, w - kept);
    w = kept;
    if (w < s.cutoff) {
      if (u.next() * s.survival >= w) return false;
      w = s.survival;
    }
  }
  if (s.groups > 1) {
    const Real pick = u.next();
    int h = 0;
    while (h + 1 < s.groups && pick >= s.cumulative[rg * s.groups + h]) ++h;
    g = h;
  }
  return true;
}

// A collision of p in region r: its outcome, then a scatter's new cosine.
template <class Real, class Tally>
MCSIM_HD bool collide(const LayerView<Real>& s, Uniforms<Real>& u, int r, Particle<Real>& p, Tally& t) {
  if (!collision_outcome(s, u, r, p.pos, p.w, p.g, t)) return false;
  // Isotropic scattering leaves a cosine uniform on [-1, 1] whatever the old one:
  // no azimuth to draw (scattering_cosine would give 2u - 1 the long way).
  const Real mean = s.mean_cosine[r];
  if (mean == Real(0)) {
    p.mu = Real(2) * u.next() - Real(1);
    return true;
  }
  const Real turn = scattering_cosine(u.next(), mean);  // before the azimuth: arguments have no order
  p.mu = turned_cosine(p.mu, turn, azimuth_cosine(u.next()));
  return true;
}

// Slab: the region holding position x.
template <class Real>
MCSIM_HD int slab_region(const LayerView<Real>& s, Real x) {
  int r = 0;
  while (r + 1 < s.regions && x >= s.surfaces[r + 1]) ++r;
  return r;
}

// Slab: one flight of p in region *r, to a collision (and its outcome) or to the
// plane ahead. False when the history has ended, its fate then in *fate (and p
// where and with what weight it left).
template <class Real, class Tally>
MCSIM_HD bool slab_flight(const LayerView<Real>& s, Uniforms<Real>& u, Particle<Real>& p, int* r, Tally& t, Fate* fate) {
  const Real to_collision = flight_distance(u.e, s.mean_free_path[*r * s.groups + p.g]);
  // The plane ahead: the region's right one moving right, its left one moving left.
  const int plane = p.mu > Real(0) ? *r + 1 : *r;
  const Real to_plane = distance_to_plane(p.pos, Real(1) / p.mu, s.surfaces[plane]);  // the track's 1 / mu too
  // One track either way (on a GPU, a warp then scores its threads' tracks together).
  const bool collides = to_collision < to_plane;
  t.track(*r, p.g, p.w, p.pos, p.mu, collides ? to_collision : to_plane);
  if (collides) {
    // Inside the region however the sum rounds: a site banked a hair past the
    // slab's edge would start its own infinite medium next generation.
    p.pos = clamp_to(p.pos + p.mu * to_collision, s.surfaces[*r], s.surfaces[*r + 1]);
    *fate = Fate::Absorbed;
    return collide(s, u, *r, p, t);
  }
  p.pos = s.surfaces[plane];
  if (plane == 0 || plane == s.regions) {
    if (!(plane == 0 ? s.reflect_low : s.reflect_high)) {
      *fate = plane == 0 ? Fate::LeakedLow : Fate::LeakedHigh;
      return false;
    }
    p.mu = -p.mu;  // a mirror: the same plane, the other way
  } else {
    *r = p.mu > Real(0) ? *r + 1 : *r - 1;
  }
  return true;
}

// Sphere: the shell holding radius x.
template <class Real>
MCSIM_HD int sphere_region(const LayerView<Real>& s, Real x) {
  int r = 0;
  while (r + 1 < s.regions && x >= s.surfaces[r]) ++r;
  return r;
}

// Sphere (p.pos its radius, p.mu its cosine with the outward radius): one flight in
// shell *r, as slab_flight; a sphere leaks only through its outer surface.
template <class Real, class Tally>
MCSIM_HD bool sphere_flight(const LayerView<Real>& s, Uniforms<Real>& u, Particle<Real>& p, int* r, Tally& t, Fate* fate) {
  const int k = *r;
  const Real to_collision = flight_distance(u.e, s.mean_free_path[k * s.groups + p.g]);
  const Real out = distance_out_of_sphere(p.pos, p.mu, s.surfaces[k]);
  const Real in = k > 0 ? distance_into_sphere(p.pos, p.mu, s.surfaces[k - 1]) : Real(INFINITY);
  const Real to_surface = in < out ? in : out;
  const bool collides = to_collision < to_surface;
  const Real d = collides ? to_collision : to_surface;
  t.track(k, p.g, p.w, p.pos, p.mu, d);
  sphere_move(&p.pos, &p.mu, d);
  if (collides) {
    p.pos = clamp_to(p.pos, k > 0 ? s.surfaces[k - 1] : Real(0), s.surfaces[k]);
    *fate = Fate::Absorbed;
    return collide(s, u, k, p, t);
  }
  if (in < out) {
    p.pos = s.surfaces[k - 1], *r = k - 1;
  } else if (k + 1 < s.regions) {
    p.pos = s.surfaces[k], *r = k + 1;
  } else {
    p.pos = s.surfaces[k];
    if (!s.reflect_high) {
      *fate = Fate::LeakedHigh;
      return false;
    }
    p.mu = -p.mu;  // a mirror sphere: back inwards at the same angle
  }
  return true;
}

// Follows p through a slab or a sphere until it is absorbed or leaks, each flight
// on a fresh block of uniforms; returns its fate.
template <class Real, class Tally>
MCSIM_HD Fate slab_history(const LayerView<Real>& s, Uniforms<Real>& u, Particle<Real>& p, Tally& t) {
  int r = slab_region(s, p.pos);
  Fate f{};
  do {
    u.renew();
  } while (slab_flight(s, u, p, &r, t, &f));
  return f;
}
template <class Real, class Tally>
MCSIM_HD Fate sphere_history(const LayerView<Real>& s, Uniforms<Real>& u, Particle<Real>& p, Tally& t) {
  int r = sphere_region(s, p.pos);
  Fate f{};
  do {
    u.renew();
  } while (sphere_flight(s, u, p, &r, t, &f));
  return f;
}

// The flat arrays behind a view, built from a job's regions and materials.
template <class Real>
struct LayerArrays {
  int regions = 0, groups = 1;
  bool reflect_low = false, reflect_high = false, implicit_capture = false;
  Real cutoff = 0, survival = 0;
  std::vector<Real> surfaces, mean_free_path, scatter_probability, cumulative, mean_cosine;
  LayerView<Real> view() const {
    return {regions,      groups,       surfaces.data(),  mean_free_path.data(), scatter_probability.data(),
            cumulative.data(), mean_cosine.data(), reflect_low, reflect_high, implicit_capture, cutoff, survival};
  }
};
template <class Real>
LayerArrays<Real> layer_arrays(const TransportSpec& s);

}  // namespace mcsim::transport
