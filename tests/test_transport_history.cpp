// Slab and sphere histories against exact results: uncollided transmission
// through layered absorbers, infinite media made of mirrors (every particle
// absorbed after 1 / (1 - c) collisions and 1 / absorption of track on average),
// and the group in which a two-group medium absorbs.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/transport/history.hpp"
#include "transport_spec_text.hpp"

using namespace mcsim;
using namespace mcsim::transport;

namespace {

struct Counts {
  double absorbed = 0, low = 0, high = 0, collisions = 0, track = 0;  // leaked through the first or last surface
  double absorbed_in_group[2] = {0, 0};
  int n = 0;
};

// n histories from x0 (a slab's x, a sphere's radius) along cosine mu.
template <class Real>
Counts run(const TransportSpec& s, int n, Real mu, Real x0) {
  const LayerArrays<Real> a = layer_arrays<Real>(s);
  const LayerView<Real> v = a.view();
  Counts c;
  c.n = n;
  for (int i = 0; i < n; ++i) {
    rng::Stream stream(17, static_cast<std::uint64_t>(i));
    Uniforms<Real> u{stream};
    struct Tally {
      double collisions = 0, length = 0;
      int last_group = 0;
      void track(int, int, Real, Real, Real, Real d) { length += d; }
      void collision(int, int g, Real, Real) { collisions += 1, last_group = g; }
      void absorbed(int, int, Real) {}
    } t;
    Particle<Real> p{x0, mu, Real(1), 0};
    const Fate f = s.geometry.shape == Shape::Slab ? slab_history(v, u, p, t) : sphere_history(v, u, p, t);
    c.collisions += t.collisions;
    c.track += t.length;
    if (f == Fate::Absorbed) c.absorbed += 1, c.absorbed_in_group[t.last_group] += 1;
    if (f == Fate::LeakedLow) c.low += 1;
    if (f == Fate::LeakedHigh) c.high += 1;
  }
  return c;
}

// |observed fraction - p| within 4 binomial standard errors.
void check_fraction(double count, int n, double p) {
  INFO("observed " << count / n << ", expected " << p);
  CHECK(std::fabs(count / n - p) <= 4 * std::sqrt(p * (1 - p) / n) + 1e-12);
}

// A medium of total 1 and scattering ratio c = 0.9 that nothing leaves: every
// history ends in absorption after a geometric number of collisions with mean
// 1 / (1 - c) = 10, having travelled 1 / absorption = 10 cm on average (an
// exponential length: its sd is 10 cm too).
void check_infinite_medium(const Counts& c) {
  CHECK(c.absorbed == c.n);
  CHECK(std::fabs(c.collisions / c.n - 10) < 4 * (std::sqrt(0.9) / 0.1) / std::sqrt(c.n));
  CHECK(std::fabs(c.track / c.n - 10) < 4 * 10 / std::sqrt(c.n));
}

}  // namespace

TEST_CASE("a beam crosses layered absorbers uncollided with probability exp of minus the optical depth", "[transport]") {
  const auto s = materials_spec(
      "materials: [{ name: a, total: 0.7 }, { name: b, total: 0.2 }]\n"
      "geometry: { type: slab, boundaries: [0, 1, 3.5] }\n"
      "regions: [a, b]\n");
  for (const double mu : {1.0, 0.6}) {
    INFO("mu " << mu);
    const int n = 200000;
    const Counts d = run<double>(s, n, mu, 0.0);
    const double p = std::exp(-(0.7 * 1 + 0.2 * 2.5) / mu);
    check_fraction(d.high, n, p);
    CHECK(d.low == 0);  // pure absorbers send nothing back
    CHECK(d.absorbed + d.high == n);
    const Counts f = run<float>(s, n, static_cast<float>(mu), 0.0f);
    check_fraction(f.high, n, p);
  }
}

TEST_CASE("mirrors on both sides make an infinite medium", "[transport]") {
  const auto s = materials_spec(
      "materials: [{ name: m, total: 1.0, scatter: 0.9, mean_cosine: 0.2 }]\n"
      "geometry: { type: slab, boundaries: [0, 0.7, 2], left: reflective, right: reflective }\n"
      "regions: [m, m]\n");
  check_infinite_medium(run<double>(s, 100000, 0.3, 1.0));
}

TEST_CASE("a two-group medium absorbs in each group as its cross sections say", "[transport]") {
  // Fast neutrons (group 0) scatter within the group 0.5, down 0.3, absorb 0.2;
  // thermal ones (group 1) never come back. So a fast neutron is absorbed fast with
  // probability 0.2 / (0.2 + 0.3) = 0.4.
  const auto s = materials_spec(
      "materials:\n"
      "  - { name: m, total: [1.0, 2.0], scatter: [[0.5, 0.3], [0.0, 1.8]] }\n"
      "geometry: { type: slab, boundaries: [0, 1], left: reflective, right: reflective }\n"
      "regions: [m]\n");
  const int n = 100000;
  const Counts c = run<double>(s, n, 0.5, 0.5);
  CHECK(c.absorbed == n);
  check_fraction(c.absorbed_in_group[0], n, 0.4);
}

TEST_CASE("from a sphere's centre particles cross its shells uncollided with exp of minus the optical depth", "[transport]") {
  const auto s = materials_spec(
      "materials: [{ name: a, total: 0.5 }, { name: b, total: 0.25 }]\n"
      "geometry: { type: sphere, radii: [1, 3] }\n"
      "regions: [a, b]\n");
  const int n = 200000;
  for (const double mu : {1.0, -0.3}) {  // from the centre every direction is radial
    const Counts c = run<double>(s, n, mu, 0.0);
    check_fraction(c.high, n, std::exp(-(0.5 * 1 + 0.25 * 2)));
  }
  // From r = 2 inwards along the radius: 1 of shell, the core's diameter 2, then 2 of
  // shell to the outer surface.
  const Counts c = run<double>(s, n, -1.0, 2.0);
  check_fraction(c.high, n, std::exp(-(0.25 * 1 + 0.5 * 2 + 0.25 * 2)));
}

TEST_CASE("a mirrored sphere is an infinite medium", "[transport]") {
  const auto s = materials_spec(
      "materials: [{ name: m, total: 1.0, scatter: 0.9, mean_cosine: -0.1 }]\n"
      "geometry: { type: sphere, radii: [0.5, 1.5], outer: reflective }\n"
      "regions: [m, m]\n");
  check_infinite_medium(run<double>(s, 100000, 0.4, 1.0));
}

TEST_CASE("a particle on a slab's outer plane moving out leaks at once", "[transport]") {
  const auto s = materials_spec(
      "materials: [{ name: a, total: 1.0, scatter: 0.5 }]\n"
      "geometry: { type: slab, boundaries: [0, 2] }\n"
      "regions: [a]\n");
  const LayerArrays<double> a = layer_arrays<double>(s);
  for (const double x : {0.0, 2.0}) {
    rng::Stream stream(3, 0);
    Uniforms<double> u{stream};
    struct Tally {
      int events = 0;
      void track(int, int, double, double, double, double d) { events += d > 0; }
      void collision(int, int, double, double) { ++events; }
      void absorbed(int, int, double) { ++events; }
    } t;
    Particle<double> p{x, x > 0 ? 1.0 : -1.0, 1.0, 0};
    CHECK(slab_history(a.view(), u, p, t) == (x > 0 ? Fate::LeakedHigh : Fate::LeakedLow));
    CHECK(t.events == 0);
  }
}
