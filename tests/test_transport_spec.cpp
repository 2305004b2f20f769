// The transport model's materials and geometry: what is read, every inconsistency
// reported at its key, and the closed forms the model will be validated against.
#include <catch2/catch.hpp>

#include <cmath>

#include "io/diagnostics.hpp"
#include "models/transport/analytic.hpp"

using namespace mcsim;

namespace {

// Parses `text` as a model block (materials and geometry, or the whole block);
// returns the spec, and the errors in *errors.
transport::TransportSpec parse(const std::string& text, std::string* errors, bool whole = false) {
  io::Diagnostics diag("t.yaml");
  io::Block model(YAML::Load(text), "model", diag);
  transport::TransportSpec s;
  if (whole) transport::parse_transport_spec(model, s);
  else transport::parse_materials_and_geometry(model, s);
  model.finish();
  *errors = diag.empty() ? "" : diag.report();
  return s;
}

const std::string kPua =
    "materials:\n"
    "  - { name: PUa, total: 0.32640, scatter: 0.225216, fission: 0.081600, nu: 3.24, capture: 0.019584 }\n"
    "geometry: { type: slab, boundaries: [-1.853722, 1.853722] }\n"
    "regions: [PUa]\n";

const std::string kTwoGroup =
    "materials:\n"
    "  - name: fuel\n"
    "    total: [0.2, 1.0]\n"
    "    scatter: [[0.17, 0.02], [0.0, 0.9]]\n"
    "    fission: [0.002, 0.05]\n"
    "    nu: [2.5, 2.43]\n"
    "    chi: [1.0, 0.0]\n"
    "  - { name: water, total: [0.25, 1.5], scatter: [[0.2, 0.05], [0.0, 1.48]] }\n"
    "geometry: { type: sphere, radii: [5, 20], outer: reflective }\n"
    "regions: [fuel, water]\n";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("one-group and two-group materials and their geometry are read", "[transport]") {
  std::string errors;
  const auto pua = parse(kPua, &errors);
  REQUIRE(errors.empty());
  REQUIRE(pua.materials.size() == 1);
  const auto& m = pua.materials.front();
  CHECK(m.groups == 1);
  CHECK(m.absorption(0) == Approx(0.101184));
  CHECK(m.chi.front() == 1.0);
  CHECK(pua.geometry.shape == transport::Shape::Slab);
  CHECK(pua.geometry.regions() == 1);
  CHECK(pua.region_material == std::vector<int>{0});

  const auto two = parse(kTwoGroup, &errors);
  REQUIRE(errors.empty());
  CHECK(two.groups == 2);
  CHECK(two.geometry.shape == transport::Shape::Sphere);
  CHECK(two.geometry.right == transport::Boundary::Reflective);
  CHECK(two.region_material == std::vector<int>{0, 1});
  // Capture is what the total leaves: 0.2 - 0.19 - 0.002 and 1.0 - 0.9 - 0.05.
  CHECK(two.materials[0].capture[0] == Approx(0.008));
  CHECK(two.materials[0].capture[1] == Approx(0.05));
  CHECK(two.materials[1].capture[1] == Approx(0.02));
}

TEST_CASE("inconsistent cross sections and geometry are config errors at their key", "[transport]") {
  std::string e;
  parse(replace(kPua, "capture: 0.019584", "capture: 0.03"), &e);
  CHECK_THAT(e, Catch::Contains("t.yaml:2") && Catch::Contains("total") && Catch::Contains("not the total"));
  parse(replace(kPua, "scatter: 0.225216", "scatter: 0.3"), &e);
  CHECK_THAT(e, Catch::Contains("total"));
  parse(replace(kPua, "fission: 0.081600", "fission: -0.08"), &e);
  CHECK_THAT(e, Catch::Contains("fission") && Catch::Contains(">= 0"));
  parse(replace(kPua, "nu: 3.24", "nu: 0"), &e);
  CHECK_THAT(e, Catch::Contains("nu") && Catch::Contains("nu > 0"));
  parse(replace(kPua, "regions: [PUa]", "regions: [Pua]"), &e);
  CHECK_THAT(e, Catch::Contains("regions") && Catch::Contains("did you mean 'PUa'"));
  parse(replace(kPua, "regions: [PUa]\n", ""), &e);
  CHECK_THAT(e, Catch::Contains("missing required key 'regions'"));
  parse(replace(kPua, "[-1.853722, 1.853722]", "[0, 1, 3]"), &e);
  CHECK_THAT(e, Catch::Contains("names 1 materials for the geometry's 2 regions"));
  parse(replace(kPua, "[-1.853722, 1.853722]", "[1, 0]"), &e);
  CHECK_THAT(e, Catch::Contains("boundaries") && Catch::Contains("must increase"));
  parse(replace(kTwoGroup, "chi: [1.0, 0.0]", "chi: [0.9, 0.0]"), &e);
  CHECK_THAT(e, Catch::Contains("chi") && Catch::Contains("sums to 0.9"));
  parse(replace(kTwoGroup, "[[0.2, 0.05], [0.0, 1.48]]", "[[0.2, 0.05]]"), &e);
  CHECK_THAT(e, Catch::Contains("scatter") && Catch::Contains("2 rows"));
  parse(replace(kTwoGroup, "[0.25, 1.5]", "[0.25, 1.5, 2.0]"), &e);
  CHECK_THAT(e, Catch::Contains("every material needs the same groups"));
  parse(replace(kTwoGroup, "radii: [5, 20]", "radii: [20, 5]"), &e);
  CHECK_THAT(e, Catch::Contains("radii") && Catch::Contains("must increase outwards"));
  parse(replace(kPua, "nu: 3.24", "nu: 3.24, mean_cosine: 0.5"), &e);
  CHECK_THAT(e, Catch::Contains("mean_cosine"));
  parse(replace(kPua, "type: slab", "type: cube"), &e);
  CHECK_THAT(e, Catch::Contains("'cube' is not one of"));
}

TEST_CASE("closed forms of the transport validation cases", "[transport]") {
  CHECK(transport::uncollided_transmission(0.5, 4.0) == Approx(std::exp(-2.0)).epsilon(1e-15));
  CHECK(transport::infinite_medium_flux(3.0, 0.1) == Approx(30.0));
  std::string e;
  const auto pua = parse(kPua, &e);
  // One group: k_inf = nu fission / absorption = 3.24 x 0.0816 / 0.101184.
  CHECK(transport::k_infinity(pua.materials.front()) == Approx(3.24 * 0.0816 / 0.101184).epsilon(1e-14));
  // Two groups, all births fast, no up-scatter: phi1 = 1 / (0.2 - 0.17), phi2 = 0.02 phi1 / (1 - 0.9),
  // k = 2.5 x 0.002 phi1 + 2.43 x 0.05 phi2.
  const auto two = parse(kTwoGroup, &e);
  const double phi1 = 1 / 0.03, phi2 = 0.02 * phi1 / 0.1;
  CHECK(transport::k_infinity(two.materials.front()) == Approx(2.5 * 0.002 * phi1 + 2.43 * 0.05 * phi2).epsilon(1e-12));
}

namespace {
transport::TransportSpec parse_all(const std::string& text, std::string* errors) { return parse(text, errors, true); }

const std::string kBeam =
    "mode: fixed_source\n"
    "materials:\n"
    "  - { name: fuel, total: 0.32640, scatter: 0.225216, fission: 0.081600, nu: 3.24 }\n"
    "  - { name: shield, total: 1.0, scatter: 0.9 }\n"
    "geometry: { type: slab, boundaries: [0.0, 1.0, 3.0], right: reflective }\n"
    "regions: [fuel, shield]\n"
    "source: { type: beam, position: 0.0, direction: 1.0 }\n"
    "tallies: [transmission, reflection, absorption, { flux: { bins: 50 } }]\n"
    "capture: implicit\n";
}  // namespace

TEST_CASE("the transport block's modes, sources and tallies are read", "[transport]") {
  std::string e;
  const auto beam = parse_all(kBeam, &e);
  REQUIRE(e.empty());
  CHECK_FALSE(beam.eigenvalue);
  CHECK(beam.geometry.right == transport::Boundary::Reflective);
  CHECK(beam.source.kind == transport::Source::Kind::Beam);
  CHECK(beam.tallies.transmission);
  CHECK(beam.tallies.reflection);
  CHECK_FALSE(beam.tallies.leakage);
  CHECK(beam.tallies.flux_bins == 50);
  CHECK(beam.implicit_capture);

  const auto eig = parse_all(
      "mode: eigenvalue\n" + kPua.substr(0, kPua.find("regions")) +
          "regions: [PUa]\ntallies: [leakage]\neigenvalue: { inactive: 20, active: 100 }\n",
      &e);
  REQUIRE(e.empty());
  CHECK(eig.eigenvalue);
  CHECK(eig.inactive == 20);
  CHECK(eig.active == 100);

  const auto shell = parse_all(replace(replace(kTwoGroup, "regions: [fuel, water]", "regions: [fuel, water]\nmode: fixed_source"),
                                       "outer: reflective }", "outer: vacuum }") +
                                   "source: { type: isotropic, region: 1, group: 1 }\ntallies: [leakage, collisions]\n",
                               &e);
  REQUIRE(e.empty());
  CHECK(shell.source.region == 1);
  CHECK(shell.source.group == 1);
}

TEST_CASE("a transport block that cannot run is refused at its key", "[transport]") {
  std::string e;
  parse_all(replace(kBeam, "position: 0.0", "position: 4.0"), &e);
  CHECK_THAT(e, Catch::Contains("position") && Catch::Contains("outside the geometry"));
  parse_all(replace(kBeam, "direction: 1.0", "direction: 0"), &e);
  CHECK_THAT(e, Catch::Contains("never crosses"));
  parse_all(replace(kBeam, "absorption,", "absorbtion,"), &e);
  CHECK_THAT(e, Catch::Contains("did you mean 'absorption'"));
  parse_all(replace(kBeam, "source: { type: beam, position: 0.0, direction: 1.0 }\n", ""), &e);
  CHECK_THAT(e, Catch::Contains("missing required block 'source'"));
  parse_all(kBeam + "eigenvalue: { active: 10 }\n", &e);
  CHECK_THAT(e, Catch::Contains("belong to mode: eigenvalue"));
  parse_all(replace(replace(kBeam, "mode: fixed_source", "mode: eigenvalue"), "regions: [fuel, shield]",
                    "regions: [shield, shield]") + "eigenvalue: { active: 10 }\n",
            &e);
  CHECK_THAT(e, Catch::Contains("no region holds a fissile material"));
  parse_all(replace(replace(kTwoGroup, "regions: [fuel, water]", "regions: [fuel, water]\nmode: fixed_source"),
                    "outer: reflective }", "outer: vacuum }") + "source: { type: isotropic }\ntallies: [transmission]\n",
            &e);
  CHECK_THAT(e, Catch::Contains("a sphere has leakage"));
  parse_all(replace(kBeam, "{ flux: { bins: 50 } }", "{ flux: { bins: 0 } }"), &e);
  CHECK_THAT(e, Catch::Contains("bins"));
}
