// Particle transport end to end on the CPU backend, against exact results:
// uncollided transmission and the flux profile through pure absorbers, the flux
// and collisions of an infinite medium (analog and implicit capture), the flat
// flux inside mirrors (slab and sphere meshes), k_inf of one- and two-group
// media, and the critical PUa slab of LA-13511. Estimates keep their bits across
// threads and chunk sizes.
#include <catch2/catch.hpp>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include "app/run/runner.hpp"
#include "app/run/transport/statistics.hpp"
#include "io/config.hpp"
#include "io/results.hpp"
#include "models/transport/analytic.hpp"
#include "rng/stream.hpp"
#include "transport_job.hpp"

using namespace mcsim;

namespace {
io::Results run_cpu(const std::string& text, const std::vector<std::string>& sets = {}) {
  return run_job(io::load_job_text(text, "transport.yaml", sets), RunOptions{io::BackendChoice::Cpu, false, "test"});
}
std::map<std::string, reduce::Estimate> by_name(const io::Results& r) {
  std::map<std::string, reduce::Estimate> m;
  for (const auto& e : r.scenarios.front().estimates) m[e.name] = e;
  return m;
}
const io::Table& table(const io::Results& r, const std::string& name) {
  for (const auto& t : r.scenarios.front().tables)
    if (t.name == name) return t;
  FAIL("no table " << name);
  throw;
}
// Every reference the model states is met within 4 errors, and the errors are
// small enough to mean something (under `rel` of the value).
void check_references(const io::Results& r, std::size_t expected, double rel) {
  const auto est = by_name(r);
  const auto& refs = r.scenarios.front().references;
  REQUIRE(refs.size() == expected);
  for (const auto& ref : refs) {
    INFO(ref.name << ": reference " << ref.value);
    REQUIRE(est.count(ref.name));
    const auto& e = est.at(ref.name);
    INFO("estimate " << e.value << " +- " << e.std_error);
    // Some estimators are exact in some problems (every history in an infinite
    // medium is absorbed once: k's absorption estimator has no spread there).
    const bool exact = std::fabs(e.value - ref.value) <= 1e-12 * std::fabs(ref.value);
    CHECK((e.std_error > 0 || exact));
    CHECK((std::fabs(e.value - ref.value) < 4 * e.std_error || exact));
    CHECK(e.std_error < rel * std::fabs(ref.value));
  }
}
}  // namespace

TEST_CASE("a beam through pure absorbers: transmission and the flux profile are exact exponentials", "[transport]") {
  for (const double mu : {1.0, 0.6}) {
    INFO("direction " << mu);
    const auto r = run_cpu(transport_job(
        "  mode: fixed_source\n"
        "  materials: [{ name: a, total: 0.7 }, { name: b, total: 0.2 }]\n"
        "  geometry: { type: slab, boundaries: [0, 1, 3.5] }\n"
        "  regions: [a, b]\n"
        "  source: { type: beam, position: 0, direction: " + std::to_string(mu) + " }\n"
        "  tallies: [transmission, absorption, { flux: { bins: 7 } }]\n"));
    check_references(r, 2, 0.02);
    CHECK(r.scenarios.front().references.front().value == Approx(std::exp(-(0.7 + 0.2 * 2.5) / mu)));
    // Bin [a, b) inside a layer of total s entered at optical depth tau:
    // exp(-tau / mu) (1 - exp(-s (b - a) / mu)) / s per cm of bin, over b - a.
    const auto& flux = table(r, "flux");
    REQUIRE(flux.data.size() == 7 * flux.columns.size());
    for (int i = 0; i < 7; ++i) {
      const double* row = &flux.data[static_cast<std::size_t>(i) * flux.columns.size()];
      const double a = row[0], b = row[1];
      const double s = a < 1 ? 0.7 : 0.2, tau = a < 1 ? 0.7 * a : 0.7 + 0.2 * (a - 1);
      const double exact = std::exp(-tau / mu) * (1 - std::exp(-s * (b - a) / mu)) / s / (b - a);
      INFO("bin " << a << " to " << b << ": exact " << exact << ", track " << row[3] << " +- " << row[4]
                  << ", collision " << row[5] << " +- " << row[6]);
      CHECK(std::fabs(row[3] - exact) < 4 * row[4]);
      CHECK(std::fabs(row[5] - exact) < 4 * row[6]);
      CHECK(row[4] < 0.02 * exact);
      CHECK(row[7] == Approx(exact).epsilon(1e-12));  // the file's closed-form column
    }
  }
  // A bin across the plane at 1 cm: the two layers' pieces, by hand (mu = 1).
  const double by_hand = ((std::exp(-0.49) - std::exp(-0.7)) / 0.7 + std::exp(-0.7) * (1 - std::exp(-0.08)) / 0.2) / 0.7;
  CHECK(transport::uncollided_beam_flux({0, 1, 3.5}, {0.7, 0.2}, 0, 1, 0.7, 1.4) == Approx(by_hand).epsilon(1e-12));
  CHECK(transport::uncollided_beam_flux({0, 1, 3.5}, {0.7, 0.2}, 0.5, 1, 0, 0.5) == 0);  // behind the source
}

TEST_CASE("an infinite medium's flux and collisions are 1 over absorption and total over absorption", "[transport]") {
  for (const char* capture : {"analog", "implicit"}) {
    INFO(capture);
    const auto r = run_cpu(transport_job(
        "  mode: fixed_source\n"
        "  materials: [{ name: m, total: 1.0, scatter: 0.9 }]\n"
        "  geometry: { type: infinite }\n"
        "  regions: [m]\n"
        "  source: { type: isotropic }\n"
        "  tallies: [absorption, collisions, flux]\n"
        "  capture: " + std::string(capture) + "\n"));
    check_references(r, 3, 0.02);
    const auto est = by_name(r);
    CHECK(est.at("flux").value == Approx(10).epsilon(0.05));  // the references are right too
    // Everything is absorbed: exactly in analog, on average under implicit capture.
    const auto& absorbed = est.at("absorption");
    CHECK(std::fabs(absorbed.value - 1) <= 4 * absorbed.std_error + 1e-9);
    CHECK(absorbed.std_error < 0.01);
  }
}

TEST_CASE("a uniform source inside mirrors gives a flat flux over slab and sphere meshes", "[transport]") {
  // One material, total 1 and absorption 0.2: each source particle leaves 5 cm of
  // track, spread evenly over the volume V, so every bin's flux is 5 / V.
  for (const char* geometry : {"{ type: slab, boundaries: [0, 4], left: reflective, right: reflective }",
                               "{ type: sphere, radii: [2], outer: reflective }"}) {
    INFO(geometry);
    const bool sphere = std::strstr(geometry, "sphere") != nullptr;
    const auto r = run_cpu(transport_job("  mode: fixed_source\n"
                                         "  materials: [{ name: m, total: 1.0, scatter: 0.8, mean_cosine: 0.2 }]\n"
                                         "  geometry: " + std::string(geometry) + "\n"
                                         "  regions: [m]\n"
                                         "  source: { type: isotropic, region: 0 }\n"
                                         "  tallies: [leakage, { flux: { bins: 12 } }]\n"));
    check_references(r, 2, 0.02);
    const double volume = sphere ? 4.0 / 3.0 * M_PI * 8 : 4.0;
    const auto& flux = table(r, "flux");
    for (std::size_t i = 0; i < 12; ++i) {
      const double* row = &flux.data[i * flux.columns.size()];
      INFO("bin " << row[0] << " to " << row[1] << ": track " << row[3] << " +- " << row[4] << ", collision " << row[5]);
      CHECK(std::fabs(row[3] - 5 / volume) < 4 * row[4]);
      CHECK(std::fabs(row[5] - 5 / volume) < 4 * row[6]);
      CHECK(row[4] < 0.03 * 5 / volume);
    }
    CHECK(by_name(r).at("leakage").value == 0);
  }
}

TEST_CASE("k of infinite media matches k_inf in one and two groups by every estimator", "[transport]") {
  const auto one = run_cpu(transport_job("  mode: eigenvalue\n"
                                         "  materials: [{ name: f, total: 1.0, scatter: 0.6, fission: 0.15, nu: 2.5 }]\n"
                                         "  geometry: { type: infinite }\n"
                                         "  regions: [f]\n"
                                         "  eigenvalue: { inactive: 5, active: 60 }\n",
                                         "paths: 20_000"));
  check_references(one, 4, 0.01);
  CHECK(one.scenarios.front().references.front().value == Approx(2.5 * 0.15 / 0.4));
  const auto two = run_cpu(transport_job(
      "  mode: eigenvalue\n"
      "  materials:\n"
      "    - { name: f, total: [0.6, 1.2], scatter: [[0.40, 0.12], [0.0, 0.90]], fission: [0.02, 0.2],\n"
      "        nu: [2.6, 2.4], chi: [1.0, 0.0] }\n"
      "  geometry: { type: slab, boundaries: [0, 3], left: reflective, right: reflective }\n"
      "  regions: [f]\n"
      "  eigenvalue: { inactive: 5, active: 60 }\n",
      "paths: 20_000"));
  check_references(two, 4, 0.01);
}

TEST_CASE("the bare PUb sphere of LA-13511 is critical", "[transport]") {
  const std::string pub = "  mode: eigenvalue\n"
                          "  materials: [{ name: PUb, total: 0.32640, scatter: 0.225216, fission: 0.081600, nu: 2.84 }]\n"
                          "  geometry: { type: sphere, radii: [6.082547] }\n"
                          "  regions: [PUb]\n"
                          "  eigenvalue: { inactive: 20, active: 100 }\n";
  const auto est = by_name(run_cpu(transport_job(pub, "paths: 20_000")));
  for (const char* k : {"k_eff", "k_collision", "k_absorption", "k_track"}) {
    INFO(k << " = " << est.at(k).value << " +- " << est.at(k).std_error);
    CHECK(std::fabs(est.at(k).value - 1) < 4 * est.at(k).std_error);
    CHECK(est.at(k).std_error < 0.005);
  }
}

TEST_CASE("batch means see the correlation of successive generations that their spread misses", "[transport]") {
  // AR(1) series x_t = rho x_(t-1) + sqrt(1 - rho^2) e_t (unit variance): the mean
  // of n has variance (1 + rho) / (1 - rho) / n, the naive spread says 1 / n. Ten
  // series each, so the batch estimate's own noise (about 16% a series) averages down.
  for (const double rho : {0.0, 0.8}) {
    INFO("rho " << rho);
    double naive = 0, batch = 0;
    for (std::uint64_t series = 0; series < 10; ++series) {
      rng::Stream stream(5, series);
      std::vector<double> x(20000);
      double prev = 0;
      for (double& v : x) v = prev = rho * prev + std::sqrt(1 - rho * rho) * rng::normals<double>(stream).z[0];
      const KErrors e = k_errors(x);
      CHECK(e.batches == kGenerationBatches);
      CHECK(e.generations_per_batch == 1000);
      naive += e.naive * e.naive / 10, batch += e.batch * e.batch / 10;
    }
    const double truth = std::sqrt((1 + rho) / (1 - rho) / 20000);
    CHECK(std::sqrt(naive) == Approx(std::sqrt(1.0 / 20000)).epsilon(0.03));
    CHECK(std::sqrt(batch) == Approx(truth).epsilon(0.12));
  }
}

TEST_CASE("a large critical sphere's k has correlated generations: its error is from batches of them", "[transport]") {
  // UD2O-1-0-SP of LA-13511 (R = 22.017156 cm, 12 mean free paths): the fission
  // source carries each generation's fluctuations into the next, so k's error from
  // single generations' spread is too small; the batch-means error, which k_eff
  // carries, is the honest one. The small PUb sphere barely correlates.
  const std::string ud2o = "  mode: eigenvalue\n"
                           "  materials: [{ name: UD2O, total: 0.54628, scatter: 0.464338, fission: 0.054628, nu: 1.70 }]\n"
                           "  geometry: { type: sphere, radii: [22.017156] }\n"
                           "  regions: [UD2O]\n"
                           "  eigenvalue: { inactive: 40, active: 200 }\n";
  const auto r = run_cpu(transport_job(ud2o, "paths: 5_000"));
  std::map<std::string, double> diag(r.scenarios.front().diagnostics.begin(), r.scenarios.front().diagnostics.end());
  const auto est = by_name(r);
  INFO("k_eff " << est.at("k_eff").value << " +- " << est.at("k_eff").std_error << ", ratio " << diag.at("k_eff_error_ratio"));
  CHECK(diag.at("k_eff_error_ratio") > 1.3);
  CHECK(est.at("k_eff").std_error == Approx(diag.at("k_eff_error_ratio") * diag.at("k_eff_naive_std_error")));
  CHECK(diag.at("error_batches") == 20);
  CHECK(diag.at("error_batch_generations") == 10);
  CHECK(std::fabs(est.at("k_eff").value - 1) < 4 * est.at("k_eff").std_error);
}

TEST_CASE("the bare PUa slab of LA-13511 is critical", "[transport]") {
  const auto r = run_cpu(transport_job(pua_slab_model(), "paths: 20_000"));
  const auto est = by_name(r);
  for (const char* k : {"k_eff", "k_collision", "k_absorption", "k_track"}) {
    INFO(k << " = " << est.at(k).value << " +- " << est.at(k).std_error);
    CHECK(std::fabs(est.at(k).value - 1) < 4 * est.at(k).std_error);
    CHECK(est.at(k).std_error < 0.005);
  }
  // The combination is at least as precise as the best single estimator, near enough.
  CHECK(est.at("k_eff").std_error <= 1.05 * std::min(est.at("k_collision").std_error, est.at("k_track").std_error));
  const auto& gens = table(r, "k_generation");
  REQUIRE(gens.data.size() == 120 * gens.columns.size());
  // The source settles: the entropy of the active generations stays near its mean.
  CHECK(gens.data[119 * gens.columns.size() + 4] > 3);
}

TEST_CASE("transport estimates keep their bits across threads and chunk sizes", "[transport]") {
  const std::string fixed = transport_job(beam_slab_model(), "paths: 100_000, chunk_paths: 4096");
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto a = run_cpu(fixed);
  const auto k1 = run_cpu(transport_job(pua_slab_model(), "paths: 5_000"));
  omp_set_num_threads(3);
  const auto b = run_cpu(fixed);
  const auto c = run_cpu(fixed, {"run.chunk_paths=16384"});
  const auto k3 = run_cpu(transport_job(pua_slab_model(), "paths: 5_000"));
  omp_set_num_threads(threads);
  const auto ea = by_name(a), eb = by_name(b), ec = by_name(c), ka = by_name(k1), kb = by_name(k3);
  for (const auto& [name, e] : ea) {
    INFO(name);
    CHECK(std::memcmp(&e.value, &eb.at(name).value, sizeof(double)) == 0);
    CHECK(std::memcmp(&e.std_error, &eb.at(name).std_error, sizeof(double)) == 0);
    CHECK(std::memcmp(&e.value, &ec.at(name).value, sizeof(double)) == 0);  // exact sums: chunks move only the errors
  }
  for (const auto& [name, e] : ka) {
    INFO(name);
    CHECK(std::memcmp(&e.value, &kb.at(name).value, sizeof(double)) == 0);
    CHECK(std::memcmp(&e.std_error, &kb.at(name).std_error, sizeof(double)) == 0);
  }
}

TEST_CASE("a transport results file holds the flux mesh and k per generation", "[transport]") {
  const auto r = run_cpu(transport_job(pua_slab_model("  tallies: [leakage, { flux: { bins: 10 } }]\n"), "paths: 2_000"));
  const std::string path = (std::filesystem::temp_directory_path() / "mcsim_transport_test.h5").string();
  io::write_results(path, r, true);
  const auto back = io::read_results(path);
  std::filesystem::remove(path);
  const auto& s = back.scenarios.front();
  REQUIRE(s.tables.size() == 2);
  CHECK(table(back, "flux").data.size() == 10 * 8);  // low, high, group, track and collision with errors, reference
  CHECK(table(back, "k_generation").data.size() == 120 * 7);
  CHECK(by_name(back).count("k_eff") == 1);
  CHECK(by_name(back).count("flux") == 1);
}
