// Particle transport on CPU and GPU (ctest label gpu; skipped without a CUDA
// device): agreement within errors in layered and CSG geometry, the same bits on
// any chunk size, and an eigenvalue generation kept on the GPU against the host's.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "app/exec/transport/executor.hpp"
#include "csg_job.hpp"
#include "gpu_run.hpp"
#include "io/config.hpp"
#include "models/transport/fission_source.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_model.hpp"
#include "same_results.hpp"
#include "transport_job.hpp"

using namespace mcsim;

namespace {
const reduce::Estimate& estimate_of(const io::Results& r, const std::string& name) {
  for (const auto& e : r.scenarios.front().estimates)
    if (e.name == name) return e;
  FAIL("no estimate " << name);
  throw;
}
}  // namespace

TEST_CASE("particle transport agrees on CPU and GPU", "[gpu][transport]") {
  if (!have_gpu()) return;
  const std::string sphere = transport_job("  mode: fixed_source\n"
                                           "  materials: [{ name: m, total: 1.0, scatter: 0.8, mean_cosine: 0.2 }]\n"
                                           "  geometry: { type: sphere, radii: [1, 2] }\n"
                                           "  regions: [m, m]\n"
                                           "  source: { type: isotropic, region: 0 }\n"
                                           "  capture: implicit\n"
                                           "  tallies: [leakage, absorption, collisions, { flux: { bins: 20 } }]\n");
  for (const char* precision : {"double", "float"}) {
    const bool is_double = std::string(precision) == "double";
    const std::vector<std::string> sets{std::string("run.precision=") + precision};
    for (const std::string& job : {transport_job(beam_slab_model()), sphere}) {
      INFO(precision << "\n" << job);
      const auto cpu = run_on(io::BackendChoice::Cpu, job, sets), gpu = run_on(io::BackendChoice::Cuda, job, sets);
      for (const auto& e : cpu.scenarios.front().estimates) {
        const auto& g = estimate_of(gpu, e.name);
        INFO(e.name << ": cpu " << e.value << " +- " << e.std_error << ", gpu " << g.value << " +- " << g.std_error);
        // The same streams: in double the histories are the CPU's but for the last
        // bits of library maths; in float the device's division and logarithm round
        // differently, so histories part and the two runs are near-independent.
        CHECK(std::fabs(g.value - e.value) <= (is_double ? 0.05 : 4 * std::sqrt(2.0)) * e.std_error);
      }
    }
    // Eigenvalue: one history that parts changes the bank, so the runs agree within errors.
    const std::string pua = transport_job(pua_slab_model(), "paths: 20_000");
    const auto cpu = run_on(io::BackendChoice::Cpu, pua, sets), gpu = run_on(io::BackendChoice::Cuda, pua, sets);
    for (const char* k : {"k_eff", "k_collision", "k_absorption", "k_track"}) {
      const auto &c = estimate_of(cpu, k), &g = estimate_of(gpu, k);
      INFO(precision << " " << k << ": cpu " << c.value << " +- " << c.std_error << ", gpu " << g.value << " +- " << g.std_error);
      CHECK(std::fabs(g.value - c.value) <= 4 * std::hypot(c.std_error, g.std_error));
      CHECK(std::fabs(g.value - 1) <= 4 * g.std_error);
    }
  }
}

TEST_CASE("transport in constructive solid geometry agrees on CPU and GPU", "[gpu][transport][csg]") {
  if (!have_gpu()) return;
  // A fixed source in 3-D, and power iteration on a lattice with its pin powers.
  const std::string fixed = transport_job(pin_in_sphere_model("[absorption, leakage, collisions, { name: cells, filter: cell }]"));
  const std::string lattice = transport_job("  mode: eigenvalue\n" + pin_materials() + pin_lattice_geometry(3) +
                                            "  eigenvalue: { inactive: 10, active: 60 }\n"
                                            "  tallies: [{ name: pins, filter: lattice, lattice: grid }]\n",
                                            "paths: 20_000");
  for (const char* precision : {"double", "float"}) {
    const std::vector<std::string> sets{std::string("run.precision=") + precision};
    for (const std::string& job : {fixed, lattice}) {
      INFO(precision << "\n" << job);
      const auto cpu = run_on(io::BackendChoice::Cpu, job, sets), gpu = run_on(io::BackendChoice::Cuda, job, sets);
      for (const auto& e : cpu.scenarios.front().estimates) {
        const auto& g = estimate_of(gpu, e.name);
        INFO(e.name << ": cpu " << e.value << " +- " << e.std_error << ", gpu " << g.value << " +- " << g.std_error);
        CHECK(e.std_error > 0);
        CHECK(std::fabs(g.value - e.value) <= 4 * std::hypot(e.std_error, g.std_error));
      }
      // Every table cell (a pin's power, a bin's rate) within 4 combined errors.
      for (const auto& t : cpu.scenarios.front().tables) {
        const io::Table* on_gpu = nullptr;
        for (const auto& u : gpu.scenarios.front().tables) on_gpu = u.name == t.name ? &u : on_gpu;
        REQUIRE(on_gpu != nullptr);
        REQUIRE(on_gpu->data.size() == t.data.size());
        for (std::size_t c = 0; c + 1 < t.columns.size(); ++c) {
          if (t.columns[c + 1] != t.columns[c] + "_std_error") continue;
          for (std::size_t at = c; at < t.data.size(); at += t.columns.size()) {
            INFO(t.name << " " << t.columns[c] << " row " << at / t.columns.size() << ": cpu " << t.data[at] << " +- "
                        << t.data[at + 1] << ", gpu " << on_gpu->data[at] << " +- " << on_gpu->data[at + 1]);
            CHECK(std::fabs(on_gpu->data[at] - t.data[at]) <= 4 * std::hypot(t.data[at + 1], on_gpu->data[at + 1]) + 1e-12);
          }
        }
      }
    }
  }
}

TEST_CASE("particle transport on the GPU has the same bits for any chunk size and on a repeat", "[gpu][transport]") {
  if (!have_gpu()) return;
  const std::string fixed = transport_job(beam_slab_model(), "paths: 300_000, chunk_paths: 4096, precision: float");
  const auto a = run_on(io::BackendChoice::Cuda, fixed, {});
  const auto b = run_on(io::BackendChoice::Cuda, fixed, {"run.chunk_paths=32768"});
  const auto c = run_on(io::BackendChoice::Cuda, fixed, {});
  for (const auto& e : a.scenarios.front().estimates) {
    INFO(e.name);
    const double v = estimate_of(b, e.name).value;
    CHECK(std::memcmp(&e.value, &v, sizeof v) == 0);  // exact sums: chunks move only the errors
  }
  CHECK(first_different_estimate(a, c) == "");
  const std::string pua = transport_job(pua_slab_model(), "paths: 30_000, precision: float");
  CHECK(first_different_estimate(run_on(io::BackendChoice::Cuda, pua, {}), run_on(io::BackendChoice::Cuda, pua, {})) == "");
}

TEST_CASE("an eigenvalue generation kept on the GPU gives the host path's tallies bank counts and sites", "[gpu][transport]") {
  if (!have_gpu()) return;
  std::string why;
  Device device(DeviceKind::Cuda, 0, cuda_device_name(0));
  TransportExecutor* gpu = &device.executor<TransportExecutor>();
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    const io::Job job = io::load_job_text(transport_job(pua_slab_model("  tallies: [{ flux: { bins: 20 } }]\n")), "gpu.yaml",
                                          {std::string("run.precision=") + precision});
    const auto& model = dynamic_cast<const transport::TransportModel&>(*job.model);
    const transport::TransportKernel k = model.transport_kernel(job.run.precision, job.run.seed);
    const std::uint64_t n = 10'000, slots = static_cast<std::uint64_t>(k.slots()), rows = (n + 4095) / 4096;
    transport::SourceMesh mesh;
    mesh.low[0] = -1.853722, mesh.high[0] = 1.853722, mesh.shape[0] = 20;
    const double u = 0.3;
    std::vector<transport::Site<double>> sites;  // generation 0 from the source, then from the drawn sites
    for (std::uint64_t g = 0; g < 2; ++g) {
      INFO("generation " << g);
      TransportBatch b{transport::generation_stream(g, 0), 0, n, 4096, sites.empty() ? nullptr : sites.data(), 0.9};
      // The host path: the bank comes back and is drawn from here.
      std::vector<std::uint64_t> host_rows(rows * slots), host_counts(20, 0);
      std::vector<transport::Site<double>> bank, drawn(n);
      gpu->run(k, b, host_rows.data(), &bank);
      REQUIRE(!bank.empty());
      for (const auto& s : bank) ++host_counts[static_cast<std::size_t>(transport::source_bin(mesh, s))];
      for (std::uint64_t j = 0; j < n; ++j) drawn[j] = bank[transport::drawn_index(j, u, bank.size(), n)];
      // The kept path, from the same sites (generation 1: those the device kept).
      if (g > 0) b.sites = nullptr, b.kept_sites = true;
      std::vector<std::uint64_t> rows_kept(rows * slots), counts(20);
      CHECK(gpu->generation(k, b, mesh, u, rows_kept.data(), counts.data()) == bank.size());
      CHECK(rows_kept == host_rows);
      CHECK(counts == host_counts);
      std::vector<transport::Site<double>> kept;
      gpu->kept_sites(&kept);
      REQUIRE(kept.size() == n);
      std::size_t same = 0;
      for (std::uint64_t j = 0; j < n; ++j) same += kept[j].x == drawn[j].x && kept[j].g == drawn[j].g;
      CHECK(same == n);
      sites = drawn;
    }
  }
}
