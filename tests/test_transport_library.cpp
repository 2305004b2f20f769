// Materials from an HDF5 library in OpenMC's MGXS layout: the cross sections read
// equal the same material typed inline, a run on them meets k_inf, the transport
// correction and OpenMC's rule for scattering that does not fill total - absorption,
// and every error names the file and the HDF5 path.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/run/runner.hpp"
#include "io/config.hpp"
#include "io/diagnostics.hpp"
#include "io/hdf5.hpp"
#include "models/transport/transport_spec.hpp"

using namespace mcsim;
namespace h5 = io::h5;

namespace {

const std::filesystem::path kDir =
    std::filesystem::temp_directory_path() / ("mcsim-mgxs-" + std::to_string(::getpid()));

// The two-group fuel of the eigenvalue validation (k_inf = 1.22) as a library data
// set, with P1 moments; `scale` multiplies the P0 scattering (C5G7's data do not
// fill total - absorption), `cut` drops values from the flattened matrix.
std::string library(const std::string& name, double scale = 1, std::size_t cut = 0) {
  std::filesystem::create_directories(kDir);
  const std::string path = (kDir / name).string();
  h5::write_file_atomically(path, [&](hid_t root) {
    h5::write_attr(root, "energy_groups", std::uint64_t{2});
    h5::write_attr(root, "filetype", std::string("mgxs"));
    const h5::Handle set = h5::create_group(root, "two-group");
    h5::write_attr(set, "fissionable", std::uint64_t{1});
    h5::write_attr(set, "representation", std::string("isotropic"));
    h5::write_attr(set, "order", std::uint64_t{1});
    const h5::Handle t = h5::create_group(set, "294K");
    h5::write_dataset(t, "total", {0.6, 1.2}, 2, 0);
    h5::write_dataset(t, "absorption", {0.08, 0.30}, 2, 0);
    h5::write_dataset(t, "fission", {0.02, 0.2}, 2, 0);
    h5::write_dataset(t, "nu-fission", {0.052, 0.48}, 2, 0);
    h5::write_dataset(t, "chi", {1.0, 0.0}, 2, 0);
    const h5::Handle s = h5::create_group(t, "scatter_data");
    h5::write_dataset(s, "g_min", {1, 2}, 2, 0);
    h5::write_dataset(s, "g_max", {2, 2}, 2, 0);
    // From group 1: to 1 (P0, P1), to 2 (P0, P1); from group 2: to 2 (P0, P1).
    std::vector<double> m{0.40 * scale, 0.05, 0.12 * scale, 0.01, 0.90 * scale, 0.10};
    m.resize(m.size() - cut);
    h5::write_dataset(s, "scatter_matrix", m, m.size(), 0);
    h5::create_group(set, "600K");
  }, true);
  return path;
}

transport::TransportSpec parse(const std::string& materials, std::string* errors) {
  io::Diagnostics diag("t.yaml");
  io::Block model(YAML::Load("materials:\n" + materials + "geometry: { type: infinite }\nregions: [fuel]\n"), "model", diag);
  transport::TransportSpec s;
  transport::parse_materials_and_geometry(model, s);
  model.finish();
  *errors = diag.empty() ? "" : diag.report();
  return s;
}

}  // namespace

TEST_CASE("a library's material equals the same material typed inline, and runs to k_inf", "[transport]") {
  const std::string path = library("lib.h5");
  std::string errors;
  const auto lib = parse("  - { name: fuel, library: { file: " + path + ", set: two-group, temperature: 294K } }\n", &errors);
  REQUIRE(errors.empty());
  const auto typed = parse("  - { name: fuel, total: [0.6, 1.2], scatter: [[0.40, 0.12], [0.0, 0.90]], fission: [0.02, 0.2],"
                           " nu: [2.6, 2.4], chi: [1.0, 0.0] }\n", &errors);
  REQUIRE(errors.empty());
  const transport::Material &a = lib.materials.at(0), &b = typed.materials.at(0);
  REQUIRE(a.groups == 2);
  for (std::size_t g = 0; g < 2; ++g) {
    CHECK(a.total[g] == b.total[g]);
    CHECK(a.fission[g] == b.fission[g]);
    CHECK(a.nu[g] == Approx(b.nu[g]).epsilon(1e-15));
    CHECK(a.chi[g] == b.chi[g]);
    CHECK(a.capture[g] == Approx(b.capture[g]).epsilon(1e-12));
  }
  for (std::size_t i = 0; i < 4; ++i) CHECK(a.scatter[i] == Approx(b.scatter[i]).epsilon(1e-15));
  // A run on it: the job's text holds the data inline, and k meets k_inf.
  const std::string job = "run: { name: lib, paths: 20_000, seed: 3 }\nmodel:\n  type: transport\n  mode: eigenvalue\n"
                          "  materials: [{ name: fuel, library: { file: " + path + ", set: two-group, temperature: 294K } }]\n"
                          "  geometry: { type: infinite }\n  regions: [fuel]\n  eigenvalue: { inactive: 5, active: 60 }\n";
  const io::Job loaded = io::load_job_text(job, "lib.yaml");
  CHECK(loaded.yaml.find("loaded_from") != std::string::npos);
  CHECK(loaded.yaml.find("library") == std::string::npos);
  const io::Results r = run_job(loaded, RunOptions{io::BackendChoice::Cpu, false, "test"});
  std::map<std::string, reduce::Estimate> est;
  for (const auto& e : r.scenarios.front().estimates) est[e.name] = e;
  INFO("k_eff " << est.at("k_eff").value << " +- " << est.at("k_eff").std_error);
  CHECK(std::fabs(est.at("k_eff").value - 1.22) < 4 * est.at("k_eff").std_error);
  CHECK(est.at("k_eff").std_error < 0.005);
}

TEST_CASE("a library's scattering fills total - absorption, and the transport correction takes P1 out", "[transport]") {
  std::string errors;
  // P0 scattering at 80% of what total - absorption leaves: scaled back up, as
  // OpenMC's multigroup mode scatters every collision that is not an absorption.
  const auto scaled = parse("  - { name: fuel, library: { file: " + library("short.h5", 0.8) + ", set: two-group, temperature: 294K } }\n", &errors);
  REQUIRE(errors.empty());
  CHECK(scaled.materials[0].scatter[0] == Approx(0.40).epsilon(1e-14));
  CHECK(scaled.materials[0].scatter[1] == Approx(0.12).epsilon(1e-14));
  CHECK(scaled.materials[0].scatter[3] == Approx(0.90).epsilon(1e-14));
  // Transport correction: group 1's P1 out-scatter 0.06 leaves its total and its
  // in-group scattering; group 2's 0.1 likewise.
  const auto corrected = parse("  - { name: fuel, library: { file: " + library("lib.h5") +
                                   ", set: two-group, temperature: 294K, correction: transport } }\n", &errors);
  REQUIRE(errors.empty());
  const transport::Material& m = corrected.materials[0];
  CHECK(m.total[0] == Approx(0.54).epsilon(1e-14));
  CHECK(m.total[1] == Approx(1.10).epsilon(1e-14));
  CHECK(m.scatter[0] == Approx(0.34).epsilon(1e-14));
  CHECK(m.scatter[1] == Approx(0.12).epsilon(1e-14));
  CHECK(m.scatter[3] == Approx(0.80).epsilon(1e-14));
  CHECK(m.capture[0] == Approx(0.06).epsilon(1e-12));
}

TEST_CASE("mistakes in a library name the file, the HDF5 path and the key", "[transport][config]") {
  const std::string path = library("lib.h5"), short_matrix = library("cut.h5", 1, 1);
  const auto error_of = [](const std::string& material) {
    std::string errors;
    parse(material, &errors);
    return errors;
  };
  const auto has = [](const std::string& errors, const std::string& what) {
    INFO(errors);
    CHECK(errors.find(what) != std::string::npos);
  };
  has(error_of("  - { name: fuel, library: { file: " + path + " } }\n"), "no data set 'fuel' (it holds two-group)");
  has(error_of("  - { name: fuel, library: { file: " + path + ", set: two-group } }\n"),
      "/two-group holds 2 temperatures (294K, 600K): name one");
  has(error_of("  - { name: fuel, library: { file: " + path + ", set: two-group, temperature: 300K } }\n"),
      "/two-group has no temperature 300K (it has 294K, 600K)");
  has(error_of("  - { name: fuel, library: { file: " + path + ", set: two-group, temperature: 600K } }\n"),
      "/two-group/600K/total: missing");
  has(error_of("  - { name: fuel, library: { file: " + short_matrix + ", set: two-group, temperature: 294K } }\n"),
      "/two-group/294K/scatter_data/scatter_matrix: 5 values, fewer than g_min, g_max and order 1 need");
  has(error_of("  - { name: fuel, library: { file: " + (kDir / "none.h5").string() + " } }\n"), "model.materials[0].library.file");
  has(error_of("  - { name: fuel, total: 1, library: { file: " + path + ", set: two-group, temperature: 294K } }\n"),
      "the cross sections come from the library");
  has(error_of("  - { name: fuel, library: { file: " + path + ", set: two-group, temperature: 294K, correction: p3 } }\n"),
      "correction");
}

TEST_CASE("the shipped library, written as OpenMC writes one, holds a fuel and a water with upscatter", "[transport]") {
  // h5py's layout: 32-bit g_min and g_max, a bool fissionable, fixed-length strings.
  const std::string path = std::string(MCSIM_SOURCE_DIR) + "/configs/data/two-group-mgxs.h5";
  std::string errors;
  const auto s = parse("  - { name: fuel, library: { file: " + path + " } }\n"
                       "  - { name: water, library: { file: " + path + ", correction: transport } }\n", &errors);
  REQUIRE(errors.empty());
  CHECK(s.materials[0].fissile());
  CHECK(s.materials[0].nu[1] == Approx(2.4).epsilon(1e-15));
  const transport::Material& w = s.materials[1];
  CHECK_FALSE(w.fissile());
  CHECK(w.scatter[2] == Approx(0.001).epsilon(1e-12));  // thermal to fast: upscatter
  CHECK(w.total[0] == Approx(0.65 - 0.32).epsilon(1e-14));  // its P1 out-scatter 0.30 + 0.02 taken out
  CHECK(w.capture[1] == Approx(0.02).epsilon(1e-12));
}
