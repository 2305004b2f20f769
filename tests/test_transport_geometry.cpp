// Constructive solid geometry: surfaces' distances and normals against exact
// answers, OpenMC's region syntax, locating points in a lattice of pin cells,
// tracing a ray through it against its chords, and the sampling check's overlaps
// and holes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/diagnostics.hpp"
#include "models/transport/geometry/csg_config.hpp"
#include "models/transport/geometry/csg_geometry.hpp"
#include "transport_spec_text.hpp"

using namespace mcsim::transport::geometry;

namespace {

// A 2 x 2 lattice of pitch 1.26 centred on the origin, written top row first:
// pin, water / water, pin. A pin is a fuel cylinder of radius 0.5 in water.
CsgSpec pin_lattice() {
  CsgSpec s;
  s.surfaces = {csg_surface("fuel", SurfaceKind::ZCylinder, {0, 0, 0.5}),
                csg_surface("left", SurfaceKind::XPlane, {-1.26}, SurfaceBoundary::Reflective),
                csg_surface("right", SurfaceKind::XPlane, {1.26}, SurfaceBoundary::Reflective),
                csg_surface("bottom", SurfaceKind::YPlane, {-1.26}, SurfaceBoundary::Reflective),
                csg_surface("top", SurfaceKind::YPlane, {1.26}, SurfaceBoundary::Reflective)};
  s.cells = {csg_cell("core", "root", "+left -right +bottom -top", Fill::Lattice, "grid"),
             csg_cell("fuel", "pin", "-fuel", Fill::Material, "uo2"), csg_cell("moderator", "pin", "+fuel", Fill::Material, "water"),
             csg_cell("water", "water", "", Fill::Material, "water")};
  LatticeSpec l;
  l.name = "grid", l.lower_left = {-1.26, -1.26, 0}, l.pitch = {1.26, 1.26, 0}, l.shape = {2, 2, 1};
  l.universes = {"pin", "water", "water", "pin"};
  s.lattices = {l};
  return s;
}
const std::vector<std::string> kMaterials{"uo2", "water"};

}  // namespace

TEST_CASE("surface distances and reflections are exact for planes, cylinders, spheres and quadrics", "[transport][geometry]") {
  const Vec3<double> o{0, 0, 0};
  const double zcyl[] = {0, 0, 2}, sphere[] = {1, 0, 0, 3}, plane[] = {1, 1, 0, 2};
  // From the axis outwards at 45 degrees in x-y and rising in z: the radius 2 in x-y is reached after 2 / sin(theta).
  const double s = std::sqrt(0.5);
  const Vec3<double> u{s * 0.8, s * 0.8, 0.6};  // |u| = 1
  CHECK(surface_distance(SurfaceKind::ZCylinder, zcyl, o, u) == Approx(2 / (0.8)).epsilon(1e-14));
  // From outside, towards the axis: the near wall, not the far one.
  CHECK(surface_distance(SurfaceKind::ZCylinder, zcyl, Vec3<double>{5, 0, 0}, Vec3<double>{-1, 0, 0}) == Approx(3).epsilon(1e-14));
  CHECK(std::isinf(surface_distance(SurfaceKind::ZCylinder, zcyl, Vec3<double>{5, 0, 0}, Vec3<double>{1, 0, 0})));
  CHECK(std::isinf(surface_distance(SurfaceKind::ZCylinder, zcyl, o, Vec3<double>{0, 0, 1})));  // along the axis
  // Sphere centred at x = 1, radius 3, from the origin along -x: 2 away.
  CHECK(surface_distance(SurfaceKind::Sphere, sphere, o, Vec3<double>{-1, 0, 0}) == Approx(2).epsilon(1e-14));
  // The same sphere as a general quadric: x^2 + y^2 + z^2 - 2x + 1 - 9.
  const double quadric[] = {1, 1, 1, 0, 0, 0, -2, 0, 0, -8};
  for (const Vec3<double>& dir : {Vec3<double>{-1, 0, 0}, u, Vec3<double>{0, -0.6, 0.8}})
    CHECK(surface_distance(SurfaceKind::Quadric, quadric, Vec3<double>{0.5, 0.2, -0.1}, dir) ==
          Approx(surface_distance(SurfaceKind::Sphere, sphere, Vec3<double>{0.5, 0.2, -0.1}, dir)).epsilon(1e-13));
  // x + y = 2 from the origin along u: u.x + u.y = 2 s 0.8, so t = 2 / (1.6 s).
  CHECK(surface_distance(SurfaceKind::Plane, plane, o, u) == Approx(2 / (1.6 * s)).epsilon(1e-14));
  CHECK(std::isinf(surface_distance(SurfaceKind::Plane, plane, o, Vec3<double>{-s, -s, 0})));
  CHECK(std::isinf(surface_distance(SurfaceKind::Plane, plane, o, Vec3<double>{s, -s, 0})));  // parallel
  // Sides: the origin is inside the cylinder and the sphere, on the "-" side of the plane.
  CHECK_FALSE(positive_side(SurfaceKind::ZCylinder, zcyl, o, u));
  CHECK_FALSE(positive_side(SurfaceKind::Plane, plane, o, u));
  CHECK(positive_side(SurfaceKind::Plane, plane, Vec3<double>{1, 1, 0}, u));  // on it, moving to its "+" side
  CHECK_FALSE(positive_side(SurfaceKind::Plane, plane, Vec3<double>{1, 1, 0}, Vec3<double>{-s, -s, 0}));
  // A mirror keeps the tangential part and reverses the normal one.
  const Vec3<double> r = reflect(SurfaceKind::ZCylinder, zcyl, Vec3<double>{2, 0, 0}, Vec3<double>{0.6, 0.8, 0});
  CHECK(r.x == Approx(-0.6).epsilon(1e-15));
  CHECK(r.y == Approx(0.8).epsilon(1e-15));
  const Vec3<double> m = reflect(SurfaceKind::Plane, plane, Vec3<double>{1, 1, 0}, Vec3<double>{1, 0, 0});
  CHECK(m.x == Approx(0).margin(1e-15));
  CHECK(m.y == Approx(-1).epsilon(1e-15));
}

TEST_CASE("regions in OpenMC's syntax: juxtaposition before union, complement before both", "[transport][geometry]") {
  const std::vector<std::string> names{"a", "b", "c"};
  // -a +b | -c  is  ((-a) and (+b)) or (-c).
  CHECK(parse_region("-a +b | -c", names) == std::vector<int>{0, 3, kAnd, 4, kOr});
  CHECK(parse_region("-a (+b | -c)", names) == std::vector<int>{0, 3, 4, kOr, kAnd});
  CHECK(parse_region(" ~(-a) ", names) == std::vector<int>{0, kNot});
  CHECK(parse_region("", names).empty());
  const auto fails = [&](const std::string& region, const std::string& what) {
    INFO(region);
    try {
      parse_region(region, names);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  fails("-a +d", "no surface is named 'd' (column 5");
  fails("-a (+b | -c", "a '(' is not closed");
  fails("-a )", "')' where an operator or the end was expected (column 4");
  fails("-a | ", "the region ends where a half-space was expected");
  fails("a", "'a' where a half-space (+name or -name)");
  fails("- a", "'-' is not followed by a surface name (column 1");
  std::string deep;
  for (int i = 0; i < 20; ++i) deep += "(-a | ";
  deep += "-b";
  for (int i = 0; i < 20; ++i) deep += ")";
  fails(deep, "nests deeper than");
  // A hostile region is refused at its nesting, not by running out of stack.
  fails(std::string(1000000, '(') + "-a", "nests deeper than 64 parentheses and complements");
  fails(std::string(1000000, '~') + "-a", "nests deeper than 64 parentheses and complements");
}

TEST_CASE("points in a lattice of pin cells are found in their element's cell, rows written top first", "[transport][geometry]") {
  const Csg csg(pin_lattice(), kMaterials);
  for (const bool in_float : {false, true}) {
    INFO((in_float ? "float" : "double"));
    const auto material_at = [&](double x, double y) {
      const Vec3<double> u{1, 0, 0};
      if (in_float) {
        const auto a = csg.arrays<float>();
        return locate(a.host_view(), Vec3<float>{float(x), float(y), 0.f}, Vec3<float>{1, 0, 0}).material;
      }
      const auto a = csg.arrays<double>();
      return locate(a.host_view(), Vec3<double>{x, y, 0}, u).material;
    };
    // Top-left and bottom-right elements hold pins; the others water.
    CHECK(material_at(-0.63, 0.63) == 0);
    CHECK(material_at(0.63, -0.63) == 0);
    CHECK(material_at(0.63, 0.63) == 1);
    CHECK(material_at(-0.63, -0.63) == 1);
    CHECK(material_at(-0.63 + 0.49, 0.63) == 0);  // inside the pin's radius
    CHECK(material_at(-0.63 + 0.51, 0.63) == 1);  // just outside it
    CHECK(material_at(1.3, 0) == -1);             // outside the core: lost
  }
  const auto a = csg.arrays<double>();
  const Location<double> loc = locate(a.host_view(), Vec3<double>{-0.5, 0.7, 3}, Vec3<double>{1, 0, 0});
  REQUIRE(loc.levels == 2);
  CHECK(loc.level[0].lattice == 0);
  CHECK(loc.level[0].i == 0);
  CHECK(loc.level[0].j == 1);
  CHECK(loc.level[1].p.x == Approx(0.13).epsilon(1e-12));  // in the element's own coordinates
  CHECK(loc.level[1].p.y == Approx(0.07).epsilon(1e-12));
  CHECK(loc.level[1].p.z == 3);
}

TEST_CASE("a ray through the lattice crosses each pin along its chord and stops at every wall", "[transport][geometry]") {
  const Csg csg(pin_lattice(), kMaterials);
  const auto arrays = csg.arrays<double>();
  const CsgView<double> g = arrays.host_view();
  // Along y = 0.63 + 0.3 (the top row, 0.3 above the pins' centres), from the left wall to the right.
  const double y = 0.93, chord = 2 * std::sqrt(0.25 - 0.09);
  const Vec3<double> u{1, 0, 0};
  Vec3<double> p{-1.26 + 1e-12, y, 0};
  double in_fuel = 0, in_water = 0;
  int stops = 0;
  for (;;) {
    const Location<double> loc = locate(g, p, u);
    if (loc.material < 0) break;
    const Boundary<double> b = distance_to_boundary(g, loc, u);
    REQUIRE(std::isfinite(b.distance));
    (loc.material == 0 ? in_fuel : in_water) += b.distance;
    p = p + (b.distance + 1e-12) * u;
    REQUIRE(++stops < 20);
  }
  CHECK(in_fuel == Approx(chord).epsilon(1e-10));
  CHECK(in_fuel + in_water == Approx(2.52).epsilon(1e-10));
  CHECK(stops == 4);  // water, fuel, water to the lattice wall, then the water element
}

TEST_CASE("the geometry check finds no fault in the pin lattice, and points at an overlap and a hole", "[transport][geometry]") {
  const Csg good(pin_lattice(), kMaterials);
  CHECK(check_geometry(good, {-1.26, -1.26, -1}, {1.26, 1.26, 1}, 20000).kind == GeometryProblem::None);

  CsgSpec overlap = pin_lattice();
  overlap.cells[2].region = "+fuel | -fuel";  // the moderator now covers the fuel too
  const GeometryProblem o = check_geometry(Csg(overlap, kMaterials), {-1.26, -1.26, -1}, {1.26, 1.26, 1}, 20000);
  REQUIRE(o.kind == GeometryProblem::Overlap);
  CHECK(o.universe == "pin");
  CHECK(o.cells == std::vector<std::string>{"fuel", "moderator"});
  CHECK(o.message().find("in cells 'fuel', 'moderator' of universe 'pin' at once") != std::string::npos);

  CsgSpec hole = pin_lattice();
  hole.surfaces.push_back(csg_surface("gap", SurfaceKind::ZCylinder, {0, 0, 0.55}));
  hole.cells[2].region = "+gap";  // nothing between radius 0.5 and 0.55
  const GeometryProblem h = check_geometry(Csg(hole, kMaterials), {-1.26, -1.26, -1}, {1.26, 1.26, 1}, 20000);
  REQUIRE(h.kind == GeometryProblem::Hole);
  CHECK(h.universe == "pin");
  // The point is in the gap of a pin element: 0.5 < r < 0.55 from its centre (-0.63, 0.63) or (0.63, -0.63).
  const double r = std::min(std::hypot(h.point[0] + 0.63, h.point[1] - 0.63), std::hypot(h.point[0] - 0.63, h.point[1] + 0.63));
  CHECK(r > 0.5);
  CHECK(r < 0.55);
}

TEST_CASE("a geometry's faults name the surface, cell, lattice or universe", "[transport][geometry]") {
  const auto fails = [](CsgSpec spec, const std::string& what) {
    try {
      Csg(std::move(spec), kMaterials);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
  };
  CsgSpec s = pin_lattice();
  s.cells[1].fill = "steel";
  fails(s, "cell 'fuel': no material is named 'steel'");
  s = pin_lattice();
  s.cells[1].region = "-fuel +nowhere";
  fails(s, "region of cell 'fuel': no surface is named 'nowhere'");
  s = pin_lattice();
  s.lattices[0].universes.pop_back();
  fails(s, "lattice 'grid': 3 universes for a 2 x 2 x 1 lattice");
  s = pin_lattice();
  s.lattices[0].universes[0] = "box";
  fails(s, "lattice 'grid': no cell makes up a universe 'box'");
  s = pin_lattice();
  s.cells[3] = csg_cell("water", "water", "", Fill::Universe, "water");  // a universe filled with itself
  fails(s, "universe 'water' is filled within itself");
  s = pin_lattice();
  s.surfaces[1].boundary = SurfaceBoundary::Periodic, s.surfaces[1].periodic_partner = "fuel";
  fails(s, "periodic surfaces 'left' and 'fuel' must be distinct x-, y- or z-planes of one axis");
  s = pin_lattice();
  s.cells[2].name = "fuel";
  fails(s, "cell 'fuel' is named twice");
  s = pin_lattice();
  for (CellSpec& c : s.cells) c.universe = c.universe == "root" ? "core" : c.universe;
  fails(s, "no cell is in the root universe");
}

namespace {
// Reads a geometry block's text; the diagnostics' lines, or the spec.
CsgSpec read(const std::string& text, std::vector<std::string>* errors) {
  mcsim::io::Diagnostics diag("g.yaml");
  mcsim::io::Block g(YAML::Load(text), "geometry", diag);
  CsgSpec spec = read_csg(g);
  g.finish();
  *errors = diag.lines();
  return spec;
}
// The first error a geometry block's text gets, or "(none)".
std::string first_error(const std::string& text) {
  std::vector<std::string> errors;
  read(text, &errors);
  return errors.empty() ? std::string("(none)") : errors.front();
}
}  // namespace

TEST_CASE("a csg block in OpenMC's terms reads into the geometry it describes", "[transport][geometry]") {
  const std::string text = R"(
surfaces:
  - { name: fuel, type: z-cylinder, coefficients: [0, 0, 0.5] }
  - { name: left, type: x-plane, coefficients: [-1.26], boundary: reflective }
  - { name: right, type: x-plane, coefficients: [1.26], boundary: reflective }
  - { name: bottom, type: y-plane, coefficients: [-1.26], boundary: periodic, periodic_surface: top }
  - { name: top, type: y-plane, coefficients: [1.26], boundary: periodic, periodic_surface: bottom }
cells:
  - { name: core, region: +left -right +bottom -top, lattice: grid }
  - { name: fuel, universe: pin, region: -fuel, material: uo2 }
  - { name: moderator, universe: pin, region: +fuel, material: water }
  - { name: water, universe: water, material: water }
lattices:
  - name: grid
    lower_left: [-1.26, -1.26]
    pitch: [1.26, 1.26]
    universes:
      - [pin, water]
      - [water, pin]
)";
  std::vector<std::string> errors;
  const CsgSpec spec = read(text, &errors);
  INFO(errors.size());
  REQUIRE(errors.empty());
  REQUIRE(spec.surfaces.size() == 5);
  CHECK(spec.surfaces[0].kind == SurfaceKind::ZCylinder);
  CHECK(spec.surfaces[0].c[2] == 0.5);
  CHECK(spec.surfaces[1].boundary == SurfaceBoundary::Reflective);
  CHECK(spec.surfaces[3].periodic_partner == "top");
  REQUIRE(spec.lattices.size() == 1);
  CHECK(spec.lattices[0].shape == std::array<int, 3>{2, 2, 1});
  CHECK(spec.lattices[0].universes == std::vector<std::string>{"pin", "water", "water", "pin"});
  // The same geometry as pin_lattice(): the same materials at the same points.
  const Csg read_back(spec, kMaterials), built(pin_lattice(), kMaterials);
  const auto a = read_back.arrays<double>(), b = built.arrays<double>();
  for (double x = -1.2; x < 1.26; x += 0.15)
    for (double y = -1.2; y < 1.26; y += 0.15) {
      const Vec3<double> p{x, y, 0}, u{1, 0, 0};
      CHECK(locate(a.host_view(), p, u).material == locate(b.host_view(), p, u).material);
    }
  CHECK(check_geometry(read_back, {-1.26, -1.26, -1}, {1.26, 1.26, 1}, 5000).kind == GeometryProblem::None);
}

TEST_CASE("a csg block's mistakes name their key and line", "[transport][geometry]") {
  const std::string cells = "cells:\n  - { name: c, material: m }\n";
  CHECK_THAT(first_error("surfaces:\n  - { name: s, type: z-cylinder, coefficients: [0, 0] }\n" + cells),
             Catch::Contains("g.yaml:2:") && Catch::Contains("geometry.surfaces[0].coefficients") &&
                 Catch::Contains("a z-cylinder takes 3 coefficients: x0 y0 r"));
  CHECK_THAT(first_error("surfaces:\n  - { name: s, type: sphere, coefficients: [0, 0, 0, -1] }\n" + cells),
             Catch::Contains("a radius must be positive, not -1"));
  CHECK_THAT(first_error("surfaces:\n  - { name: s, type: cone, coefficients: [0] }\n" + cells),
             Catch::Contains("geometry.surfaces[0].type"));
  CHECK_THAT(first_error("surfaces:\n  - { name: s, type: plane, coefficients: [0, 0, 0, 1] }\n" + cells),
             Catch::Contains("a plane's a, b and c cannot all be 0"));
  CHECK_THAT(first_error("cells:\n  - { name: c, material: m, lattice: l }\n"),
             Catch::Contains("g.yaml:2:") && Catch::Contains("exactly one of material"));
  CHECK_THAT(first_error("cells:\n  - { name: c, material: m, translation: [1, 2, 3] }\n"),
             Catch::Contains("translation") && Catch::Contains("moves a filled universe"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, lower_left: [0, 0], pitch: [1, 1], universes: [[a, b], [c]] }\n"),
             Catch::Contains("geometry.lattices[0].universes") && Catch::Contains("every row needs 2 universes"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, lower_left: [0, 0, 0], pitch: [1, 1], universes: [[a]] }\n"),
             Catch::Contains("lower_left") && Catch::Contains("takes 2 numbers, as pitch does"));
  CHECK_THAT(first_error("surfaces: []\ncells: []\n"), Catch::Contains("needs at least one cell"));
  CHECK_THAT(first_error(cells + "surface: []\n"), Catch::Contains("surface") && Catch::Contains("surfaces"));
}

TEST_CASE("a 3-D lattice stacks its layers from the lowest, and its outer universe fills around it", "[transport][geometry]") {
  const std::string text = R"(
cells:
  - { name: all, lattice: stack }
  - { name: a, universe: low, material: uo2 }
  - { name: b, universe: high, material: water }
  - { name: around, universe: outside, material: water }
lattices:
  - { name: stack, lower_left: [0, 0, 0], pitch: [1, 1, 2], outer: outside, universes: [[[low]], [[high]]] }
)";
  std::vector<std::string> errors;
  const CsgSpec spec = read(text, &errors);
  REQUIRE(errors.empty());
  CHECK(spec.lattices[0].shape == std::array<int, 3>{1, 1, 2});
  const Csg csg(spec, kMaterials);
  const auto a = csg.arrays<double>();
  const Vec3<double> up{0, 0, 1};
  CHECK(locate(a.host_view(), Vec3<double>{0.5, 0.5, 1.9}, up).material == 0);
  CHECK(locate(a.host_view(), Vec3<double>{0.5, 0.5, 2.1}, up).material == 1);
  const Location<double> out = locate(a.host_view(), Vec3<double>{3, 0.5, 1}, up);
  CHECK(out.material == 1);
  CHECK(csg.universe_names()[static_cast<std::size_t>(out.level[1].universe)] == "outside");
  // Upwards from z = 1.5 in the low layer: the layer's top wall at z = 2, half a unit away.
  const Boundary<double> b = distance_to_boundary(a.host_view(), locate(a.host_view(), Vec3<double>{0.5, 0.5, 1.5}, up), up);
  CHECK(b.distance == Approx(0.5).epsilon(1e-14));
  CHECK(b.surface == -1);
  CHECK(b.level == 0);
}

namespace {
// A hexagonal lattice of three rings, centred at (1, -2) with pitch 1.5, every
// element its own universe e0, e1, ... in the order the rings list them; the
// outside is universe "around".
std::string hex_text(const char* orientation) {
  std::string rings = "[";
  int e = 0;
  for (const int size : {12, 6, 1}) {
    rings += "[";
    for (int i = 0; i < size; ++i) rings += (i ? ", e" : "e") + std::to_string(e++);
    rings += size == 1 ? "]]" : "], ";
  }
  std::string cells = "cells:\n  - { name: all, lattice: hex }\n  - { name: around, universe: around, material: water }\n";
  for (int i = 0; i < 19; ++i) cells += "  - { name: c" + std::to_string(i) + ", universe: e" + std::to_string(i) + ", material: uo2 }\n";
  return cells + "lattices:\n  - { name: hex, type: hexagonal, center: [1, -2], pitch: [1.5], orientation: " + orientation +
         ", outer: around, rings: " + rings + " }\n";
}
}  // namespace

TEST_CASE("a hexagonal lattice puts each point in its nearest centre's element, rings listed clockwise", "[transport][geometry]") {
  // The centres as the rings describe them, independently of the lattice's axial
  // indices: ring r's corners at r pitch from the centre, from the top (y) or the
  // east (x) clockwise, its elements evenly along the sides between them.
  for (const char* orientation : {"y", "x"}) {
    INFO(orientation);
    std::vector<std::string> errors;
    const CsgSpec spec = read(hex_text(orientation), &errors);
    REQUIRE(errors.empty());
    CHECK(spec.lattices[0].shape == std::array<int, 3>{5, 5, 1});
    const Csg csg(spec, kMaterials);
    const auto a = csg.arrays<double>();
    const double pitch = 1.5, cx = 1, cy = -2, first = orientation[0] == 'y' ? 90 : 0;
    std::vector<std::array<double, 2>> centres;
    for (const int r : {2, 1, 0}) {
      const auto corner = [&](int k) {
        const double t = (first - 60.0 * k) * M_PI / 180;
        return std::array<double, 2>{cx + r * pitch * std::cos(t), cy + r * pitch * std::sin(t)};
      };
      if (r == 0) centres.push_back({cx, cy});
      for (int e = 0; e < 6 * r; ++e) {
        const auto c0 = corner(e / r), c1 = corner(e / r + 1);
        const double f = static_cast<double>(e % r) / r;
        centres.push_back({c0[0] + f * (c1[0] - c0[0]), c0[1] + f * (c1[1] - c0[1])});
      }
    }
    REQUIRE(centres.size() == 19);
    const auto universe_of = [&](const Location<double>& loc) {
      return loc.levels < 2 ? std::string("(none)") : csg.universe_names()[static_cast<std::size_t>(loc.level[1].universe)];
    };
    // Points within the inner rings' inscribed circle: their nearest centre is an element's.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uniform(-1, 1);
    int checked = 0;
    for (int n = 0; n < 20000; ++n) {
      const double x = cx + 2 * pitch * uniform(rng), y = cy + 2 * pitch * uniform(rng);
      if (std::hypot(x - cx, y - cy) > 2 * pitch * std::sqrt(3.0) / 2) continue;
      std::vector<std::pair<double, int>> d;
      for (int e = 0; e < 19; ++e) d.push_back({std::hypot(x - centres[e][0], y - centres[e][1]), e});
      std::sort(d.begin(), d.end());
      if (d[1].first - d[0].first < 1e-9) continue;  // on a wall
      const Location<double> loc = locate(a.host_view(), Vec3<double>{x, y, 0.3}, Vec3<double>{1, 0, 0});
      if (universe_of(loc) != "e" + std::to_string(d[0].second)) {
        INFO("at " << x << ", " << y);
        CHECK(universe_of(loc) == "e" + std::to_string(d[0].second));
        break;
      }
      // The point in the element's coordinates is its offset from that centre.
      CHECK(loc.level[1].p.x == Approx(x - centres[d[0].second][0]).margin(1e-12));
      CHECK(loc.level[1].p.y == Approx(y - centres[d[0].second][1]).margin(1e-12));
      ++checked;
    }
    CHECK(checked > 10000);
    // Beyond the last ring: the outer universe.
    CHECK(universe_of(locate(a.host_view(), Vec3<double>{cx + 4 * pitch, cy, 0}, Vec3<double>{1, 0, 0})) == "around");
    // From the centre element's centre: a neighbour's wall half a pitch away; the
    // corner between two neighbours' walls pitch / sqrt(3) away.
    const Vec3<double> centre{cx, cy, 0};
    for (int k = 0; k < 12; ++k) {
      const double t = (first - 30.0 * k) * M_PI / 180;
      const Vec3<double> u{std::cos(t), std::sin(t), 0};
      const Boundary<double> b = distance_to_boundary(a.host_view(), locate(a.host_view(), centre, u), u);
      CHECK(b.level == 0);
      CHECK(b.distance == Approx(k % 2 ? pitch / std::sqrt(3.0) : pitch / 2).epsilon(1e-12));
    }
  }
}

TEST_CASE("a 3-D hexagonal lattice stacks its layers from the lowest about its centre's z", "[transport][geometry]") {
  // Three layers 2 cm high centred on z = 1 (from -2 to 4), each of two rings: the
  // centre element e<layer>c, its ring e<layer>r; a point above or below is outside.
  std::string cells = "cells:\n  - { name: all, lattice: stack }\n  - { name: around, universe: around, material: water }\n";
  std::string layers = "[";
  for (int k = 0; k < 3; ++k) {
    const std::string ring = "e" + std::to_string(k) + "r", centre = "e" + std::to_string(k) + "c";
    cells += "  - { name: " + ring + ", universe: " + ring + ", material: water }\n";
    cells += "  - { name: " + centre + ", universe: " + centre + ", material: uo2 }\n";
    layers += std::string(k ? ", " : "") + "[[" + ring + ", " + ring + ", " + ring + ", " + ring + ", " + ring + ", " + ring + "], [" + centre + "]]";
  }
  for (const char* orientation : {"y", "x"}) {
    INFO(orientation);
    std::vector<std::string> errors;
    const CsgSpec spec = read(cells + "lattices:\n  - { name: stack, type: hexagonal, center: [0.5, 0.25, 1], pitch: [1.2, 2], "
                                          "orientation: " + orientation + ", outer: around, layers: " + layers + "] }\n",
                              &errors);
    REQUIRE(errors.empty());
    CHECK(spec.lattices[0].shape == std::array<int, 3>{3, 3, 3});
    const Csg csg(spec, kMaterials);
    const auto a = csg.arrays<double>();
    const auto at = [&](double x, double y, double z, Vec3<double> u = {0, 0, 1}) { return locate(a.host_view(), Vec3<double>{x, y, z}, u); };
    const auto universe_of = [&](const Location<double>& loc) {
      return loc.levels < 2 ? std::string("(none)") : csg.universe_names()[static_cast<std::size_t>(loc.level[1].universe)];
    };
    // The neighbour's centre 1.2 away, above (y) or east (x).
    const double nx = orientation[0] == 'y' ? 0.5 : 1.7, ny = orientation[0] == 'y' ? 1.45 : 0.25;
    for (int k = 0; k < 3; ++k) {
      const double z = -2 + 2 * k + 0.3;
      const Location<double> c = at(0.5, 0.25, z), r = at(nx, ny, z + 1.4);
      CHECK(universe_of(c) == "e" + std::to_string(k) + "c");
      CHECK(universe_of(r) == "e" + std::to_string(k) + "r");
      CHECK(c.level[0].k == k);
      CHECK(c.level[1].p.z == Approx(-0.7).epsilon(1e-12));  // about the layer's middle
      CHECK(r.level[1].p.z == Approx(0.7).epsilon(1e-12));
      // Up from the layer's middle: its ceiling one cm away; sideways a neighbour's wall.
      const Location<double> mid = at(0.5, 0.25, -1 + 2 * k);
      CHECK(distance_to_boundary(a.host_view(), mid, Vec3<double>{0, 0, 1}).distance == Approx(1).epsilon(1e-12));
      CHECK(distance_to_boundary(a.host_view(), mid, Vec3<double>{0, 0, 1}).axis == 3);
      const Vec3<double> toward{(nx - 0.5) / 1.2, (ny - 0.25) / 1.2, 0};
      CHECK(distance_to_boundary(a.host_view(), mid, toward).distance == Approx(0.6).epsilon(1e-12));
      // Slanted: the nearer of the ceiling (1 / 0.8 along it) and the wall (0.6 / 0.6).
      const Vec3<double> slant{0.6 * toward.x, 0.6 * toward.y, 0.8};
      CHECK(distance_to_boundary(a.host_view(), mid, slant).distance == Approx(1).epsilon(1e-12));
      CHECK(distance_to_boundary(a.host_view(), mid, slant).axis != 3);
    }
    CHECK(universe_of(at(0.5, 0.25, -2.01)) == "around");
    CHECK(universe_of(at(0.5, 0.25, 4.01)) == "around");
    CHECK(universe_of(at(0.5, 0.25, 3.99)) == "e2c");
  }
}

TEST_CASE("a hexagonal lattice's mistakes name their key", "[transport][geometry]") {
  const std::string cells = "cells:\n  - { name: c, material: m }\n";
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1], rings: [[a, b, c], [d]] }\n"),
             Catch::Contains("g.yaml:4:") && Catch::Contains("geometry.lattices[0].rings") &&
                 Catch::Contains("ring 1 of 2 (counted from the outside) holds 6 universes, not 3"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1, 1, 1], rings: [[a]] }\n"),
             Catch::Contains("pitch") && Catch::Contains("takes one number for a hexagonal lattice"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1, 1], layers: [[[a]]] }\n"),
             Catch::Contains("center") && Catch::Contains("takes three numbers for a 3-D hexagonal lattice"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 2], rings: [[a]] }\n"),
             Catch::Contains("rings") && Catch::Contains("a 3-D one (two pitches) lists `layers`"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1], layers: [[[a]]] }\n"),
             Catch::Contains("layers") && Catch::Contains("is for a 3-D hexagonal lattice"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 2], "
                                 "layers: [[[a, a, a, a, a, a], [a]], [[a]]] }\n"),
             Catch::Contains("geometry.lattices[0].layers") && Catch::Contains("layer 2 of 2: 1 rings, where the first layer has 2"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 2], "
                                 "layers: [[[a, a, a, a, a, a], [a]], [[a, a, a], [a]]] }\n"),
             Catch::Contains("layer 2 of 2: ring 1 of 2 (counted from the outside) holds 6 universes, not 3"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 2], layers: [] }\n"),
             Catch::Contains("layers") && Catch::Contains("expected a list of layers from the lowest"));
  CHECK(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 2], "
                            "layers: [[[a, a, a, a, a, a], [a]], [[a, a, a, a, a, a], [a]]] }\n") == "(none)");
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1], rings: [[a]] }\n"),
             Catch::Contains("center") && Catch::Contains("takes two numbers"));
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1], orientation: z, rings: [[a]] }\n"),
             Catch::Contains("orientation"));
  CHECK(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1], rings: [[a]] }\n") == "(none)");
  // Twenty thousand rings, each of the wrong size: refused at the first, before a
  // square of 40,000^2 names would be allocated.
  std::string many = "[";
  for (int r = 0; r < 20000; ++r) many += r ? ", [a]" : "[a]";
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0], pitch: [1], rings: " + many + "] }\n"),
             Catch::Contains("ring 1 of 20000") && Catch::Contains("holds 119994 universes, not 1"));
  // One layer of 60 full rings under 20,000 one-element layers: refused at the second
  // layer, before 20,000 squares of 119^2 names would be allocated.
  std::string big = "[";
  for (int r = 59; r >= 0; --r) {
    big += r < 59 ? ", [" : "[";
    for (int e = 0; e < std::max(1, 6 * r); ++e) big += e ? ", a" : "a";
    big += "]";
  }
  big += "]";
  std::string stack = "[" + big;
  for (int k = 0; k < 20000; ++k) stack += ", [[a]]";
  CHECK_THAT(first_error(cells + "lattices:\n  - { name: l, type: hexagonal, center: [0, 0, 0], pitch: [1, 1], layers: " + stack + "] }\n"),
             Catch::Contains("layer 2 of 20001: 1 rings, where the first layer has 60"));
}
