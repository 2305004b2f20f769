// Transport jobs in constructive solid geometry end to end on the CPU backend:
// k_inf of a mirrored box of one material, a 3-D slab with mirrored sides against
// the 1-D slab, one mirrored pin cell against a lattice of it with its pin powers,
// estimates that keep their bits across chunk sizes, and the errors a bad model
// gets, at its line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>
#include <stdexcept>

#include "app/run/runner.hpp"
#include "csg_job.hpp"
#include "io/config.hpp"
#include "io/results.hpp"

using namespace mcsim;

namespace {
io::Results run_cpu(const std::string& text, const std::vector<std::string>& sets = {}) {
  return run_job(io::load_job_text(text, "csg.yaml", sets), RunOptions{io::BackendChoice::Cpu, false, "test"});
}
std::map<std::string, reduce::Estimate> by_name(const io::Results& r) {
  std::map<std::string, reduce::Estimate> m;
  for (const auto& e : r.scenarios.front().estimates) m[e.name] = e;
  return m;
}
const io::Table* find_table(const io::Results& r, const std::string& name) {
  for (const auto& t : r.scenarios.front().tables)
    if (t.name == name) return &t;
  return nullptr;
}
double diagnostic(const io::Results& r, const std::string& name) {
  for (const auto& [n, v] : r.scenarios.front().diagnostics)
    if (n == name) return v;
  return NAN;
}
// |a - b| within 4 combined standard errors.
void check_agree(const reduce::Estimate& a, const reduce::Estimate& b) {
  INFO(a.name << ": " << a.value << " +- " << a.std_error << " against " << b.value << " +- " << b.std_error);
  CHECK(a.std_error > 0);
  CHECK(b.std_error > 0);
  CHECK(std::fabs(a.value - b.value) < 4 * std::hypot(a.std_error, b.std_error));
}
std::string load_error(const std::string& text) {
  try {
    io::load_job_text(text, "csg.yaml");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a mirrored box of one material in a csg model has its k_inf by every estimator", "[transport][csg]") {
  const auto r = run_cpu(transport_job(
      "  mode: eigenvalue\n"
      "  materials:\n"
      "    - { name: f, total: [0.6, 1.2], scatter: [[0.40, 0.12], [0.0, 0.90]], fission: [0.02, 0.2],\n"
      "        nu: [2.6, 2.4], chi: [1.0, 0.0] }\n"
      "  geometry:\n"
      "    type: csg\n"
      "    bounds: { lower_left: [0, 0, 0], upper_right: [2, 3, 4] }\n"
      "    surfaces:\n"
      "      - { name: x0, type: x-plane, coefficients: [0], boundary: reflective }\n"
      "      - { name: x1, type: x-plane, coefficients: [2], boundary: reflective }\n"
      "      - { name: y0, type: y-plane, coefficients: [0], boundary: reflective }\n"
      "      - { name: y1, type: y-plane, coefficients: [3], boundary: reflective }\n"
      "      - { name: z0, type: z-plane, coefficients: [0], boundary: reflective }\n"
      "      - { name: z1, type: z-plane, coefficients: [4], boundary: reflective }\n"
      "    cells: [{ name: box, region: +x0 -x1 +y0 -y1 +z0 -z1, material: f }]\n"
      "  eigenvalue: { inactive: 5, active: 60 }\n",
      "paths: 20_000"));
  const auto est = by_name(r);
  const auto& refs = r.scenarios.front().references;
  REQUIRE(refs.size() == 4);
  for (const auto& ref : refs) {
    const auto& e = est.at(ref.name);
    INFO(ref.name << " = " << e.value << " +- " << e.std_error << " against k_inf " << ref.value);
    CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error + 1e-12);
    CHECK(e.std_error < 0.01 * ref.value);
  }
  CHECK(diagnostic(r, "lost_weight") == 0);
}

TEST_CASE("a 3-D slab with mirrored sides absorbs and leaks as the 1-D slab", "[transport][csg]") {
  const std::string materials = "  mode: fixed_source\n  materials: [{ name: m, total: 1.0, scatter: 0.7, mean_cosine: 0.2 }]\n";
  const auto layered = by_name(run_cpu(transport_job(materials +
                                                     "  geometry: { type: slab, boundaries: [0, 3] }\n"
                                                     "  regions: [m]\n"
                                                     "  source: { type: isotropic, position: 1 }\n"
                                                     "  tallies: [absorption, leakage, collisions]\n")));
  const auto csg = run_cpu(transport_job(materials +
                                         "  geometry:\n"
                                         "    type: csg\n"
                                         "    bounds: { lower_left: [0, -1, -1], upper_right: [3, 1, 1] }\n"
                                         "    surfaces:\n"
                                         "      - { name: left, type: x-plane, coefficients: [0], boundary: vacuum }\n"
                                         "      - { name: right, type: x-plane, coefficients: [3], boundary: vacuum }\n"
                                         "      - { name: s, type: y-plane, coefficients: [-1], boundary: periodic, periodic_surface: n }\n"
                                         "      - { name: n, type: y-plane, coefficients: [1], boundary: periodic, periodic_surface: s }\n"
                                         "      - { name: b, type: z-plane, coefficients: [-1], boundary: reflective }\n"
                                         "      - { name: t, type: z-plane, coefficients: [1], boundary: reflective }\n"
                                         "    cells: [{ name: slab, region: +left -right +s -n +b -t, material: m }]\n"
                                         "  source: { type: point, position: [1, 0.3, -0.2] }\n"
                                         "  tallies: [absorption, leakage, collisions]\n"));
  const auto est = by_name(csg);
  for (const char* name : {"absorption", "leakage", "collisions"}) check_agree(est.at(name), layered.at(name));
  CHECK(std::fabs(est.at("absorption").value + est.at("leakage").value - 1) < 1e-9);
  CHECK(diagnostic(csg, "lost_weight") == 0);
}

TEST_CASE("power iteration on a mirrored pin cell and on a 3 x 3 lattice of it: one k, flat pin powers", "[transport][csg]") {
  const std::string eigen = "  mode: eigenvalue\n" + pin_materials();
  const std::string generations = "  eigenvalue: { inactive: 10, active: 80 }\n";
  const auto one = run_cpu(transport_job(eigen + pin_lattice_geometry(1) + generations, "paths: 10_000"));
  const auto nine = run_cpu(transport_job(eigen + pin_lattice_geometry(3) + generations +
                                          "  tallies: [{ name: pins, filter: lattice, lattice: grid },\n"
                                          "            { name: materials, filter: material },\n"
                                          "            { name: map, filter: mesh, dimension: [6, 6] }]\n",
                                          "paths: 30_000"));
  check_agree(by_name(one).at("k_eff"), by_name(nine).at("k_eff"));
  // Nine alike pins: each pin's normalised power within 4 errors of 1, the errors a few per cent.
  const io::Table* power = find_table(nine, "pins_power");
  REQUIRE(power != nullptr);
  REQUIRE(power->columns == std::vector<std::string>{"i", "j", "k", "power", "power_std_error"});
  REQUIRE(power->data.size() == 9 * 5);
  double mean = 0;
  for (int p = 0; p < 9; ++p) {
    const double value = power->data[static_cast<std::size_t>(p * 5 + 3)], error = power->data[static_cast<std::size_t>(p * 5 + 4)];
    INFO("pin " << p << ": " << value << " +- " << error);
    CHECK(error > 0);
    CHECK(error < 0.03);
    CHECK(std::fabs(value - 1) < 4 * error);
    mean += value / 9;
  }
  CHECK(mean == Approx(1).epsilon(1e-12));
  // The material tally: water does not fission; the fuel's nu-fission rate per
  // source neutron is k (every neutron of a generation is born of it).
  const io::Table* materials = find_table(nine, "materials");
  REQUIRE(materials != nullptr);
  REQUIRE(materials->row_names == std::vector<std::string>{"fuel", "water"});
  const std::size_t width = materials->columns.size();
  REQUIRE(materials->columns[width - 2] == "nu_fission");
  const auto k = by_name(nine).at("k_eff");
  INFO("nu-fission " << materials->data[width - 2] << " +- " << materials->data[width - 1] << ", k " << k.value);
  CHECK(std::fabs(materials->data[width - 2] - k.value) < 4 * std::hypot(materials->data[width - 1], k.std_error));
  CHECK(materials->data[width + width - 2] == 0);
  // The 6 x 6 mesh over the 3 x 3 pins: the four bins of each pin add up to it.
  const io::Table* map = find_table(nine, "map_power");
  REQUIRE(map != nullptr);
  REQUIRE(map->data.size() == 36 * 5);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      double quarters = 0;
      for (int dj = 0; dj < 2; ++dj)
        for (int di = 0; di < 2; ++di) quarters += map->data[static_cast<std::size_t>(((2 * j + dj) * 6 + 2 * i + di) * 5 + 3)] / 4;
      CHECK(quarters == Approx(power->data[static_cast<std::size_t>((j * 3 + i) * 5 + 3)]).epsilon(1e-9));
    }
  CHECK(diagnostic(nine, "lost_weight") == 0);
}

TEST_CASE("seven pins in a hexagonal lattice are the same seven pins placed one by one", "[transport][csg]") {
  // A bare cluster: a hexagonal lattice of seven pins (pitch 1.26, orientation y)
  // in a water cylinder of radius 2.6 with a vacuum edge, against the same pins as
  // seven cylinders at the centres the rings describe (the centre, then from the
  // top clockwise). k and the materials' tallies agree within errors; the six outer
  // pins' powers agree with each other, below the centre's.
  const std::string head = "  mode: eigenvalue\n" + pin_materials();
  const std::string common = "  geometry:\n    type: csg\n    bounds: { lower_left: [-2.6, -2.6], upper_right: [2.6, 2.6] }\n"
                             "    surfaces:\n      - { name: edge, type: z-cylinder, coefficients: [0, 0, 2.6], boundary: vacuum }\n";
  const std::string tail = "  eigenvalue: { inactive: 10, active: 60 }\n"
                           "  tallies: [{ name: materials, filter: material }";
  const std::string lattice =
      head + common +
      "      - { name: pin, type: z-cylinder, coefficients: [0, 0, 0.54] }\n"
      "    cells:\n"
      "      - { name: core, region: -edge, lattice: cluster }\n"
      "      - { name: fuel, universe: pin, region: -pin, material: fuel }\n"
      "      - { name: water, universe: pin, region: +pin, material: water }\n"
      "      - { name: around, universe: moderator, material: water }\n"
      "    lattices:\n"
      "      - { name: cluster, type: hexagonal, center: [0, 0], pitch: [1.26], outer: moderator,\n"
      "          rings: [[pin, pin, pin, pin, pin, pin], [pin]] }\n" +
      tail + ", { name: pins, filter: lattice, lattice: cluster }]\n";
  std::string explicit_pins = head + common, cells = "    cells:\n", water = "-edge";
  for (int k = 0; k < 7; ++k) {
    const double t = (90 - 60.0 * (k - 1)) * M_PI / 180, r = k ? 1.26 : 0;
    const std::string name = "p" + std::to_string(k);
    explicit_pins += "      - { name: " + name + ", type: z-cylinder, coefficients: [" + std::to_string(r * std::cos(t)) + ", " +
                     std::to_string(r * std::sin(t)) + ", 0.54] }\n";
    cells += "      - { name: fuel" + std::to_string(k) + ", region: -" + name + ", material: fuel }\n";
    water += " +" + name;
  }
  explicit_pins += cells + "      - { name: water, region: " + water + ", material: water }\n" + tail + "]\n";
  const auto hex = run_cpu(transport_job(lattice, "paths: 20_000"));
  const auto placed = run_cpu(transport_job(explicit_pins, "paths: 20_000"));
  check_agree(by_name(hex).at("k_eff"), by_name(placed).at("k_eff"));
  const io::Table *a = find_table(hex, "materials"), *b = find_table(placed, "materials");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  REQUIRE(a->columns == b->columns);
  REQUIRE(a->data.size() == b->data.size());
  const std::size_t width = a->columns.size();
  for (std::size_t row = 0; row < a->data.size() / width; ++row)
    for (std::size_t c = 2; c + 1 < width; c += 2) {
      const double x = a->data[row * width + c], y = b->data[row * width + c];
      const double e = std::hypot(a->data[row * width + c + 1], b->data[row * width + c + 1]);
      INFO(a->row_names[row] << " " << a->columns[c] << ": " << x << " against " << y << " +- " << e);
      if (x == 0 && y == 0) continue;  // water's fission
      CHECK(e > 0);
      CHECK(std::fabs(x - y) < 4 * e);
    }
  // Pin powers: the 3 x 3 square of axial indices holds the seven pins.
  const io::Table* power = find_table(hex, "pins_power");
  REQUIRE(power != nullptr);
  REQUIRE(power->data.size() == 9 * 5);
  std::vector<std::pair<double, double>> pins;
  for (int bin = 0; bin < 9; ++bin)
    if (power->data[static_cast<std::size_t>(bin * 5 + 3)] > 0)
      pins.push_back({power->data[static_cast<std::size_t>(bin * 5 + 3)], power->data[static_cast<std::size_t>(bin * 5 + 4)]});
  REQUIRE(pins.size() == 7);
  std::sort(pins.begin(), pins.end());
  double outer = 0;
  for (int k = 0; k < 6; ++k) outer += pins[static_cast<std::size_t>(k)].first / 6;
  for (int k = 0; k < 6; ++k) {
    INFO("outer pin " << pins[static_cast<std::size_t>(k)].first << " +- " << pins[static_cast<std::size_t>(k)].second << ", mean " << outer);
    CHECK(std::fabs(pins[static_cast<std::size_t>(k)].first - outer) < 4 * pins[static_cast<std::size_t>(k)].second);
  }
  CHECK(pins[6].first - outer > 4 * pins[6].second);  // the centre, shielded from the edge
  CHECK(diagnostic(hex, "lost_weight") == 0);
}

TEST_CASE("a 3-D hexagonal lattice of three equal layers between mirrors is its 2-D lattice", "[transport][csg]") {
  // The seven-pin cluster above, in 2-D, and stacked in three layers 2 cm high
  // (z from -3 to 3) with mirrors at both ends: the same infinite cluster along z.
  const auto cluster = [](bool layered) {
    const std::string rings = "[[pin, pin, pin, pin, pin, pin], [pin]]";
    return "  mode: eigenvalue\n" + pin_materials() + "  geometry:\n    type: csg\n" +
           (layered ? "    bounds: { lower_left: [-2.6, -2.6, -3], upper_right: [2.6, 2.6, 3] }\n"
                    : "    bounds: { lower_left: [-2.6, -2.6], upper_right: [2.6, 2.6] }\n") +
           "    surfaces:\n      - { name: edge, type: z-cylinder, coefficients: [0, 0, 2.6], boundary: vacuum }\n"
           "      - { name: pin, type: z-cylinder, coefficients: [0, 0, 0.54] }\n"
           "      - { name: floor, type: z-plane, coefficients: [-3], boundary: reflective }\n"
           "      - { name: roof, type: z-plane, coefficients: [3], boundary: reflective }\n"
           "    cells:\n" +
           (layered ? "      - { name: core, region: -edge +floor -roof, lattice: cluster }\n"
                    : "      - { name: core, region: -edge, lattice: cluster }\n") +
           "      - { name: fuel, universe: pin, region: -pin, material: fuel }\n"
           "      - { name: water, universe: pin, region: +pin, material: water }\n"
           "      - { name: around, universe: moderator, material: water }\n"
           "    lattices:\n" +
           (layered ? "      - { name: cluster, type: hexagonal, center: [0, 0, 0], pitch: [1.26, 2], outer: moderator,\n"
                      "          layers: [" + rings + ", " + rings + ", " + rings + "] }\n"
                    : "      - { name: cluster, type: hexagonal, center: [0, 0], pitch: [1.26], outer: moderator,\n"
                      "          rings: " + rings + " }\n") +
           "  eigenvalue: { inactive: 10, active: 60 }\n"
           "  tallies: [{ name: pins, filter: lattice, lattice: cluster }]\n";
  };
  const auto flat = run_cpu(transport_job(cluster(false), "paths: 20_000"));
  const auto stacked = run_cpu(transport_job(cluster(true), "paths: 20_000"));
  check_agree(by_name(flat).at("k_eff"), by_name(stacked).at("k_eff"));
  CHECK(diagnostic(stacked, "lost_weight") == 0);
  // Pin powers in 3 x 3 x 3 bins, seven pins a layer (normalised to a mean of 1
  // over the 21): each pin's mean over the layers is its 2-D power. (A layer's own
  // total wanders further than its error says: nothing along z pulls the fission
  // source back to the middle, so generations stay correlated; it only has to hold
  // about a third.)
  const io::Table *power = find_table(stacked, "pins_power"), *flat_power = find_table(flat, "pins_power");
  REQUIRE(power != nullptr);
  REQUIRE(flat_power != nullptr);
  REQUIRE(power->data.size() == 27 * 5);
  REQUIRE(flat_power->data.size() == 9 * 5);
  const auto at = [](const io::Table* t, int bin, int column) { return t->data[static_cast<std::size_t>(bin * 5 + column)]; };
  int fuelled = 0;
  for (int layer = 0; layer < 3; ++layer) {
    double sum = 0;
    for (int bin = 9 * layer; bin < 9 * layer + 9; ++bin) fuelled += at(power, bin, 3) > 0, sum += at(power, bin, 3);
    INFO("layer " << layer << ": " << sum);
    CHECK(sum > 0.9 * 7);
    CHECK(sum < 1.1 * 7);
  }
  CHECK(fuelled == 21);
  for (int bin = 0; bin < 9; ++bin) {
    double mean = 0, var = 0;
    for (int layer = 0; layer < 3; ++layer) mean += at(power, 9 * layer + bin, 3) / 3, var += std::pow(at(power, 9 * layer + bin, 4) / 3, 2);
    const double e = std::hypot(std::sqrt(var), at(flat_power, bin, 4));
    INFO("bin " << bin << ": " << mean << " in 3-D against " << at(flat_power, bin, 3) << " +- " << e);
    CHECK(std::fabs(mean - at(flat_power, bin, 3)) <= 4 * e);
  }
}

TEST_CASE("a csg job's estimates keep their bits across chunk sizes and threads", "[transport][csg]") {
  const std::string job = transport_job(pin_in_sphere_model("[absorption, leakage, { name: cells, filter: cell }]"),
                                        "paths: 50_000, chunk_paths: 4096");
  const auto a = run_cpu(job), b = run_cpu(job, {"run.chunk_paths=1000"});
  const auto ea = by_name(a), eb = by_name(b);
  for (const char* name : {"absorption", "leakage"}) {
    INFO(name);
    CHECK(ea.at(name).value == eb.at(name).value);  // integer sums: the same bits in any order
  }
  // Fission absorbs and makes no neutrons in a fixed source: a history is absorbed or leaks.
  CHECK(std::fabs(ea.at("absorption").value + ea.at("leakage").value - 1) < 1e-9);
  // The cell tally's values (their errors come from batches of the chunks).
  const io::Table &ta = *find_table(a, "cells"), &tb = *find_table(b, "cells");
  REQUIRE(ta.data.size() == tb.data.size());
  const std::size_t width = ta.columns.size();
  for (std::size_t i = 0; i < ta.data.size(); ++i)
    if (i % width < 2 || (i % width) % 2 == 0) CHECK(ta.data[i] == tb.data[i]);
  CHECK(ta.row_names == std::vector<std::string>{"fuel", "water"});
}

TEST_CASE("a bad csg model is refused at its line", "[transport][csg]") {
  const std::string head = "  mode: eigenvalue\n" + pin_materials();
  const std::string generations = "  eigenvalue: { inactive: 1, active: 2 }\n";
  std::string g = pin_lattice_geometry(1);
  // A cell naming no material, reported at that cell's line.
  std::string bad = g;
  bad.replace(bad.find("material: water"), 15, "material: steel");
  std::string e = load_error(transport_job(head + bad + generations));
  INFO(e);
  CHECK(e.find("no material is named 'steel'") != std::string::npos);
  CHECK(e.find("csg.yaml:19:") != std::string::npos);
  // A hole: the water cell left out, found by the geometry check with a point in it.
  bad = g;
  bad.erase(bad.find("      - { name: water"), bad.find("      - { name: box") - bad.find("      - { name: water"));
  e = load_error(transport_job(head + bad + generations));
  CHECK(e.find("check_points") != std::string::npos);
  CHECK(e.find("is in no cell of universe 'pin'") != std::string::npos);
  // A source cell that is not there, and regions beside a csg geometry.
  e = load_error(transport_job(head + g + generations + "  source: { type: cell, cell: clad }\n"));
  CHECK(e.find("no cell is named 'clad'") != std::string::npos);
  e = load_error(transport_job(head + g + generations + "  regions: [fuel]\n"));
  CHECK(e.find("drop regions") != std::string::npos);
  // A mesh of more bins than memory holds is refused before anything is allocated.
  e = load_error(transport_job(head + g + generations + "  tallies: [{ name: m, filter: mesh, dimension: [100000, 100000] }]\n"));
  CHECK(e.find("a mesh holds at most 1000000") != std::string::npos);
}

TEST_CASE("the C5G7 example's core holds its 1056 fuel pins where the benchmark puts them", "[transport][csg]") {
  // A short run: the geometry, not k. Each of the four assemblies has 264 fuel
  // pins, 24 guide tubes and a fission chamber; the pins tally is the 34 x 34
  // pins of the four assemblies, one mesh bin a pin.
  const io::Job job = io::load_job_file(std::string(MCSIM_SOURCE_DIR) + "/configs/transport-c5g7.yaml",
                                        {"run.paths=1000", "model.eigenvalue={inactive: 2, active: 6}"});
  const io::Results r = run_job(job, RunOptions{io::BackendChoice::Cpu, false, "test"});
  CHECK(diagnostic(r, "lost_weight") == 0);
  const io::Table* power = find_table(r, "pins_power");
  REQUIRE(power != nullptr);
  REQUIRE(power->data.size() == 34 * 34 * 5);
  int fuel = 0;
  double sum = 0;
  for (int bin = 0; bin < 34 * 34; ++bin) {
    const int i = bin % 34, j = bin / 34;
    // Assembly positions' local pin (from the lowest row), and whether the benchmark puts a tube there.
    const int a = i % 17, b = j % 17;
    const auto tube = [](int x, int y) {
      const int ring[][2] = {{2, 5}, {2, 8}, {2, 11}, {3, 3}, {3, 13}, {5, 2}, {5, 5}, {5, 8}, {5, 11}, {5, 14},
                             {8, 2}, {8, 5}, {8, 8}, {8, 11}, {8, 14}, {11, 2}, {11, 5}, {11, 8}, {11, 11}, {11, 14},
                             {13, 3}, {13, 13}, {14, 5}, {14, 8}, {14, 11}};
      for (const auto& t : ring)
        if (t[0] == y && t[1] == x) return true;
      return false;
    };
    const double p = power->data[static_cast<std::size_t>(bin * 5 + 3)];
    INFO("pin (" << i << ", " << j << ") power " << p);
    CHECK((p > 0) == !tube(a, b));
    fuel += p > 0 ? 1 : 0;
    sum += p;
  }
  CHECK(fuel == 1056);
  CHECK(sum / fuel == Approx(1).epsilon(1e-12));
}
