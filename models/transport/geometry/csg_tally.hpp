// Tallies of CSG histories by the track-length estimator, written once for host
// and device. A flight stops at every boundary of every level, so each track lies
// in one cell of each level: its bin under a cell, material or lattice-element
// filter (pin powers) is its location's. A regular mesh's bins split the track
// where it crosses their planes. Each bin holds, per energy group, the flux
// (weight x length) and the absorption, fission and nu-fission rates (the flux
// times the material's cross section).
#pragma once
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "models/transport/geometry/csg.hpp"
#include "models/transport/geometry/csg_geometry.hpp"
#include "models/transport/scores.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport::geometry {

enum TallyScore : int { kFlux, kAbsorption, kFission, kNuFission, kTallyScores };

template <class Real>
struct CsgTallyView {
  int tallies, groups;
  const int* filter;      // a TallyFilter per tally
  const int* lattice;     // per tally: the lattice of a Lattice filter
  const int* first_slot;  // per tally: bin b, group g, score s at first_slot + (b G + g) kTallyScores + s
  // Mesh filters, 3 per tally: the lower corner, the bins' widths and the shape
  // (nz = 1 and an infinite z width: a 2-D mesh); bin (k ny + j) nx + i.
  const Real* mesh_low;
  const Real* mesh_width;
  const int* mesh_shape;
  const Real* absorption; // per material and group (m G + g)
  const Real* fission;
  const Real* nu_fission;
  const Real* chi_cumulative;  // the fission spectrum's cumulative sums, per material and group
};

// The bin of tally k for a track at `at`; -1 when the filter does not see it
// (a lattice the place is not in, or its outer universe).
template <class Real>
MCSIM_HD int tally_bin(const CsgTallyView<Real>& t, int k, const Place& at) {
  switch (static_cast<TallyFilter>(t.filter[k])) {
    case TallyFilter::Cell: return at.cell;
    case TallyFilter::Material: return at.material;
    case TallyFilter::Mesh: return -1;  // mesh_pieces
    default:
      for (int l = 0; l < at.levels; ++l)
        if (at.lattice[l] == t.lattice[k]) return at.element[l];
      return -1;
  }
}

// The track from p along u for length d through mesh tally k: each piece's bin
// and length to piece(bin, length), bins in the order the track crosses them.
// The part outside the mesh is not seen.
template <class Real, class Piece>
MCSIM_HD void mesh_pieces(const CsgTallyView<Real>& t, int k, Vec3<Real> p, Vec3<Real> u, Real d, Piece&& piece) {
  const Real* low = t.mesh_low + 3 * k;
  const Real* width = t.mesh_width + 3 * k;
  const int* shape = t.mesh_shape + 3 * k;
  const Real pos[3] = {p.x, p.y, p.z}, dir[3] = {u.x, u.y, u.z};
  // The track's part inside the mesh's box: [enter, leave].
  Real enter = 0, leave = d;
  MCSIM_UNROLL  // here and below, constant indices keep the arrays in a GPU's registers
  for (int a = 0; a < 3; ++a) {
    if (shape[a] == 1 && !(width[a] < Real(INFINITY))) continue;  // a 2-D mesh's z
    const Real lo = low[a], hi = low[a] + width[a] * Real(shape[a]);
    if (dir[a] == Real(0)) {
      if (pos[a] < lo || pos[a] >= hi) return;
      continue;
    }
    const Real t0 = (lo - pos[a]) / dir[a], t1 = (hi - pos[a]) / dir[a];
    enter = fmax(enter, fmin(t0, t1)), leave = fmin(leave, fmax(t0, t1));
  }
  if (!(enter < leave)) return;
  // Walk the bins from the entry point's (clamped to the mesh: a rounding may put
  // the entry a hair outside; one a hair across a plane makes a piece of nothing).
  int cell[3];
  Real next[3], step[3];
  MCSIM_UNROLL
  for (int a = 0; a < 3; ++a) {
    if (shape[a] == 1 && !(width[a] < Real(INFINITY))) {
      cell[a] = 0, next[a] = Real(INFINITY), step[a] = Real(INFINITY);
      continue;
    }
    const int c = static_cast<int>(floor((pos[a] + enter * dir[a] - low[a]) / width[a]));
    cell[a] = c < 0 ? 0 : c >= shape[a] ? shape[a] - 1 : c;
    if (dir[a] == Real(0)) {
      next[a] = Real(INFINITY), step[a] = Real(INFINITY);
      continue;
    }
    const Real plane = low[a] + width[a] * Real(dir[a] > Real(0) ? cell[a] + 1 : cell[a]);
    next[a] = (plane - pos[a]) / dir[a];
    step[a] = width[a] / fabs(dir[a]);
  }
  Real at = enter;
  for (;;) {
    const int a = next[0] <= next[1] && next[0] <= next[2] ? 0 : next[1] <= next[2] ? 1 : 2;
    const Real crossing = a == 0 ? next[0] : a == 1 ? next[1] : next[2];
    const Real end = crossing < leave ? crossing : leave;
    if (end > at) {
      piece((cell[2] * shape[1] + cell[1]) * shape[0] + cell[0], end - at);
      at = end;
    }
    if (!(crossing < leave)) return;
    bool out = false;
    MCSIM_UNROLL
    for (int x = 0; x < 3; ++x) {
      if (x != a) continue;
      cell[x] += dir[x] > Real(0) ? 1 : -1;
      out = cell[x] < 0 || cell[x] >= shape[x];
      next[x] += step[x];
    }
    if (out) return;
  }
}

// A track of length d by weight w in group grp from p (at `at`), along u, into
// every tally's slots through sink.add(slot, value).
template <class Real, class Sink>
MCSIM_HD void score_track(const CsgTallyView<Real>& t, const Place& at, Vec3<Real> p, int grp, Real w, Vec3<Real> u, Real d,
                          Sink& sink) {
  const int mg = at.material * t.groups + grp;
  const Real rate[kTallyScores] = {Real(1), t.absorption[mg], t.fission[mg], t.nu_fission[mg]};
  for (int k = 0; k < t.tallies; ++k) {
    const auto score = [&](int bin, Real length) {
      const int base = t.first_slot[k] + (bin * t.groups + grp) * kTallyScores;
      const Real flux = w * length;
      for (int s = 0; s < kTallyScores; ++s) sink.add(base + s, flux * rate[s]);
    };
    if (static_cast<TallyFilter>(t.filter[k]) == TallyFilter::Mesh) {
      mesh_pieces(t, k, p, u, d, score);
      continue;
    }
    const int bin = tally_bin(t, k, at);
    if (bin >= 0) score(bin, d);
  }
}

// What a CSG history scores (csg_history's tally): the tallies' tracks, the
// history's scalars, and in eigenvalue runs k's three estimators and the fission
// sites its collisions bank, as the layered histories' Scorer does.
template <class Real, class Sink>
struct CsgScorer {
  const CsgTallyView<Real>& t;
  const LayerView<Real>& materials;
  bool eigenvalue;
  Uniforms<Real>& u;
  Sink& sink;
  Real inv_k;       // fission sites per unit of k's collision score
  Scores<Real>& s;  // the history's scalar scores so far
  MCSIM_HD void track(const Place& at, Vec3<Real> p, int grp, Real w, Vec3<Real> dir, Real d) {
    score_track(t, at, p, grp, w, dir, d, sink);
    s.segments += Real(1);
    if (eigenvalue) s.k_track += w * t.nu_fission[at.material * t.groups + grp] * d;
  }
  MCSIM_HD void collision(int m, int grp, Real w, Vec3<Real> pos) {
    s.collisions += w;
    if (!eigenvalue) return;
    const int mg = m * t.groups + grp;
    const Real score = w * t.nu_fission[mg] * materials.mean_free_path[mg];
    s.k_collision += score;
    bank_fission_sites(score, t.groups, t.chi_cumulative, m, pos, inv_k, u, sink);
  }
  MCSIM_HD void absorbed(int m, int grp, Real w) {
    const int mg = m * t.groups + grp;
    s.absorbed_weight += w;
    if (eigenvalue && t.absorption[mg] > Real(0)) s.k_absorption += w * t.nu_fission[mg] / t.absorption[mg];
  }
};

// Flat arrays behind a view.
template <class Real>
struct CsgTallyArrays {
  int tallies = 0, groups = 1, slots = 0;  // slots: one past the last tally's
  std::vector<int> filter, lattice, first_slot, mesh_shape;
  std::vector<Real> mesh_low, mesh_width, absorption, fission, nu_fission, chi_cumulative;
  CsgTallyView<Real> view() const {
    return {tallies,         groups,         filter.data(),     lattice.data(),  first_slot.data(),
            mesh_low.data(), mesh_width.data(), mesh_shape.data(), absorption.data(), fission.data(),
            nu_fission.data(), chi_cumulative.data()};
  }
};

// A tally's spatial bins: the model's cells, the job's materials, the lattice's
// elements or the mesh's.
inline int tally_bins(const CsgTallySpec& t, const TransportSpec& s, const Csg& csg) {
  switch (t.filter) {
    case TallyFilter::Cell: return static_cast<int>(csg.spec().cells.size());
    case TallyFilter::Material: return static_cast<int>(s.materials.size());
    case TallyFilter::Lattice: {
      const auto& shape = csg.spec().lattices.at(static_cast<std::size_t>(t.lattice)).shape;
      return shape[0] * shape[1] * shape[2];
    }
    default: return t.shape[0] * t.shape[1] * t.shape[2];
  }
}

// Their slots from `first` on.
template <class Real>
CsgTallyArrays<Real> csg_tally_arrays(const std::vector<CsgTallySpec>& tallies, const TransportSpec& s, const Csg& csg,
                                      int first = 0) {
  CsgTallyArrays<Real> a;
  a.slots = first;
  a.tallies = static_cast<int>(tallies.size());
  a.groups = s.groups;
  for (const CsgTallySpec& t : tallies) {
    a.filter.push_back(static_cast<int>(t.filter));
    a.lattice.push_back(t.lattice);
    a.first_slot.push_back(a.slots);
    a.slots += tally_bins(t, s, csg) * s.groups * kTallyScores;
    for (std::size_t i = 0; i < 3; ++i) {
      const bool unbounded = i == 2 && t.shape[2] == 1 && t.low[2] == t.high[2];
      a.mesh_low.push_back(static_cast<Real>(unbounded ? -INFINITY : t.low[i]));
      a.mesh_width.push_back(static_cast<Real>(unbounded ? INFINITY : (t.high[i] - t.low[i]) / t.shape[i]));
      a.mesh_shape.push_back(t.shape[i]);
    }
  }
  for (const Material& m : s.materials)
    for (int g = 0; g < s.groups; ++g) {
      a.absorption.push_back(static_cast<Real>(m.absorption(g)));
      a.fission.push_back(static_cast<Real>(m.fission[static_cast<std::size_t>(g)]));
      a.nu_fission.push_back(static_cast<Real>(m.nu_fission(g)));
      a.chi_cumulative.push_back(static_cast<Real>(m.chi_cumulative(g)));
    }
  return a;
}

}  // namespace mcsim::transport::geometry
