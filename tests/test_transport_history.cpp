// Slab histories against exact results: uncollided transmission through layered
// absorbers, an infinite medium made of mirrors (every particle absorbed after
// 1 / (1 - c) collisions and 1 / absorption of track on average), and the group
// in which a two-group medium absorbs.
#include <catch2/catch.hpp>

#include <cmath>

#include "io/diagnostics.hpp"
#include "models/transport/slab_history.hpp"

using namespace mcsim;
using namespace mcsim::transport;

namespace {

TransportSpec spec_of(const std::string& text) {
  io::Diagnostics diag("t.yaml");
  io::Block model(YAML::Load(text), "model", diag);
  TransportSpec s;
  parse_materials_and_geometry(model, s);
  REQUIRE(diag.empty());
  return s;
}

struct Counts {
  double absorbed = 0, left = 0, right = 0, collisions = 0, track = 0;
  double absorbed_in_group[2] = {0, 0};
  int n = 0;
};

// n histories of a beam entering at the left plane along mu.
template <class Real>
Counts run(const TransportSpec& s, int n, Real mu, Real x0) {
  const SlabArrays<Real> a = slab_arrays<Real>(s);
  const SlabView<Real> v = a.view();
  Counts c;
  c.n = n;
  for (int i = 0; i < n; ++i) {
    rng::Stream stream(17, static_cast<std::uint64_t>(i));
    Uniforms<Real> u{stream};
    double collisions = 0, track = 0;
    int last_group = 0;
    const Fate f = slab_history(v, u, x0, mu, 0, [&](int, int, Real length) { track += length; },
                                [&](int, int g) { collisions += 1, last_group = g; });
    c.collisions += collisions;
    c.track += track;
    if (f == Fate::Absorbed) c.absorbed += 1, c.absorbed_in_group[last_group] += 1;
    if (f == Fate::LeakedLeft) c.left += 1;
    if (f == Fate::LeakedRight) c.right += 1;
  }
  return c;
}

// |observed fraction - p| within 4 binomial standard errors.
void check_fraction(double count, int n, double p) {
  INFO("observed " << count / n << ", expected " << p);
  CHECK(std::fabs(count / n - p) <= 4 * std::sqrt(p * (1 - p) / n) + 1e-12);
}

}  // namespace

TEST_CASE("a beam crosses layered absorbers uncollided with probability exp of minus the optical depth", "[transport]") {
  const auto s = spec_of(
      "materials: [{ name: a, total: 0.7 }, { name: b, total: 0.2 }]\n"
      "geometry: { type: slab, boundaries: [0, 1, 3.5] }\n"
      "regions: [a, b]\n");
  for (const double mu : {1.0, 0.6}) {
    INFO("mu " << mu);
    const int n = 200000;
    const Counts d = run<double>(s, n, mu, 0.0);
    const double p = std::exp(-(0.7 * 1 + 0.2 * 2.5) / mu);
    check_fraction(d.right, n, p);
    CHECK(d.left == 0);  // pure absorbers send nothing back
    CHECK(d.absorbed + d.right == n);
    const Counts f = run<float>(s, n, static_cast<float>(mu), 0.0f);
    check_fraction(f.right, n, p);
  }
}

TEST_CASE("mirrors on both sides make an infinite medium", "[transport]") {
  // Scattering ratio c = 0.9: every history ends in absorption after a geometric
  // number of collisions with mean 1 / (1 - c) = 10, having travelled 1 / absorption
  // = 10 cm on average (an exponential length: its sd is 10 cm too).
  const auto s = spec_of(
      "materials: [{ name: m, total: 1.0, scatter: 0.9, mean_cosine: 0.2 }]\n"
      "geometry: { type: slab, boundaries: [0, 0.7, 2], left: reflective, right: reflective }\n"
      "regions: [m, m]\n");
  const int n = 100000;
  const Counts c = run<double>(s, n, 0.3, 1.0);
  CHECK(c.absorbed == n);
  const double mean_collisions = c.collisions / n, sd_collisions = std::sqrt(0.9) / 0.1;
  CHECK(std::fabs(mean_collisions - 10) < 4 * sd_collisions / std::sqrt(n));
  const double mean_track = c.track / n;
  CHECK(std::fabs(mean_track - 10) < 4 * 10 / std::sqrt(n));
}

TEST_CASE("a two-group medium absorbs in each group as its cross sections say", "[transport]") {
  // Fast neutrons (group 0) scatter within the group 0.5, down 0.3, absorb 0.2;
  // thermal ones (group 1) never come back. So a fast neutron is absorbed fast with
  // probability 0.2 / (0.2 + 0.3) = 0.4.
  const auto s = spec_of(
      "materials:\n"
      "  - { name: m, total: [1.0, 2.0], scatter: [[0.5, 0.3], [0.0, 1.8]] }\n"
      "geometry: { type: slab, boundaries: [0, 1], left: reflective, right: reflective }\n"
      "regions: [m]\n");
  const int n = 100000;
  const Counts c = run<double>(s, n, 0.5, 0.5);
  CHECK(c.absorbed == n);
  check_fraction(c.absorbed_in_group[0], n, 0.4);
}
