// Flights at a lattice's walls far from the origin, where a float's rounding is
// 4e-6: a flight grazing a wall crosses each one it should, and a collision a
// rounding short of a wall stays in its cell, in float and double.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>

#include "models/transport/geometry/csg_geometry.hpp"
#include "models/transport/geometry/csg_history.hpp"
#include "models/transport/geometry/csg_tally.hpp"
#include "transport_spec_text.hpp"

using namespace mcsim;
using namespace mcsim::transport;
using namespace mcsim::transport::geometry;

namespace {
// A tally that scores nothing.
template <class Real>
struct Unscored {
  void track(const Place&, Vec3<Real>, int, Real, Vec3<Real>, Real) {}
  void collision(int, int, Real, Vec3<Real>) {}
  void absorbed(int, int, Real) {}
};

// A 17 x 17 lattice of pins far from the origin (x, y in [40, 61.42], where a
// float's rounding is 4e-6), mirrors on the west and south faces.
Csg far_lattice() {
  CsgSpec spec;
  spec.surfaces = {csg_surface("fuel", SurfaceKind::ZCylinder, {0, 0, 0.54}),
                   csg_surface("w", SurfaceKind::XPlane, {40}, SurfaceBoundary::Reflective),
                   csg_surface("e", SurfaceKind::XPlane, {61.42}, SurfaceBoundary::Vacuum),
                   csg_surface("s", SurfaceKind::YPlane, {40}, SurfaceBoundary::Reflective),
                   csg_surface("n", SurfaceKind::YPlane, {61.42}, SurfaceBoundary::Vacuum)};
  spec.cells = {csg_cell("fuel", "pin", "-fuel", Fill::Material, "fuel"), csg_cell("water", "pin", "+fuel", Fill::Material, "water"),
                csg_cell("box", "root", "+w -e +s -n", Fill::Lattice, "grid")};
  LatticeSpec l;
  l.name = "grid", l.lower_left = {40, 40, 0}, l.pitch = {1.26, 1.26, 0}, l.shape = {17, 17, 1};
  l.universes.assign(17 * 17, "pin");
  spec.lattices = {l};
  return Csg(spec, {"fuel", "water"});
}

// The far lattice's fuel and water, both of this total and scattering cross section.
TransportSpec far_materials(const std::string& total, const std::string& scatter) {
  const std::string xs = "total: " + total + ", scatter: " + scatter + " }\n";
  return materials_spec("materials:\n  - { name: fuel, " + xs + "  - { name: water, " + xs +
                        "geometry: { type: infinite }\nregions: [fuel]\n");
}

// Histories that graze the lattice's walls through nearly void material: each must
// cross every wall and pin it meets and leak through the east or north face. Some
// start on a wall.
template <class Real>
void check_grazing_flights() {
  const TransportSpec s = far_materials("1.0e-8", "0");
  const CsgArrays<Real> arrays = far_lattice().arrays<Real>();
  const LayerArrays<Real> m = material_arrays<Real>(s);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0, 1);
  int leaked = 0, absorbed = 0, most = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    // Directions within 0.1 to 3 degrees of the z axis; every other start on a wall.
    const double sine = 0.002 + 0.05 * unit(rng), phi = 2 * M_PI * unit(rng);
    double x = 40 + 21.42 * unit(rng), y = 40 + 21.42 * unit(rng);
    if (i % 2) (i % 4 == 1 ? x : y) = 40 + 1.26 * (1 + static_cast<int>(15 * unit(rng)));
    Particle3<Real> p{{Real(x), Real(y), Real(0)},
                      {Real(sine * std::cos(phi)), Real(sine * std::sin(phi)), Real(std::sqrt(1 - sine * sine))}, Real(1), 0};
    Uniforms<Real> u{rng::Stream(31, static_cast<std::uint64_t>(i))};
    Unscored<Real> t;
    int surface = -1;
    const Fate f = csg_history(arrays.host_view(), m.view(), u, p, t, &surface);
    INFO("history " << i << ": from " << x << " " << y << " along " << p.u.x << " " << p.u.y << ", " << p.flights << " flights");
    CHECK((f == Fate::LeakedHigh || f == Fate::Absorbed));
    // Across the box and back at most three times: some 200 walls and pins.
    CHECK(p.flights <= 400);
    leaked += f == Fate::LeakedHigh && (surface == 2 || surface == 4);
    absorbed += f == Fate::Absorbed;
    most = std::max(most, p.flights);
  }
  INFO(most << " flights at most");
  CHECK(leaked + absorbed == n);
  CHECK(leaked > n / 2);
}
}  // namespace

TEST_CASE("float and double histories grazing the walls of a lattice far from the origin cross each one", "[transport][csg]") {
  SECTION("float") { check_grazing_flights<float>(); }
  SECTION("double") { check_grazing_flights<double>(); }
}

namespace {
// Flights from random points of the far lattice whose collision falls a rounding
// short of the boundary ahead (the largest distance below it): the sum p + d u may
// round onto the wall or past it, where the next search would find the cell beyond,
// or none (a mirror's far side). Each must stay in its cell, by the nudge or more.
template <class Real>
void check_collisions_at_walls() {
  const TransportSpec s = far_materials("1.0", "1.0");
  const CsgArrays<Real> arrays = far_lattice().arrays<Real>();
  const CsgView<Real> g = arrays.host_view();
  const LayerArrays<Real> m = material_arrays<Real>(s);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  int moved_back = 0;
  for (int i = 0; i < 2000; ++i) {
    const double mu = 2 * unit(rng) - 1, phi = 2 * M_PI * unit(rng), r = std::sqrt(1 - mu * mu);
    Particle3<Real> p{{Real(40 + 21.42 * unit(rng)), Real(40 + 21.42 * unit(rng)), Real(0)},
                      {Real(r * std::cos(phi)), Real(r * std::sin(phi)), Real(mu)}, Real(1), 0};
    const Location<Real> from = locate(g, p.p, p.u);
    const geometry::Boundary<Real> b = distance_to_boundary(g, from, p.u);
    if (from.material < 0 || !(b.distance < Real(1))) continue;  // mu near 1: no wall near
    Uniforms<Real> u{rng::Stream(3, static_cast<std::uint64_t>(i))};
    u.renew();
    u.e = std::nextafter(b.distance, Real(0));  // mean free path 1: the flight's distance
    const Vec3<Real> along = p.u, start = p.p;
    Unscored<Real> t;
    Fate f{};
    int surface = -1;
    REQUIRE(csg_flight(g, m.view(), u, p, t, &f, &surface));  // a pure scatterer: the collision scatters
    const Location<Real> at = locate(g, p.p, along);  // on the wall, moving on: the far side
    INFO("flight " << i << " from " << start.x << " " << start.y << " along " << along.x << " " << along.y << " " << along.z
                   << ": collision at " << p.p.x << " " << p.p.y);
    REQUIRE(at.levels == from.levels);
    CHECK(at.material == from.material);
    for (int l = 0; l < at.levels; ++l) {
      CHECK(at.level[l].cell == from.level[l].cell);
      CHECK(at.level[l].i == from.level[l].i);
      CHECK(at.level[l].j == from.level[l].j);
    }
    moved_back += dot(p.p - start, along) < b.distance - Real(0.5) * surface_nudge<Real>();
  }
  INFO(moved_back << " collisions moved back");
  CHECK(moved_back > 1000);
}
}  // namespace

TEST_CASE("a collision a rounding short of a wall stays in its cell, in float and double", "[transport][csg]") {
  SECTION("float") { check_collisions_at_walls<float>(); }
  SECTION("double") { check_collisions_at_walls<double>(); }
}
