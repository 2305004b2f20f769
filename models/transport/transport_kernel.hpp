// One history of a transport job and what it scores, written once for host and
// device: where the source puts the particle, the history through the layers or a
// constructive-solid-geometry model, and its scores into the tally slots (a sink
// adds them up; the CPU's and the GPU's sinks differ only in how). Slots hold sums
// over histories in fixed point, so they add up to the same bits in any order.
#pragma once
#include <cstdint>
#include <vector>

#include "models/model.hpp"
#include "models/transport/geometry/csg_source.hpp"
#include "models/transport/geometry/csg_tally.hpp"
#include "models/transport/history.hpp"
#include "models/transport/scores.hpp"

namespace mcsim::transport {

template <class Real>
struct TransportView {
  // A layered geometry's regions, or (csg) the materials: a CSG history's region is its material.
  LayerView<Real> layers;
  bool sphere;  // else slab (an infinite medium is a slab with planes at -+infinity)
  bool csg;     // a constructive-solid-geometry model
  // Source: a beam (pos, mu), an isotropic point (pos), or isotropic over [low, high].
  enum SourceKind : int { Beam, Point, Volume };
  int source_kind, source_group;
  Real source_pos, source_mu, source_low, source_high;
  // The flux mesh: bins of `width` from `low` (a slab's x, a sphere's radius).
  int bins;
  Real mesh_low, mesh_width, mesh_inv_width;
  // Eigenvalue mode: per region and group, nu x fission and absorption; per region
  // the fission spectrum's cumulative sums (chi_cumulative[r G + h]).
  bool eigenvalue;
  const Real* nu_fission;
  const Real* absorption;
  const Real* chi_cumulative;
  // CSG: the model, its source, and its tallies, whose slots follow the scalars.
  geometry::CsgView<Real> model;
  geometry::CsgSource<Real> csg_source;
  geometry::CsgTallyView<Real> csg_tallies;
  int csg_slots;
  MCSIM_HD int mesh_slots() const { return layers.groups * bins; }  // one estimator's
  MCSIM_HD int slots() const { return slot::Scalars + 2 * mesh_slots() + csg_slots; }
};

// A history's scores. Scalars gather in registers and go to the sink once, at the
// end of the history; mesh scores go as they come. The sink has
// add(slot, value), add_run(slot, n, value) (the value in each of n slots from
// `slot` on), add_history(scalar slots' values) and bank_site(position, group).
template <class Real, class Sink>
struct Scorer {
  const TransportView<Real>& v;
  Uniforms<Real>& u;
  Sink& sink;
  Real inv_k;  // fission sites per unit of k's collision score: 1 / the last generation's k
  Scores<Real>& s;  // the history's scalar scores so far

  MCSIM_HD int bin_of(Real pos) const {
    if (v.bins == 1) return 0;
    const int b = static_cast<int>((pos - v.mesh_low) * v.mesh_inv_width);
    return b < 0 ? 0 : b >= v.bins ? v.bins - 1 : b;
  }
  MCSIM_HD void score_track(int g, int b, Real value) { sink.add(slot::Scalars + g * v.bins + b, value); }

  // Track length w d from (pos, mu): the part in the first bin, whole bins of
  // width / |mu| between, and the rest in the last bin, where the track ends. The
  // whole bins go to the sink as one run, however many they are.
  MCSIM_HD void track(int r, int g, Real w, Real pos, Real mu, Real d) {
    s.segments += Real(1);
    if (v.eigenvalue) s.k_track += w * v.nu_fission[r * v.layers.groups + g] * d;
    if (v.bins == 0) return;
    if (v.bins == 1) return score_track(g, 0, w * d);
    if (v.sphere) return sphere_segment(g, w, pos, mu, d);
    // Without branches on where the track lies (a CPU mispredicts them, a GPU
    // diverges on them): a track within one bin is a first part of d, no whole
    // bins and no rest.
    const int first = bin_of(pos), last = bin_of(pos + mu * d);
    const bool one = first == last;
    const Real edge = v.mesh_low + v.mesh_width * static_cast<Real>(mu > Real(0) ? first + 1 : first);
    const Real inv_mu = Real(1) / mu;  // the flight's own (one division for both)
    const Real ahead = (edge - pos) * inv_mu;  // to the first bin's far edge
    const Real to_edge = one ? d : ahead > Real(0) ? ahead : Real(0);
    const int low = first < last ? first : last, high = first < last ? last : first;
    const int whole = one ? 0 : high - low - 1;
    const Real per_bin = one ? Real(0) : v.mesh_width * fabs(inv_mu);  // mu = 0 stays in one bin
    // Rounding may put the end a hair into the bin past the true one: the rest is
    // then a hair below zero, and nothing.
    const Real rest = d - to_edge - static_cast<Real>(whole) * per_bin;
    score_track(g, first, w * to_edge);
    sink.add_run(slot::Scalars + g * v.bins + low + 1, whole, w * per_bin);
    score_track(g, last, rest > Real(0) ? w * rest : Real(0));
  }

  // A sphere's segment: the radius falls until the closest approach to the centre
  // (at t0 = -pos mu), then rises; shell edges R are crossed at t0 -+ sqrt(R^2 - b^2),
  // b the line's distance from the centre.
  MCSIM_HD void sphere_segment(int g, Real w, Real pos, Real mu, Real d) {
    const Real t0 = -pos * mu, b2 = pos * pos * (Real(1) - mu * mu);
    Real t = 0;
    int b = bin_of(pos);
    if (t0 > Real(0)) {  // inwards first
      for (;;) {
        const Real edge = v.mesh_width * static_cast<Real>(b);
        const Real e2 = edge * edge - b2;
        const Real at = e2 > Real(0) && b > 0 ? t0 - sqrt(e2) : t0;  // leaves the bin inwards, or turns in it
        const Real end = at < d ? at : d;
        if (end > t) score_track(g, b, w * (end - t));
        if (end > t) t = end;
        if (!(at < d) || !(e2 > Real(0)) || b == 0) break;
        --b;
      }
      if (!(t0 < d)) return;
    }
    for (;;) {  // outwards
      const Real edge = v.mesh_width * static_cast<Real>(b + 1);
      const Real e2 = edge * edge - b2;
      const Real at = t0 + sqrt(e2 > Real(0) ? e2 : Real(0));
      if (!(at < d) || b + 1 >= v.bins) return score_track(g, b, w * (d - t));
      if (at > t) score_track(g, b, w * (at - t)), t = at;
      ++b;
    }
  }

  MCSIM_HD void collision(int r, int g, Real w, Real pos) {
    const int G = v.layers.groups, rg = r * G + g;
    s.collisions += w;
    if (v.bins) sink.add(slot::Scalars + G * v.bins + g * v.bins + bin_of(pos), w * v.layers.mean_free_path[rg]);
    if (!v.eigenvalue) return;
    const Real score = w * v.nu_fission[rg] * v.layers.mean_free_path[rg];
    s.k_collision += score;
    bank_fission_sites(score, G, v.chi_cumulative, r, pos, inv_k, u, sink);
  }

  MCSIM_HD void absorbed(int r, int g, Real w) {
    const int rg = r * v.layers.groups + g;
    s.absorbed_weight += w;
    if (v.eigenvalue && v.absorption[rg] > Real(0)) s.k_absorption += w * v.nu_fission[rg] / v.absorption[rg];
  }

  MCSIM_HD void finish(Fate f, Real w) {
    const Real scalars[slot::Scalars] = {f == Fate::LeakedHigh ? w : Real(0), f == Fate::LeakedLow ? w : Real(0),
                                         s.absorbed_weight, f != Fate::Absorbed ? w : Real(0), s.collisions,
                                         s.k_collision, s.k_absorption, s.k_track, Real(0), s.segments};
    sink.add_history(scalars);
  }
};

// A thread's histories, one flight at a time: start() begins history
// `subsequence` of the job (a fixed-source history's index, or generation g's
// history i as g 2^40 + i) at the source or, given a site, there; flight() draws
// the flight's block (see FlightBlock) and moves it to its next event;
// flight_on_block() does the same with a block already loaded into u (the CPU
// draws a batch of lanes' blocks at once). A history's first flight also draws
// its random start (a direction, a place in a volume). On a GPU each thread starts
// its next history as soon as one ends, so a warp's threads stay busy and in step.
template <class Real>
struct Histories {
  // The history's state. (No member refers to another, nor to anything else: a
  // GPU then keeps them all in registers.)
  Uniforms<Real> u{rng::Stream(0, 0)};
  Particle<Real> p{};
  geometry::Particle3<Real> p3{};  // CSG
  int r = 0;
  int unplaced = -1;  // until the first flight, how it starts: a TransportView SourceKind (a site: Point); then -1
  Scores<Real> scores{};

  MCSIM_HD void start(const TransportView<Real>& v, std::uint64_t seed, std::uint64_t subsequence, const Site<Real>* site) {
    u = Uniforms<Real>{rng::Stream(seed, subsequence)};
    scores = Scores<Real>{};
    if (v.csg) {
      p3 = site ? geometry::Particle3<Real>{{site->x, site->y, site->z}, {0, 0, 1}, Real(1), site->g}
                : geometry::Particle3<Real>{v.csg_source.low, {0, 0, 1}, Real(1), v.csg_source.group};
      unplaced = site ? TransportView<Real>::Point : TransportView<Real>::Volume;
      return;
    }
    p = site ? Particle<Real>{site->x, Real(0), Real(1), site->g}
             : Particle<Real>{v.source_pos, v.source_mu, Real(1), v.source_group};
    unplaced = site ? TransportView<Real>::Point : v.source_kind;
  }
  // False when the history has ended, its scores then in the sink.
  template <class Sink>
  MCSIM_HD bool flight(const TransportView<Real>& v, Real inv_k, Sink& sink) {
    u.renew();
    return flight_on_block(v, inv_k, sink);
  }
  template <class Sink>
  MCSIM_HD bool flight_on_block(const TransportView<Real>& v, Real inv_k, Sink& sink) {
    if (v.csg) return csg_flight_on_block(v, inv_k, sink);
    if (unplaced >= 0) place(v);
    Scorer<Real, Sink> t{v, u, sink, inv_k, scores};
    Fate f{};
    const bool on = v.sphere ? sphere_flight(v.layers, u, p, &r, t, &f) : slab_flight(v.layers, u, p, &r, t, &f);
    if (!on) t.finish(f, p.w);
    return on;
  }

 private:
  // A CSG history's flight: its start first (a site's direction, or the source's
  // draw of both), then one flight through the model.
  template <class Sink>
  MCSIM_HD bool csg_flight_on_block(const TransportView<Real>& v, Real inv_k, Sink& sink) {
    Fate f = Fate::Lost;
    bool on = true;
    if (unplaced == TransportView<Real>::Point) {
      const Real a = u.next();
      p3.u = geometry::isotropic_direction(a, u.next());
    } else if (unplaced >= 0) {
      on = geometry::start_particle(v.csg_source, v.model, u, &p3);
    }
    unplaced = -1;
    geometry::CsgScorer<Real, Sink> t{v.csg_tallies, v.layers, v.eigenvalue, u, sink, inv_k, scores};
    int surface = -1;
    on = on && geometry::csg_flight(v.model, v.layers, u, p3, t, &f, &surface);
    if (on) return true;
    const Scores<Real>& s = scores;
    const Real w = p3.w, scalars[slot::Scalars] = {Real(0), Real(0), s.absorbed_weight, f == Fate::LeakedHigh ? w : Real(0),
                                                   s.collisions, s.k_collision, s.k_absorption, s.k_track,
                                                   f == Fate::Lost ? w : Real(0), s.segments};
    sink.add_history(scalars);
    return false;
  }

  // An isotropic start draws its direction, a volume source its place first.
  MCSIM_HD void place(const TransportView<Real>& v) {
    if (unplaced == TransportView<Real>::Volume) {
      const Real a = u.next(), lo = v.source_low, hi = v.source_high;
      p.pos = v.sphere ? cbrt(lo * lo * lo + a * (hi * hi * hi - lo * lo * lo)) : lo + a * (hi - lo);
    }
    if (unplaced != TransportView<Real>::Beam) p.mu = Real(2) * u.next() - Real(1);
    r = v.sphere ? sphere_region(v.layers, p.pos) : slab_region(v.layers, p.pos);
    unplaced = -1;
  }
};

// The flat arrays behind a view.
template <class Real>
struct TransportArrays {
  LayerArrays<Real> layers;
  TransportView<Real> base{};  // every field but the pointers
  std::vector<Real> nu_fission, absorption, chi_cumulative;
  geometry::CsgArrays<Real> model;            // CSG
  geometry::CsgTallyArrays<Real> tallies;
  TransportView<Real> view() const {
    TransportView<Real> v = base;
    v.layers = layers.view();
    v.nu_fission = nu_fission.data(), v.absorption = absorption.data(), v.chi_cumulative = chi_cumulative.data();
    if (v.csg) v.model = model.host_view(), v.csg_tallies = tallies.view(), v.csg_source.nu_fission = nu_fission.data();
    return v;
  }
};
template <class Real>
TransportArrays<Real> transport_arrays(const TransportSpec& s);

// What a backend needs to run a transport job's histories.
struct TransportKernel {
  Precision precision = Precision::Double;
  std::uint64_t seed = 0;
  std::uint64_t id = 0;  // tells device copies of different jobs apart
  TransportArrays<float> in_float;
  TransportArrays<double> in_double;
  int slots() const { return in_double.view().slots(); }
};

// Generation g's history i draws from stream (seed, g 2^40 + i).
constexpr std::uint64_t generation_stream(std::uint64_t g, std::uint64_t i) { return (g << 40) + i; }

}  // namespace mcsim::transport
