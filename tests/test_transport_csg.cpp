// Histories through constructive solid geometry against exact answers and against
// the layered slab: a turned direction keeps its angle, an absorbing sphere lets
// e^-(total radius) of a centre source out, a 3-D slab with mirror or periodic
// sides is the 1-D slab, and one mirrored pin cell is a mirrored lattice of it.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "models/transport/geometry/csg_geometry.hpp"
#include "models/transport/geometry/csg_history.hpp"
#include "models/transport/geometry/csg_source.hpp"
#include "models/transport/geometry/csg_tally.hpp"
#include "transport_spec_text.hpp"

using namespace mcsim;
using namespace mcsim::transport;
using namespace mcsim::transport::geometry;

namespace {

struct Outcome {
  double absorbed = 0, by_surface[8] = {}, lost = 0, in_first_material = 0;
  int n = 0;
  // The fraction f and its binomial standard error.
  static double error(double f, int n) { return std::sqrt(f * (1 - f) / n); }
};

// n histories, each from start(i) = {position, direction}.
template <class Real, class Start>
Outcome run(const Csg& csg, const TransportSpec& s, int n, Start&& start) {
  const CsgArrays<Real> arrays = csg.arrays<Real>();
  const CsgView<Real> g = arrays.host_view();
  const LayerArrays<Real> m = material_arrays<Real>(s);
  const LayerView<Real> mats = m.view();
  Outcome o;
  o.n = n;
  for (int i = 0; i < n; ++i) {
    Uniforms<Real> u{rng::Stream(23, static_cast<std::uint64_t>(i))};
    struct Tally {
      int last = -1;
      void track(const Place&, Vec3<Real>, int, Real, Vec3<Real>, Real) {}
      void collision(int, int, Real, Vec3<Real>) {}
      void absorbed(int material, int, Real) { last = material; }
    } t;
    Particle3<Real> p = start(u);
    int surface = -1;
    const Fate f = csg_history(g, mats, u, p, t, &surface);
    if (f == Fate::Absorbed) o.absorbed += 1, o.in_first_material += t.last == 0 ? 1 : 0;
    else if (surface < 0) o.lost += 1;
    else o.by_surface[surface] += 1;
  }
  return o;
}

// |a - b| within 4 combined standard errors of two independent fractions.
void check_same(double a, double b, int n) {
  INFO(a << " against " << b);
  CHECK(std::fabs(a - b) / n <= 4 * std::sqrt(Outcome::error(a / n, n) * Outcome::error(a / n, n) +
                                               Outcome::error(b / n, n) * Outcome::error(b / n, n)) + 1e-12);
}

}  // namespace

TEST_CASE("a turned direction keeps its angle to the old one, and its azimuths average to the old one", "[transport][csg]") {
  for (const Vec3<double> d : {Vec3<double>{0.6, 0, 0.8}, Vec3<double>{0, 0.28, 0.96}, Vec3<double>{0.1, 0.1, -0.9899494936611666},
                               Vec3<double>{1, 0, 0}, Vec3<double>{0, 0, 1}}) {
    for (const double mu0 : {-0.9, 0.0, 0.3, 0.999}) {
      Vec3<double> mean{0, 0, 0};
      const int k = 64;
      for (int j = 0; j < k; ++j) {
        double s, c;
        azimuth((j + 0.5) / k, &s, &c);
        Vec3<double> v = d;
        turn_direction(&v.x, &v.y, &v.z, mu0, s, c);
        INFO("direction " << d.x << " " << d.y << " " << d.z << ", mu0 " << mu0 << ", azimuth " << j);
        CHECK(dot(v, v) == Approx(1).epsilon(1e-14));
        CHECK(dot(v, d) == Approx(mu0).margin(1e-14));
        mean = mean + (1.0 / k) * v;
      }
      // Evenly spaced azimuths cancel the perpendicular part exactly.
      CHECK(mean.x == Approx(mu0 * d.x).margin(1e-14));
      CHECK(mean.y == Approx(mu0 * d.y).margin(1e-14));
      CHECK(mean.z == Approx(mu0 * d.z).margin(1e-14));
    }
  }
}

TEST_CASE("an absorbing sphere lets e^-(total radius) of its centre's isotropic source out", "[transport][csg]") {
  const TransportSpec s = materials_spec(
      "materials: [{ name: black, total: 0.8, scatter: 0 }]\n"
      "geometry: { type: infinite }\nregions: [black]\n");
  CsgSpec spec;
  spec.surfaces = {csg_surface("ball", SurfaceKind::Sphere, {0.1, -0.2, 0.3, 1.5}, SurfaceBoundary::Vacuum)};
  spec.cells = {csg_cell("inside", "root", "-ball", Fill::Material, "black")};
  const Csg csg(spec, {"black"});
  const int n = 40000;
  const double p = std::exp(-0.8 * 1.5);
  const auto from_centre = [](auto& u) {
    using Real = std::decay_t<decltype(u.e)>;
    u.renew();
    const Real a = u.next();
    return Particle3<Real>{{Real(0.1), Real(-0.2), Real(0.3)}, isotropic_direction(a, u.next()), Real(1), 0};
  };
  const Outcome d = run<double>(csg, s, n, from_centre), f = run<float>(csg, s, n, from_centre);
  for (const Outcome& o : {d, f}) {
    CHECK(o.lost == 0);
    CHECK(std::fabs(o.by_surface[0] / n - p) <= 4 * Outcome::error(p, n));
    CHECK(o.absorbed + o.by_surface[0] == n);
  }
}

namespace {
// A slab of two materials along x, [0, 1] and [1, 2.5], vacuum at both ends; its
// sides at y, z = -+1 mirrors, or y periodic.
Csg box_slab(bool periodic_y) {
  CsgSpec spec;
  const SurfaceBoundary side = periodic_y ? SurfaceBoundary::Periodic : SurfaceBoundary::Reflective;
  spec.surfaces = {csg_surface("left", SurfaceKind::XPlane, {0}, SurfaceBoundary::Vacuum),
                   csg_surface("right", SurfaceKind::XPlane, {2.5}, SurfaceBoundary::Vacuum),
                   csg_surface("mid", SurfaceKind::XPlane, {1}, SurfaceBoundary::Transmission),
                   csg_surface("south", SurfaceKind::YPlane, {-1}, side, periodic_y ? "north" : ""),
                   csg_surface("north", SurfaceKind::YPlane, {1}, side, periodic_y ? "south" : ""),
                   csg_surface("down", SurfaceKind::ZPlane, {-1}, SurfaceBoundary::Reflective),
                   csg_surface("up", SurfaceKind::ZPlane, {1}, SurfaceBoundary::Reflective)};
  spec.cells = {csg_cell("a", "root", "+left -mid +south -north +down -up", Fill::Material, "a"),
                csg_cell("b", "root", "+mid -right +south -north +down -up", Fill::Material, "b")};
  return Csg(spec, {"a", "b"});
}
}  // namespace

TEST_CASE("a 3-D slab with mirror or periodic sides transmits, reflects and absorbs as the 1-D slab", "[transport][csg]") {
  const TransportSpec s = materials_spec(
      "materials:\n"
      "  - { name: a, total: 1.0, scatter: 0.7, mean_cosine: 0.2 }\n"
      "  - { name: b, total: 0.6, scatter: 0.54, mean_cosine: 0.0 }\n"
      "geometry: { type: slab, boundaries: [0, 1, 2.5] }\nregions: [a, b]\n");
  const int n = 40000;
  // The 1-D reference: a beam into the left face, its histories counted the same way.
  const LayerArrays<double> layers = layer_arrays<double>(s);
  double low = 0, high = 0, absorbed = 0;
  for (int i = 0; i < n; ++i) {
    Uniforms<double> u{rng::Stream(99, static_cast<std::uint64_t>(i))};
    struct {
      void track(int, int, double, double, double, double) {}
      void collision(int, int, double, double) {}
      void absorbed(int, int, double) {}
    } t;
    Particle<double> p{0.0, 0.8, 1.0, 0};
    const Fate f = slab_history(layers.view(), u, p, t);
    (f == Fate::Absorbed ? absorbed : f == Fate::LeakedLow ? low : high) += 1;
  }
  for (const bool periodic : {false, true}) {
    INFO((periodic ? "periodic y" : "mirror sides"));
    // The same beam, cosine 0.8 with x, entering at a point of the left face.
    const Outcome o = run<double>(box_slab(periodic), s, n, [](Uniforms<double>& u) {
      u.renew();
      return Particle3<double>{{0, 0.3, -0.2}, {0.8, 0.6, 0}, 1.0, 0};
    });
    CHECK(o.lost == 0);
    if (periodic) {  // one flight up to the north plane (no collision on the way) reappears at the south one
      const LayerArrays<double> m = material_arrays<double>(s);
      const auto arrays = box_slab(true).arrays<double>();
      Uniforms<double> u{rng::Stream(1, 1)};
      u.renew();
      u.e = 50;  // a flight of 50 mean free paths: past the plane 0.7 away
      struct {
        void track(const Place&, Vec3<double>, int, double, Vec3<double>, double) {}
        void collision(int, int, double, Vec3<double>) {}
        void absorbed(int, int, double) {}
      } t;
      Particle3<double> p{{0.5, 0.3, 0.2}, {0, 1, 0}, 1.0, 0};
      Fate f{};
      int surface = -1;
      REQUIRE(csg_flight(arrays.host_view(), m.view(), u, p, t, &f, &surface));
      CHECK(p.p.x == 0.5);
      CHECK(p.p.y == Approx(-1 + surface_nudge<double>()).epsilon(1e-15));
      CHECK(p.u.y == 1);
    }
    check_same(o.by_surface[0], low, n);
    check_same(o.by_surface[1], high, n);
    check_same(o.absorbed, absorbed, n);
  }
}

namespace {
// Fuel of radius 0.4 in water, pitch 1.26: one pin with mirrors all round, or a
// 3 x 3 lattice of it with mirrors all round.
Csg pins(int n) {
  CsgSpec spec;
  const double half = 0.63 * n;
  spec.surfaces = {csg_surface("fuel", SurfaceKind::ZCylinder, {0, 0, 0.4}), csg_surface("w", SurfaceKind::XPlane, {-half}, SurfaceBoundary::Reflective),
                   csg_surface("e", SurfaceKind::XPlane, {half}, SurfaceBoundary::Reflective),
                   csg_surface("s", SurfaceKind::YPlane, {-half}, SurfaceBoundary::Reflective),
                   csg_surface("n", SurfaceKind::YPlane, {half}, SurfaceBoundary::Reflective)};
  spec.cells = {csg_cell("fuel", "pin", "-fuel", Fill::Material, "fuel"), csg_cell("water", "pin", "+fuel", Fill::Material, "water")};
  if (n == 1) {
    spec.cells.push_back(csg_cell("box", "root", "+w -e +s -n", Fill::Universe, "pin"));
  } else {
    spec.cells.push_back(csg_cell("box", "root", "+w -e +s -n", Fill::Lattice, "grid"));
    LatticeSpec l;
    l.name = "grid", l.lower_left = {-half, -half, 0}, l.pitch = {1.26, 1.26, 0}, l.shape = {n, n, 1};
    l.universes.assign(static_cast<std::size_t>(n * n), "pin");
    spec.lattices = {l};
  }
  return Csg(spec, {"fuel", "water"});
}
}  // namespace

TEST_CASE("one mirrored pin cell absorbs as a mirrored 3 x 3 lattice of it", "[transport][csg]") {
  const TransportSpec s = materials_spec(
      "materials:\n"
      "  - { name: fuel, total: 1.2, scatter: 0.4, mean_cosine: 0.1 }\n"
      "  - { name: water, total: 2.0, scatter: 1.9, mean_cosine: 0.3 }\n"
      "geometry: { type: infinite }\nregions: [fuel]\n");
  const int n = 20000;
  // Isotropic sources uniform over each geometry's whole box: by symmetry, the same infinite lattice.
  const auto uniform_in = [](double half) {
    return [half](Uniforms<double>& u) {
      u.renew();
      const double x = (2 * u.next() - 1) * half, y = (2 * u.next() - 1) * half;
      u.renew();
      const double z = u.next(), a = u.next();
      return Particle3<double>{{x, y, z}, isotropic_direction(a, u.next()), 1.0, 0};
    };
  };
  const Outcome one = run<double>(pins(1), s, n, uniform_in(0.63)), nine = run<double>(pins(3), s, n, uniform_in(1.89));
  CHECK(one.lost == 0);
  CHECK(nine.lost == 0);
  CHECK(one.absorbed == n);  // mirrors all round: nothing leaks
  CHECK(nine.absorbed == n);
  check_same(one.in_first_material, nine.in_first_material, n);
  // And the fuel takes a real share: neither all nor nothing.
  CHECK(one.in_first_material > 0.2 * n);
  CHECK(one.in_first_material < 0.8 * n);
}

TEST_CASE("track-length tallies of a mirrored lattice: absorption adds up to one a history, its pins fission alike",
          "[transport][csg]") {
  const TransportSpec s = materials_spec(
      "materials:\n"
      "  - { name: fuel, total: 1.2, scatter: 0.4, fission: 0.3, nu: 2.5, capture: 0.5 }\n"
      "  - { name: water, total: 2.0, scatter: 1.9, capture: 0.1, mean_cosine: 0.3 }\n"
      "geometry: { type: infinite }\nregions: [fuel]\n");
  const Csg csg = pins(3);
  const auto arrays = csg.arrays<double>();
  const CsgView<double> g = arrays.host_view();
  const LayerArrays<double> m = material_arrays<double>(s);
  CsgTallySpec mesh{"mesh", TallyFilter::Mesh, -1, {-1.89, -1.89, 0}, {1.89, 1.89, 0}, {6, 6, 1}};
  const std::vector<CsgTallySpec> specs{{"by material", TallyFilter::Material, -1}, {"pins", TallyFilter::Lattice, 0},
                                        {"by cell", TallyFilter::Cell, -1}, mesh};
  const auto t = csg_tally_arrays<double>(specs, s, csg);
  const CsgTallyView<double> tv = t.view();
  CsgSource<double> source;
  source.kind = CsgSource<double>::Box, source.low = {-1.89, -1.89, 0}, source.high = {1.89, 1.89, 1};
  source.fissionable_only = true, source.nu_fission = t.nu_fission.data(), source.groups = 1;

  const int n = 20000;
  std::vector<double> one(static_cast<std::size_t>(t.slots)), sum(one.size()), sum2(one.size());
  struct Sink {
    std::vector<double>* slots;
    void add(int slot, double v) { (*slots)[static_cast<std::size_t>(slot)] += v; }
  } sink{&one};
  struct Tally {
    const CsgTallyView<double>& t;
    Sink& sink;
    void track(const Place& at, Vec3<double> p, int grp, double w, Vec3<double> u, double d) { score_track(t, at, p, grp, w, u, d, sink); }
    void collision(int, int, double, Vec3<double>) {}
    void absorbed(int, int, double) {}
  } tally{tv, sink};
  int started_in_fuel = 0;
  double absorbed_sum = 0, absorbed_sum2 = 0;  // a history's whole absorption
  for (int i = 0; i < n; ++i) {
    std::fill(one.begin(), one.end(), 0.0);
    Uniforms<double> u{rng::Stream(5, static_cast<std::uint64_t>(i))};
    Particle3<double> p{};
    REQUIRE(start_particle(source, g, u, &p));
    started_in_fuel += locate(g, p.p, p.u).material == 0 ? 1 : 0;
    int surface = -1;
    REQUIRE(csg_history(g, m.view(), u, p, tally, &surface) == Fate::Absorbed);
    for (std::size_t j = 0; j < one.size(); ++j) sum[j] += one[j], sum2[j] += one[j] * one[j];
    const double a = one[kAbsorption] + one[kTallyScores + kAbsorption];  // the material tally's two bins
    absorbed_sum += a, absorbed_sum2 += a * a;
  }
  CHECK(started_in_fuel == n);
  const auto mean = [&](int slot) { return sum[static_cast<std::size_t>(slot)] / n; };
  const auto error = [&](int slot) {
    const double m1 = mean(slot);
    return std::sqrt((sum2[static_cast<std::size_t>(slot)] / n - m1 * m1) / (n - 1));
  };
  const auto slot = [&](int tally_index, int bin, int score) { return t.first_slot[static_cast<std::size_t>(tally_index)] + bin * kTallyScores + score; };
  // Mirrors all round: every history is absorbed, so the absorption rate is one a history.
  const double absorbed = absorbed_sum / n, absorbed_error = std::sqrt((absorbed_sum2 / n - absorbed * absorbed) / (n - 1));
  CHECK(absorbed == Approx(mean(slot(0, 0, kAbsorption)) + mean(slot(0, 1, kAbsorption))).epsilon(1e-12));
  CHECK(std::fabs(absorbed - 1) <= 4 * absorbed_error);
  CHECK(absorbed_error < 0.02);
  // The nine pins are alike: each within 4 errors of their mean; together they are the fuel's fission exactly.
  double pins_total = 0;
  for (int b = 0; b < 9; ++b) pins_total += mean(slot(1, b, kFission));
  for (int b = 0; b < 9; ++b) {
    INFO("pin " << b);
    CHECK(std::fabs(mean(slot(1, b, kFission)) - pins_total / 9) <= 4 * error(slot(1, b, kFission)));
    CHECK(mean(slot(1, b, kNuFission)) == Approx(2.5 * mean(slot(1, b, kFission))).epsilon(1e-12));
  }
  CHECK(pins_total == Approx(mean(slot(0, 0, kFission))).epsilon(1e-12));
  // The fuel cell (the pin universe's first) sees exactly the fuel material's tracks.
  for (int score = 0; score < kTallyScores; ++score) CHECK(mean(slot(2, 0, score)) == mean(slot(0, 0, score)));
  CHECK(mean(slot(2, 2, kFlux)) == 0);  // the root's box cell holds no track: it is filled
  // The 2-D mesh over the whole lattice splits the same tracks: its bins add up to all of the flux and absorption.
  for (const int score : {kFlux, kAbsorption}) {
    double on_mesh = 0;
    for (int b = 0; b < 36; ++b) on_mesh += mean(slot(3, b, score));
    CHECK(on_mesh == Approx(mean(slot(0, 0, score)) + mean(slot(0, 1, score))).epsilon(1e-12));
  }
  // By symmetry a corner bin of the mesh and its mirror image across the centre see the same flux.
  CHECK(std::fabs(mean(slot(3, 0, kFlux)) - mean(slot(3, 35, kFlux))) <= 4 * std::hypot(error(slot(3, 0, kFlux)), error(slot(3, 35, kFlux))));
}

TEST_CASE("a track through a regular mesh is cut where it crosses the mesh's planes", "[transport][csg]") {
  CsgTallySpec mesh{"m", TallyFilter::Mesh, -1, {0, 0, 0}, {3, 2, 0}, {3, 2, 1}};  // 2-D: unbounded in z
  const TransportSpec s = materials_spec("materials: [{ name: m, total: 1, scatter: 0.5 }]\ngeometry: { type: infinite }\nregions: [m]\n");
  const auto a = csg_tally_arrays<double>({mesh}, s, pins(1));
  const CsgTallyView<double> t = a.view();
  std::vector<std::pair<int, double>> pieces;
  const auto record = [&](int bin, double length) { pieces.push_back({bin, length}); };
  // Along x at y = 0.5 from outside: three bins of length 1 each, then out.
  mesh_pieces(t, 0, Vec3<double>{-1, 0.5, 7}, Vec3<double>{1, 0, 0}, 5.0, record);
  REQUIRE(pieces.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(pieces[static_cast<std::size_t>(i)].first == i);
    CHECK(pieces[static_cast<std::size_t>(i)].second == Approx(1).epsilon(1e-15));
  }
  // Diagonally from inside: x = 1 at t = 5/6, y = 1 at t = 15/16, out through y = 2 at t = 35/16.
  pieces.clear();
  mesh_pieces(t, 0, Vec3<double>{0.5, 0.25, 0}, Vec3<double>{0.6, 0.8, 0}, 10.0, record);
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0].first == 0);
  CHECK(pieces[0].second == Approx(5.0 / 6).epsilon(1e-14));
  CHECK(pieces[1].first == 1);
  CHECK(pieces[1].second == Approx(15.0 / 16 - 5.0 / 6).epsilon(1e-13));
  CHECK(pieces[2].first == 4);
  CHECK(pieces[2].second == Approx(35.0 / 16 - 15.0 / 16).epsilon(1e-14));
  // Ending inside the mesh, and missing it.
  pieces.clear();
  mesh_pieces(t, 0, Vec3<double>{2.5, 1.5, 0}, Vec3<double>{-1, 0, 0}, 0.75, record);
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].first == 5);
  CHECK(pieces[0].second == Approx(0.5).epsilon(1e-15));
  CHECK(pieces[1].first == 4);
  CHECK(pieces[1].second == Approx(0.25).epsilon(1e-14));
  pieces.clear();
  mesh_pieces(t, 0, Vec3<double>{-1, 3, 0}, Vec3<double>{1, 0, 0}, 10.0, record);
  CHECK(pieces.empty());
  // A 3-D mesh, 2 x 1 x 2 over [0, 2] x [0, 1] x [0, 2], upwards: bins (0, 0, 0) then (0, 0, 1).
  CsgTallySpec cube{"c", TallyFilter::Mesh, -1, {0, 0, 0}, {2, 1, 2}, {2, 1, 2}};
  const auto b = csg_tally_arrays<double>({cube}, s, pins(1));
  mesh_pieces(b.view(), 0, Vec3<double>{0.5, 0.5, 0.5}, Vec3<double>{0, 0, 1}, 10.0, record);
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].first == 0);
  CHECK(pieces[0].second == Approx(0.5).epsilon(1e-15));
  CHECK(pieces[1].first == 2);
  CHECK(pieces[1].second == Approx(1).epsilon(1e-15));
}

namespace {
// A history's scalar scores and banked sites through a CsgScorer with no tallies.
struct EigenSink {
  std::vector<std::pair<Vec3<double>, int>>* sites;
  void add(int, double) {}
  void bank_site(Vec3<double> p, int g) { sites->push_back({p, g}); }
};
struct Eigen {
  const CsgView<double>& g;
  const LayerView<double>& materials;
  const CsgTallyView<double>& t;
  // One history from p; its scores.
  Scores<double> history(Particle3<double> p, std::uint64_t stream, double inv_k, std::vector<std::pair<Vec3<double>, int>>* bank) const {
    Uniforms<double> u{rng::Stream(41, stream)};
    Scores<double> s{};
    EigenSink sink{bank};
    CsgScorer<double, EigenSink> scorer{t, materials, true, u, sink, inv_k, s};
    int surface = -1;
    csg_history(g, materials, u, p, scorer, &surface);
    return s;
  }
};
}  // namespace

TEST_CASE("k's three estimators in a mirrored box of one material are its k-infinity from any source", "[transport][csg]") {
  // Absorption 0.4, nu-fission 2.4 x 0.25 = 0.6: k-infinity 1.5.
  const TransportSpec s = materials_spec(
      "materials: [{ name: fuel, total: 1.0, scatter: 0.6, fission: 0.25, nu: 2.4, capture: 0.15, mean_cosine: 0.2 }]\n"
      "geometry: { type: infinite }\nregions: [fuel]\n");
  CsgSpec spec;
  spec.surfaces = {csg_surface("lo", SurfaceKind::XPlane, {0}, SurfaceBoundary::Reflective),
                   csg_surface("hi", SurfaceKind::XPlane, {1}, SurfaceBoundary::Reflective),
                   csg_surface("ball", SurfaceKind::Sphere, {0.5, 0, 0, 3}, SurfaceBoundary::Reflective)};
  spec.cells = {csg_cell("inside", "root", "+lo -hi -ball", Fill::Material, "fuel")};
  const Csg csg(spec, {"fuel"});
  const auto arrays = csg.arrays<double>();
  const LayerArrays<double> m = material_arrays<double>(s);
  const LayerView<double> mats = m.view();
  const auto t = csg_tally_arrays<double>({}, s, csg);
  const CsgTallyView<double> tv = t.view();
  const Eigen e{arrays.host_view(), mats, tv};
  const int n = 20000;
  double sum[3] = {}, sum2[3] = {};
  std::vector<std::pair<Vec3<double>, int>> bank;
  for (int i = 0; i < n; ++i) {
    const Scores<double> sc = e.history({{0.1, 0.2, -0.3}, {0, 0.6, 0.8}, 1.0, 0}, static_cast<std::uint64_t>(i), 1.0, &bank);
    const double k[3] = {sc.k_collision, sc.k_absorption, sc.k_track};
    for (int j = 0; j < 3; ++j) sum[j] += k[j], sum2[j] += k[j] * k[j];
  }
  for (int j = 0; j < 3; ++j) {
    const double mean = sum[j] / n, error = std::sqrt(std::max(0.0, sum2[j] / n - mean * mean) / (n - 1));
    INFO("estimator " << j << ": " << mean << " +- " << error);
    if (j == 1) {  // every history is absorbed once, whole: the absorption estimator is exact
      CHECK(mean == Approx(1.5).epsilon(1e-12));
      continue;
    }
    CHECK(std::fabs(mean - 1.5) <= 4 * error);
    CHECK(error < 0.02);
  }
  // Sites come at k's collision score over k (here k = 1): as many as its sum, within rounding of each draw.
  CHECK(std::fabs(static_cast<double>(bank.size()) - sum[0]) <= 4 * std::sqrt(static_cast<double>(n)));
}

namespace {
// Power iteration: `generations` of n histories, the first `inactive` unscored,
// each from n sites drawn uniformly from the last bank (a fixed sequence), with
// the last generation's k. Returns the active generations' collision k; the last
// bank's draw in *last.
std::vector<double> generations(const Eigen& e, Vec3<double> low, Vec3<double> high, int n, int inactive, int active,
                                std::vector<std::pair<Vec3<double>, int>>* last) {
  std::mt19937_64 pick(3);
  const auto uniform = [&] { return static_cast<double>(pick() >> 11) * 0x1p-53; };
  std::vector<std::pair<Vec3<double>, int>> sites, bank;
  for (int i = 0; i < n; ++i)  // a flat first guess over the box
    sites.push_back({{low.x + (high.x - low.x) * uniform(), low.y + (high.y - low.y) * uniform(), low.z + (high.z - low.z) * uniform()}, 0});
  double k = 1;
  std::vector<double> ks;
  std::uint64_t stream = 0;
  for (int gen = 0; gen < inactive + active; ++gen) {
    bank.clear();
    double score = 0;
    for (const auto& [p, grp] : sites) {
      const double a = uniform(), b = uniform();
      score += e.history({p, isotropic_direction(a, b), 1.0, grp}, stream++, 1 / k, &bank).k_collision;
    }
    k = score / n;
    if (gen >= inactive) ks.push_back(k);
    REQUIRE(!bank.empty());
    sites.clear();
    for (int i = 0; i < n; ++i) sites.push_back(bank[static_cast<std::size_t>(uniform() * static_cast<double>(bank.size()))]);
  }
  *last = sites;
  return ks;
}
// The mean of xs and its error by batch means of `batches` batches.
std::pair<double, double> batch_mean(const std::vector<double>& xs, int batches) {
  const std::size_t per = xs.size() / static_cast<std::size_t>(batches);
  double mean = 0, ss = 0;
  std::vector<double> means;
  for (int b = 0; b < batches; ++b) {
    double m = 0;
    for (std::size_t i = 0; i < per; ++i) m += xs[static_cast<std::size_t>(b) * per + i];
    means.push_back(m / static_cast<double>(per));
    mean += means.back() / batches;
  }
  for (const double m : means) ss += (m - mean) * (m - mean);
  return {mean, std::sqrt(ss / (batches * (batches - 1.0)))};
}
}  // namespace

TEST_CASE("power iteration on one mirrored pin cell finds the k of a mirrored 3 x 3 lattice of it", "[transport][csg]") {
  const TransportSpec s = materials_spec(
      "materials:\n"
      "  - { name: fuel, total: 1.2, scatter: 0.4, fission: 0.3, nu: 2.5, capture: 0.5 }\n"
      "  - { name: water, total: 2.0, scatter: 1.97, capture: 0.03, mean_cosine: 0.3 }\n"
      "geometry: { type: infinite }\nregions: [fuel]\n");
  const LayerArrays<double> m = material_arrays<double>(s);
  const LayerView<double> mats = m.view();
  const Csg one = pins(1), nine = pins(3);
  const auto t = csg_tally_arrays<double>({}, s, one);
  const CsgTallyView<double> tv = t.view();
  const auto a1 = one.arrays<double>(), a9 = nine.arrays<double>();
  std::vector<std::pair<Vec3<double>, int>> sites1, sites9;
  const auto k1 = batch_mean(generations(Eigen{a1.host_view(), mats, tv}, {-0.63, -0.63, 0}, {0.63, 0.63, 1}, 2000, 15, 60, &sites1), 6);
  const auto k9 = batch_mean(generations(Eigen{a9.host_view(), mats, tv}, {-1.89, -1.89, 0}, {1.89, 1.89, 1}, 2000, 15, 60, &sites9), 6);
  // Sites are where fuel collided: in fuel, spread over the pin (not at its centre) and over all nine pins alike.
  int pin_count[9] = {};
  double r2 = 0;
  for (const auto& [p, grp] : sites9) {
    const Location<double> loc = locate(a9.host_view(), p, Vec3<double>{1, 0, 0});
    REQUIRE(loc.material == 0);
    ++pin_count[loc.level[0].j * 3 + loc.level[0].i];
  }
  for (const auto& [p, grp] : sites1) r2 += (p.x * p.x + p.y * p.y) / static_cast<double>(sites1.size());
  CHECK(r2 == Approx(0.4 * 0.4 / 2).epsilon(0.1));  // uniform over the disc: r^2 averages R^2 / 2 (the flux is nearly flat in it)
  for (const int c : pin_count) CHECK(c > 2000 / 9 / 2);
  INFO("pin " << k1.first << " +- " << k1.second << ", lattice " << k9.first << " +- " << k9.second);
  CHECK(std::fabs(k1.first - k9.first) <= 4 * std::hypot(k1.second, k9.second));
  CHECK(k1.second < 0.01);
  // Between the fuel's own k-infinity (0.75 / 0.8) and nothing: the water absorbs some.
  CHECK(k1.first < 0.9375);
  CHECK(k1.first > 0.5);
}
