// Tallies of CSG histories by the track-length estimator, written once for host
// and device. A flight stops at every boundary of every level, so each track lies
// in one cell of each level: its bin under a cell, material or lattice-element
// filter (pin powers) is its location's. Each bin holds, per energy group, the
// flux (weight x length) and the absorption, fission and nu-fission rates (the
// flux times the material's cross section).
#pragma once
#include <string>
#include <vector>

#include "models/transport/geometry/csg.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport::geometry {

enum class TallyFilter : int { Cell, Material, Lattice };
enum TallyScore : int { kFlux, kAbsorption, kFission, kNuFission, kTallyScores };

template <class Real>
struct CsgTallyView {
  int tallies, groups;
  const int* filter;      // a TallyFilter per tally
  const int* lattice;     // per tally: the lattice of a Lattice filter
  const int* first_slot;  // per tally: bin b, group g, score s at first_slot + (b G + g) kTallyScores + s
  const Real* absorption; // per material and group (m G + g)
  const Real* fission;
  const Real* nu_fission;
};

// The bin of tally k for a track at `loc`; -1 when the filter does not see it
// (a lattice the location is not in, or its outer universe).
template <class Real>
MCSIM_HD int tally_bin(const CsgTallyView<Real>& t, const CsgView<Real>& g, int k, const Location<Real>& loc) {
  switch (static_cast<TallyFilter>(t.filter[k])) {
    case TallyFilter::Cell: return loc.level[loc.levels - 1].cell;
    case TallyFilter::Material: return loc.material;
    default:
      for (int l = 0; l < loc.levels; ++l) {
        const Level<Real>& v = loc.level[l];
        if (v.lattice != t.lattice[k]) continue;
        const int* shape = g.lattice_shape + 3 * v.lattice;
        const bool inside = v.i >= 0 && v.i < shape[0] && v.j >= 0 && v.j < shape[1] && v.k >= 0 && v.k < shape[2];
        return inside ? (v.k * shape[1] + v.j) * shape[0] + v.i : -1;
      }
      return -1;
  }
}

// A track of length d by weight w in group grp at `loc` into every tally's slots
// through sink.add(slot, value).
template <class Real, class Sink>
MCSIM_HD void score_track(const CsgTallyView<Real>& t, const CsgView<Real>& g, const Location<Real>& loc, int grp, Real w,
                          Real d, Sink& sink) {
  const Real flux = w * d;
  const int mg = loc.material * t.groups + grp;
  const Real scores[kTallyScores] = {flux, flux * t.absorption[mg], flux * t.fission[mg], flux * t.nu_fission[mg]};
  for (int k = 0; k < t.tallies; ++k) {
    const int bin = tally_bin(t, g, k, loc);
    if (bin < 0) continue;
    const int base = t.first_slot[k] + (bin * t.groups + grp) * kTallyScores;
    for (int s = 0; s < kTallyScores; ++s) sink.add(base + s, scores[s]);
  }
}

// The tallies a job asks for, by filter (a Lattice filter names its lattice).
struct CsgTallySpec {
  std::string name;
  TallyFilter filter = TallyFilter::Material;
  int lattice = -1;
};

// Flat arrays behind a view, for `bins(spec)` bins of each tally.
template <class Real>
struct CsgTallyArrays {
  int tallies = 0, groups = 1, slots = 0;
  std::vector<int> filter, lattice, first_slot;
  std::vector<Real> absorption, fission, nu_fission;
  CsgTallyView<Real> view() const {
    return {tallies, groups, filter.data(), lattice.data(), first_slot.data(), absorption.data(), fission.data(),
            nu_fission.data()};
  }
};

// `bins_of(spec)`: a tally's spatial bins (cells, materials, or the lattice's elements).
template <class Real, class BinsOf>
CsgTallyArrays<Real> csg_tally_arrays(const std::vector<CsgTallySpec>& tallies, const TransportSpec& s, BinsOf&& bins_of) {
  CsgTallyArrays<Real> a;
  a.tallies = static_cast<int>(tallies.size());
  a.groups = s.groups;
  for (const CsgTallySpec& t : tallies) {
    a.filter.push_back(static_cast<int>(t.filter));
    a.lattice.push_back(t.lattice);
    a.first_slot.push_back(a.slots);
    a.slots += bins_of(t) * s.groups * kTallyScores;
  }
  for (const Material& m : s.materials)
    for (int g = 0; g < s.groups; ++g) {
      const auto i = static_cast<std::size_t>(g);
      a.absorption.push_back(static_cast<Real>(m.absorption(g)));
      a.fission.push_back(static_cast<Real>(m.fission[i]));
      a.nu_fission.push_back(static_cast<Real>(m.nu[i] * m.fission[i]));
    }
  return a;
}

}  // namespace mcsim::transport::geometry
