// What any transport history scores, in any geometry, written once for host and
// device: the tally slots' fixed-point units, a history's scalar scores, and the
// fission sites its collisions bank.
#pragma once
#include <cstdint>

#include "models/transport/geometry/surface.hpp"
#include "models/transport/history.hpp"

namespace mcsim::transport {

// The tally slots: the scalars, then the flux mesh by the track-length estimator
// (G groups x bins), then by the collision estimator; or a CSG model's tallies.
// Each slot is a sum over a batch's histories of weight x score (a count, a path
// length, k's scores). Lost: histories that found themselves in no cell (CSG).
// Segments: flights (to a collision or a surface), a count, not a weight.
namespace slot {
enum : int { Transmission, Reflection, Absorption, Leakage, Collisions, KCollision, KAbsorption, KTrack, Lost, Segments, Scalars };
}

// The fixed-point unit of a slot: 2^-32, so a chunk's slot holds up to 2^32 (a
// thousand histories of four million cm of track each, say) and each term keeps
// nine digits.
constexpr double kTallyUnit = 0x1p-32;
template <class Real>
MCSIM_HD std::uint64_t to_units(Real v) {
  // Through a signed integer: the hardware's conversion (scores are far below 2^63).
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(v * Real(4294967296.0) + Real(0.5)));
}

// A fission site of the bank: where, and in which group the neutron is born. A
// layered geometry's place is x alone (a slab's depth, a sphere's radius).
template <class Real>
struct Site {
  Real x, y, z;
  int g;
};
template <class Real>
MCSIM_HD Site<double> site_at(Real x, int g) {
  return {static_cast<double>(x), 0.0, 0.0, g};
}
template <class Real>
MCSIM_HD Site<double> site_at(geometry::Vec3<Real> p, int g) {
  return {static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z), g};
}

// A banked site as a history of precision Real starts from it.
template <class Real>
MCSIM_HD Site<Real> site_in(const Site<double>& s) {
  return {static_cast<Real>(s.x), static_cast<Real>(s.y), static_cast<Real>(s.z), s.g};
}

// A history's scalar scores so far.
template <class Real>
struct Scores {
  Real collisions = 0, absorbed_weight = 0, k_collision = 0, k_absorption = 0, k_track = 0, segments = 0;
};

// The fission sites a collision in region (or material) r with k's collision
// score `score` banks at pos through sink.bank_site(pos, group): score / k on
// average, as floor(score / k + uniform), their groups drawn from the spectrum's
// cumulative sums chi_cumulative[r G + h]. Any geometry's collisions bank here.
template <class Real, class Pos, class Sink>
MCSIM_HD void bank_fission_sites(Real score, int G, const Real* chi_cumulative, int r, Pos pos, Real inv_k,
                                 Uniforms<Real>& u, Sink& sink) {
  if (score == Real(0)) return;
  const int n = static_cast<int>(score * inv_k + u.next());
  for (int i = 0; i < n; ++i) {
    int h = 0;
    if (G > 1) {
      const Real pick = u.next();
      while (h + 1 < G && pick >= chi_cumulative[r * G + h]) ++h;
    }
    sink.bank_site(pos, h);
  }
}

}  // namespace mcsim::transport
