// CPU/GPU agreement, run on a machine with a CUDA device (ctest label gpu). Without
// one each test prints SKIPPED and returns, which ctest reports as skipped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#include "app/run/runner.hpp"
#include "app/cli/validate.hpp"
#include "app/exec/transport/executor.hpp"
#include "app/version.hpp"
#include "io/results.hpp"
#include "models/transport/fission_source.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_model.hpp"
#include "gpu_run.hpp"
#include "job_text.hpp"
#include "run_exe.hpp"
#include "same_results.hpp"
#include "transport_job.hpp"

using namespace mcsim;
namespace fs = std::filesystem;

TEST_CASE("GPU streams equal the CPU streams: words bit for bit and normals to rounding", "[gpu]") {
  if (!have_gpu()) return;
  std::vector<std::uint64_t> paths;
  for (std::uint64_t p = 0; p < 1000; ++p) paths.push_back(p * 7919 + (p % 3 ? 0 : (1ULL << 40)));
  for (std::uint64_t seed : {0ULL, 42ULL, 0x9e3779b97f4a7c15ULL}) {
    const StreamDraws d = cuda_stream_draws(seed, paths);
    REQUIRE(d.words.size() == 4 * paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
      rng::Stream w(seed, paths[i]), f(seed, paths[i]), g(seed, paths[i]);
      const rng::Words4 host = w.next4();
      for (int j = 0; j < 4; ++j) REQUIRE(d.words[4 * i + j] == host.w[j]);
      const auto zf = rng::normals<float>(f);
      for (int j = 0; j < 4; ++j) REQUIRE(std::fabs(d.normals_f[4 * i + j] - zf.z[j]) < 2e-5f * (1 + std::fabs(zf.z[j])));
      const auto zd = rng::normals<double>(g);
      for (int j = 0; j < 2; ++j) REQUIRE(std::fabs(d.normals_d[2 * i + j] - zd.z[j]) < 1e-13 * (1 + std::fabs(zd.z[j])));
    }
  }
}

TEST_CASE("the same job priced on CPU and GPU agrees within 1e-5 relative", "[gpu]") {
  if (!have_gpu()) return;
  for (const char* precision : {"float", "double"})
    for (const char* inst : {"european", "digital"})
      for (const char* vr : {"", "  variance_reduction: [antithetic]\n"}) {
        INFO(precision << " " << inst << " " << vr);
        const std::vector<std::string> sets{std::string("run.precision=") + precision, "run.paths=2_000_003"};
        const auto cpu = run_on(io::BackendChoice::Cpu, option_job(inst, "call", vr), sets);
        const auto gpu = run_on(io::BackendChoice::Cuda, option_job(inst, "call", vr), sets);
        const auto& c = cpu.scenarios.front().estimates.front();
        const auto& g = gpu.scenarios.front().estimates.front();
        CHECK(gpu.backend == "cuda");
        CHECK(g.samples == c.samples);
        CHECK(std::fabs(g.value - c.value) <= 1e-5 * std::fabs(c.value));
        CHECK(std::fabs(g.std_error - c.std_error) <= 1e-4 * c.std_error);
        // Chunk by chunk too: the path counts match exactly.
        const auto& ct = cpu.scenarios.front().chunk_tallies;
        const auto& gt = gpu.scenarios.front().chunk_tallies;
        REQUIRE(ct.size() == gt.size());
        for (std::size_t i = 0; i < ct.size(); i += 3) REQUIRE(ct[i] == gt[i]);
      }
}

TEST_CASE("the GPU gives the same bits on a repeated run", "[gpu]") {
  if (!have_gpu()) return;
  const std::vector<std::string> sets{"run.precision=float", "run.paths=5_000_000", "run.chunk_paths=4096"};
  const auto a = run_on(io::BackendChoice::Cuda, option_job("european", "put"), sets);
  const auto b = run_on(io::BackendChoice::Cuda, option_job("european", "put"), sets);
  const double x = a.scenarios.front().estimates.front().value, y = b.scenarios.front().estimates.front().value;
  CHECK(std::memcmp(&x, &y, sizeof x) == 0);
}

TEST_CASE("validation passes on the GPU backend", "[gpu]") {
  if (!have_gpu()) return;
  for (const char* precision : {"double", "float"}) {
    const auto rows = run_validation(std::string(kSourceDir) + "/validation",
                                     RunOptions{io::BackendChoice::Cuda, false, "test"},
                                     {std::string("run.precision=") + precision});
    std::cout << format_validation(rows);
    for (const auto& r : rows) CHECK(r.pass);
  }
}

TEST_CASE("one GPU and every GPU of the node give the same bits", "[gpu]") {
  if (!have_gpu()) return;
  const fs::path dir = test_exe::scratch("gpu-count");
  const fs::path job = dir / "job.yaml";
  std::ofstream(job) << option_job("european", "call", "  variance_reduction: [antithetic]\n",
                                   ", precision: float");
  const std::string one = (dir / "one.h5").string(), all = (dir / "all.h5").string();
  const auto a = test_exe::run("run " + job.string() + " --backend cuda -q -o " + one + " --set run.paths=300_000_001",
                               "CUDA_VISIBLE_DEVICES=0");
  REQUIRE(a.status == 0);
  const auto b = test_exe::run("run " + job.string() + " --backend cuda -q -o " + all + " --set run.paths=300_000_001");
  REQUIRE(b.status == 0);
  const auto r = io::read_results(all);
  std::cout << "GPUs in the all-GPU run: " << r.device_times.size() << "\n";
  CHECK(same_results(one, all));
#if defined(MCSIM_MPIEXEC)
  // One rank per GPU (each takes the GPU of its node-local rank).
  const std::string ranks = (dir / "ranks.h5").string();
  const auto c = test_exe::run("run " + job.string() + " --backend cuda -q -o " + ranks + " --set run.paths=300_000_001",
                               std::string(MCSIM_MPIEXEC) + " -np 2 --oversubscribe --allow-run-as-root");
  INFO(c.output);
  REQUIRE(c.status == 0);
  CHECK(io::read_results(ranks).ranks == 2);
  CHECK(same_results(one, ranks));
#endif
  fs::remove_all(dir);
}

TEST_CASE("particle transport gives the same bits on one GPU every GPU and one rank per GPU", "[gpu]") {
  if (!have_gpu()) return;
  const fs::path dir = test_exe::scratch("gpu-count-transport");
  // Fixed source and eigenvalue (the bank crosses devices and ranks there), layered and CSG.
  const std::vector<std::pair<std::string, std::string>> jobs{
      {"transport-fixed-slab", " --set run.paths=4_000_000 --set run.precision=float"},
      {"transport-eigen-slab", " --set run.paths=200_000 --set model.eigenvalue.inactive=5"
                               " --set model.eigenvalue.active=10 --set run.precision=float"},
      {"transport-c5g7", " --set run.paths=200_000 --set model.eigenvalue.inactive=3"
                         " --set model.eigenvalue.active=5 --set run.precision=float"}};
  for (const auto& [name, sets] : jobs) {
    const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/" + name + ".yaml";
    const std::string one = (dir / (name + "-one.h5")).string(), all = (dir / (name + "-all.h5")).string();
    const std::string args = "run " + config + " --backend cuda -q" + sets + " -o ";
    const auto a = test_exe::run(args + one, "CUDA_VISIBLE_DEVICES=0");
    INFO(name << ": " << a.output);
    REQUIRE(a.status == 0);
    const auto b = test_exe::run(args + all);
    REQUIRE(b.status == 0);
    std::cout << name << ": GPUs in the all-GPU run: " << io::read_results(all).device_times.size() << "\n";
    CHECK(same_results(one, all));
#if defined(MCSIM_MPIEXEC)
    const std::string ranks = (dir / (name + "-ranks.h5")).string();
    const auto c = test_exe::run(args + ranks, std::string(MCSIM_MPIEXEC) + " -np 2 --oversubscribe --allow-run-as-root");
    INFO(c.output);
    REQUIRE(c.status == 0);
    CHECK(io::read_results(ranks).ranks == 2);
    CHECK(same_results(one, ranks));
#endif
  }
  fs::remove_all(dir);
}

TEST_CASE("a non-finite GPU tally stops the run naming chunk and device", "[gpu]") {
  if (!have_gpu()) return;
  const fs::path dir = test_exe::scratch("gpu-fault");
  const fs::path job = dir / "job.yaml";
  std::ofstream(job) << option_job("european", "call", "", ", precision: float");
  const auto r = test_exe::run("run " + job.string() + " --backend cuda -q -o " + (dir / "never.h5").string() +
                               " --set model.process.spot=1e30");
  CHECK(r.status == 1);
  // With several GPUs, whichever meets a bad chunk first reports it.
  CHECK(std::regex_search(r.output, std::regex("chunk [0-9]+ on cuda:[0-9]")));
  CHECK(r.output.find("not finite") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "never.h5"));
  fs::remove_all(dir);
}

namespace {
// The same job on the CPU and on the GPU: the same samples, values within 2e-5
// relative and errors within 2e-3 (a Sobol error, the spread of 32 chunk means
// each far more precise than a plain one, within 2e-2: float rounding moves it more).
// With early exercise in float a path at the fitted boundary may stop on another
// date on each backend: each such path moves an estimate by about its spread over
// n, std_error / sqrt(n); `flips` of them are allowed.
void agree_on_cpu_and_gpu(const std::string& job, const std::vector<std::string>& sets, bool sobol, int flips = 0) {
  const auto cpu = run_on(io::BackendChoice::Cpu, job, sets);
  const auto gpu = run_on(io::BackendChoice::Cuda, job, sets);
  const auto& ce = cpu.scenarios.front().estimates;
  const auto& ge = gpu.scenarios.front().estimates;
  REQUIRE(ce.size() == ge.size());
  for (std::size_t i = 0; i < ce.size(); ++i) {
    INFO(ce[i].name);
    CHECK(ge[i].samples == ce[i].samples);
    // Rounding apart (fused multiply-adds, the device's exp): 2e-5 of the value, or of
    // an estimate near 0 against its spread (a likelihood ratio's sum of large
    // opposite terms) 1e-3 of its standard error, far below what a wrong term moves.
    const double flipped = flips * ce[i].std_error / std::sqrt(static_cast<double>(ce[i].samples));
    CHECK(std::fabs(ge[i].value - ce[i].value) <=
          std::max(2e-5 * std::fabs(ce[i].value), 1e-3 * ce[i].std_error) + flipped);
    CHECK(std::fabs(ge[i].std_error - ce[i].std_error) <= (sobol ? 2e-2 : 2e-3) * ce[i].std_error);
  }
}
}  // namespace

TEST_CASE("path-dependent, Heston, local volatility, Sobol, basket, walked basket, Bermudan, jump, forward-start, cliquet and cash-dividend options and path Greeks agree on CPU and GPU", "[gpu]") {
  if (!have_gpu()) return;
  const std::string base =
      "run: { name: t, paths: 200_003, seed: 12, chunk_paths: 4096 }\n"
      "model:\n  type: option\n";
  const std::string gbm = "  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.01, volatility: 0.3 }\n";
  const std::string basket =
      "  process:\n    rate: 0.03\n    assets: [{ name: A, spot: 100, volatility: 0.25 }, { name: B, spot: 95, volatility: 0.3,"
      " dividend: 0.02 }, { name: C, spot: 110, volatility: 0.2 }]\n"
      "    correlation: [[1, 0.5, -0.2], [0.5, 1, 0.3], [-0.2, 0.3, 1]]\n";
  const std::string heston_basket =
      "  process:\n    type: heston\n    rate: 0.03\n    assets: [{ name: A, spot: 100, v0: 0.04, kappa: 1.5, theta: 0.05, xi: 0.5,"
      " rho: -0.6 }, { name: B, spot: 95, v0: 0.06, kappa: 2, theta: 0.04, xi: 0.4, rho: -0.4, dividend: 0.02 },"
      " { name: C, spot: 105, v0: 0.03, kappa: 1, theta: 0.04, xi: 0.3, rho: -0.7 }]\n"
      "    correlation: [[1, 0.5, -0.2], [0.5, 1, 0.3], [-0.2, 0.3, 1]]\n";
  const std::string curves =
      "  market:\n    discount: { times: [0.5, 1, 2], zero_rates: [0.02, 0.03, 0.045] }\n"
      "    dividend_yield: { times: [1, 3], zero_rates: [0.01, 0.015] }\n"
      "    dividends: [{ time: 0.75, proportional: 0.02 }]\n";
  const std::string cash = "  market:\n    dividends: [{ time: 0.3, cash: 2 }, { time: 0.5, cash: 1 }, { time: 0.8, cash: 2 }]\n";
  const std::string smile =
      "    vol_surface: { expiries: [0.5, 1, 2], strikes: [70, 85, 100, 115, 130],\n"
      "                   vols: [[0.32, 0.27, 0.23, 0.21, 0.205], [0.30, 0.26, 0.23, 0.215, 0.21],"
      " [0.29, 0.26, 0.235, 0.22, 0.215]] }\n";
  const std::string lv_curves =  // Dupire's from the smile on curves without dividends
      "  market:\n    discount: { times: [0.5, 1, 2], zero_rates: [0.02, 0.03, 0.045] }\n"
      "    dividend_yield: { times: [1, 3], zero_rates: [0.01, 0.015] }\n" + smile;
  const std::vector<std::string> instruments{
      gbm + "  instrument: { type: asian, average: arithmetic, fixings: 52, option: call, strike: 95, maturity: 1,"
      " barrier: 80, kind: down-and-out }\n",
      gbm + "  instrument: { type: asian, average: geometric, times: [0.1, 0.4, 0.5, 1.0], option: put, strike: 100, maturity: 1 }\n",
      gbm + "  instrument: { type: barrier, option: put, strike: 100, maturity: 1, barrier: 115, kind: up-and-in,"
      " monitoring: continuous, rebate: 1.5 }\n  steps: 20\n",
      gbm + "  instrument: { type: lookback, strike_type: floating, option: call, maturity: 1, monitoring: continuous }\n"
      "  steps: 30\n  variance_reduction: [antithetic]\n",
      gbm + "  instrument: { type: asian, average: arithmetic, fixings: 24, option: put, strike: 105, maturity: 1 }\n"
      "  variance_reduction: [antithetic, control_variate]\n",
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5 }\n"
      "  instrument: { type: european, option: call, strike: 110, maturity: 1 }\n  steps: 25\n",
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5, scheme: euler }\n"
      "  instrument: { type: european, option: put, strike: 95, maturity: 1 }\n  steps: 25\n"
      "  variance_reduction: [antithetic]\n",
      // Heston under path-dependent payoffs, watched at the steps.
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 24, option: call, strike: 100, maturity: 1,"
      " barrier: 85, kind: down-and-out }\n  variance_reduction: [antithetic]\n",
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5, scheme: euler }\n"
      "  instrument: { type: lookback, strike_type: fixed, option: put, strike: 100, maturity: 1 }\n  steps: 40\n",
      // Scrambled Sobol points: 32 chunks, each one scrambling; the bridge fills 20 of 52 steps.
      gbm + "  instrument: { type: asian, average: arithmetic, fixings: 52, option: call, strike: 100, maturity: 1 }\n"
      "  variance_reduction: [sobol, control_variate]\n",
      gbm + "  instrument: { type: barrier, option: call, strike: 100, maturity: 1, barrier: 90, kind: down-and-out,"
      " monitoring: continuous }\n  steps: 16\n  variance_reduction: [sobol]\n",
      basket + "  instrument: { type: basket, payoff: average, option: call, strike: 100, maturity: 1 }\n"
      "  variance_reduction: [control_variate]\n",
      basket + "  instrument: { type: basket, payoff: max, option: put, strike: 105, maturity: 1 }\n"
      "  variance_reduction: [antithetic]\n",
      basket + "  instrument: { type: basket, payoff: min, option: call, strike: 90, maturity: 2 }\n",
      // Heston paths scoring their Greeks: pathwise, and by likelihood ratio.
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 24, option: call, strike: 100, maturity: 1 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n  variance_reduction: [antithetic]\n",
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5, scheme: euler }\n"
      "  instrument: { type: european, option: put, strike: 95, maturity: 1 }\n  steps: 25\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
      "  process: { type: heston, spot: 100, rate: 0.01, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5, scheme: euler }\n"
      "  instrument: { type: barrier, option: put, strike: 100, maturity: 1, barrier: 115, kind: up-and-in }\n  steps: 25\n"
      "  greeks: [delta, gamma]\n",
      // Baskets scoring every asset's and pair's Greeks on the path.
      basket + "  instrument: { type: basket, payoff: average, option: call, strike: 100, maturity: 1 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho, correlation]\n",
      basket + "  instrument: { type: basket, payoff: max, option: put, strike: 105, maturity: 1 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho, correlation]\n  variance_reduction: [antithetic]\n",
      // Walked baskets: Heston assets, early exercise, their Greeks on the path.
      heston_basket + "  instrument: { type: bermudan, exercise_dates: 6, payoff: average, option: put, strike: 100, maturity: 1 }\n"
      "  steps: 24\n  regression_paths: 4096\n  greeks: [delta, gamma, vega, rho, dividend_rho, correlation]\n",
      heston_basket + "  instrument: { type: basket, payoff: max, option: call, strike: 105, maturity: 1 }\n  steps: 20\n",
      basket + "  instrument: { type: american, payoff: min, option: put, strike: 95, maturity: 1 }\n  steps: 16\n"
      "  regression_paths: 4096\n  greeks: [delta, gamma, rho, correlation]\n",
      gbm + "  instrument: { type: bermudan, exercise_dates: 20, option: put, strike: 105, maturity: 1 }\n"
      "  regression_paths: 4096\n  variance_reduction: [antithetic]\n",
      gbm + "  instrument: { type: american, option: put, strike: 100, maturity: 1 }\n  steps: 25\n"
      "  regression_paths: 4096\n  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
      gbm + "  instrument: { type: european, option: put, strike: 95, maturity: 1 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n  variance_reduction: [antithetic]\n",
      gbm + "  instrument: { type: digital, option: call, strike: 105, maturity: 1, cash: 10 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
      // Stepped paths scoring their Greeks: pathwise (averages, a bridged lookback, a
      // continuous barrier, a forward start, a cliquet), by likelihood ratio (a
      // discretely knocked average).
      gbm + "  instrument: { type: asian, average: arithmetic, fixings: 24, option: call, strike: 100, maturity: 1,"
      " barrier: 85, kind: down-and-out }\n  greeks: [delta, gamma, vega, rho, dividend_rho]\n"
      "  variance_reduction: [antithetic]\n",
      gbm + "  instrument: { type: asian, average: geometric, times: [0.1, 0.4, 0.5, 1.0], option: put, strike: 100, maturity: 1 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
      gbm + "  instrument: { type: barrier, option: call, strike: 100, maturity: 1, barrier: 85, kind: down-and-out,"
      " monitoring: continuous, rebate: 2 }\n  steps: 20\n  greeks: [delta, vega, rho, dividend_rho]\n",
      gbm + "  instrument: { type: lookback, strike_type: fixed, option: call, strike: 105, maturity: 1, monitoring: continuous }\n"
      "  steps: 30\n  greeks: [delta, vega, rho, dividend_rho]\n  variance_reduction: [antithetic]\n",
      gbm + "  instrument: { type: forward_start, option: call, moneyness: 1.05, start: 0.4, maturity: 1.2 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
      gbm + "  instrument: { type: cliquet, resets: 8, maturity: 2, local_floor: -0.02, local_cap: 0.04, global_floor: 0,"
      " global_cap: 0.15 }\n  greeks: [vega, rho, dividend_rho]\n",
      // Market curves, a dividend and a volatility term structure: the one-step
      // European, and stepped paths reading their per-step table.
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1.5 }\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 36, option: put, strike: 100, maturity: 1.5 }\n"
      "  variance_reduction: [antithetic]\n",
      // ... scoring their Greeks: a European's in every pillar and node from its flat
      // equivalents, a stepped path's pathwise from its table's step lengths and tangents.
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1.5 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho, buckets]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 36, option: put, strike: 100, maturity: 1.5 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho, buckets]\n  variance_reduction: [antithetic]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: asian, average: geometric, fixings: 24, option: call, strike: 100, maturity: 1.5 }\n"
      "  greeks: [delta, gamma, vega, rho, dividend_rho, buckets]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: lookback, strike_type: floating, option: put, maturity: 1.2 }\n  steps: 12\n"
      "  greeks: [delta, vega, rho, dividend_rho, buckets]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: cliquet, resets: 6, maturity: 1.5, local_floor: -0.02, local_cap: 0.04, global_floor: 0.01 }\n"
      "  greeks: [vega, rho, dividend_rho, buckets]\n  variance_reduction: [antithetic]\n",
      // ... barriers and bridged extremes: pathwise when watched continuously, by
      // likelihood ratio at the steps.
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: barrier, option: call, strike: 100, maturity: 1.5, barrier: 85, kind: down-and-out,"
      " monitoring: continuous, rebate: 2 }\n  steps: 18\n  greeks: [delta, buckets]\n  variance_reduction: [antithetic]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: barrier, option: call, strike: 100, maturity: 1.5, barrier: 125, kind: up-and-out }\n"
      "  steps: 12\n  greeks: [delta, gamma, buckets]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: { times: [0.5, 1], values: [0.3, 0.2] } }\n"
      "  instrument: { type: lookback, strike_type: fixed, option: call, strike: 100, maturity: 1.5, monitoring: continuous }\n"
      "  steps: 18\n  greeks: [delta, buckets]\n",
      // Dupire's local volatility from a smile, and CEV.
      "  market:\n" + smile + "  process: { type: local_vol, spot: 100, rate: 0.03, dividend: 0.01 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 50, option: call, strike: 100, maturity: 1,"
      " barrier: 75, kind: down-and-out }\n",
      "  market:\n" + smile + "  process: { type: local_vol, spot: 100, rate: 0.03, dividend: 0.01 }\n"
      "  instrument: { type: digital, option: put, strike: 95, maturity: 1.5 }\n  steps: 60\n"
      "  variance_reduction: [antithetic]\n",
      "  process: { type: cev, spot: 100, rate: 0.05, dividend: 0.02, sigma: 2.5, beta: 0.5 }\n"
      "  instrument: { type: european, option: put, strike: 80, maturity: 1 }\n  steps: 50\n"
      "  variance_reduction: [antithetic]\n",
      // ... scoring their Greeks on the path.
      "  market:\n" + smile + "  process: { type: local_vol, spot: 100, rate: 0.03, dividend: 0.01 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 50, option: call, strike: 100, maturity: 1 }\n"
      "  greeks: [delta, gamma, rho, dividend_rho]\n  variance_reduction: [antithetic]\n",
      "  process: { type: cev, spot: 100, rate: 0.05, dividend: 0.02, sigma: 2.5, beta: 0.5 }\n"
      "  instrument: { type: lookback, strike_type: floating, option: put, maturity: 1 }\n  steps: 50\n"
      "  greeks: [delta, rho, dividend_rho]\n",
      // ... and in every pillar of their curves and quote of their surface.
      lv_curves + "  process: { type: local_vol, spot: 100 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 24, option: put, strike: 100, maturity: 1.5 }\n"
      "  greeks: [delta, buckets]\n  variance_reduction: [antithetic]\n",
      lv_curves + "  process: { type: local_vol, spot: 100 }\n"
      "  instrument: { type: lookback, strike_type: fixed, option: call, strike: 100, maturity: 1.2 }\n  steps: 24\n"
      "  greeks: [delta, buckets]\n",
      lv_curves + "  process: { type: local_vol, spot: 100 }\n"
      "  instrument: { type: european, option: call, strike: 110, maturity: 1.5 }\n  steps: 18\n  greeks: [buckets]\n",
      // Merton's and Bates's jumps, and Merton on market curves.
      "  process: { type: gbm, spot: 100, rate: 0.04, dividend: 0.01, volatility: 0.18,\n"
      "             jumps: { intensity: 0.8, mean: -0.1, vol: 0.15 } }\n"
      "  instrument: { type: european, option: put, strike: 90, maturity: 1.5 }\n  variance_reduction: [antithetic]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: 0.25, jumps: { intensity: 2, mean: -0.05, vol: 0.1 } }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 40, option: call, strike: 100, maturity: 1,"
      " barrier: 70, kind: down-and-out }\n",
      "  process: { type: heston, spot: 100, rate: 0.03, v0: 0.04, kappa: 2, theta: 0.05, xi: 0.4, rho: -0.6,\n"
      "             jumps: { intensity: 0.5, mean: -0.12, vol: 0.1 } }\n"
      "  instrument: { type: european, option: call, strike: 105, maturity: 1 }\n  steps: 40\n"
      "  variance_reduction: [antithetic]\n",
      // A forward start, and a cliquet with local and global bounds on market curves.
      gbm + "  instrument: { type: forward_start, option: put, moneyness: 0.95, start: 0.4, maturity: 1.2 }\n"
      "  variance_reduction: [antithetic]\n",
      curves + "  process: { type: gbm, spot: 100, volatility: 0.2 }\n"
      "  instrument: { type: cliquet, resets: 8, maturity: 2, local_floor: -0.02, local_cap: 0.04, global_floor: 0,"
      " global_cap: 0.15 }\n",
      // Cash dividends: ex-dates between fixings and on one, a continuous barrier
      // checked after the drop, a cliquet's returns across an ex-date.
      cash + gbm + "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1,"
      " barrier: 80, kind: down-and-out }\n  variance_reduction: [antithetic]\n",
      cash + gbm + "  instrument: { type: barrier, option: call, strike: 100, maturity: 1, barrier: 85, kind: down-and-out,"
      " monitoring: continuous }\n",
      cash + gbm + "  instrument: { type: lookback, strike_type: floating, option: put, maturity: 1, monitoring: continuous }\n"
      "  steps: 10\n",
      cash + gbm + "  instrument: { type: cliquet, resets: 4, maturity: 1, local_floor: 0, local_cap: 0.05 }\n",
      cash + gbm + "  instrument: { type: digital, option: put, strike: 95, maturity: 1, cash: 10 }\n",
  };
  for (const char* precision : {"float", "double"})
    for (const auto& inst : instruments) {
      INFO(precision << "\n" << inst);
      // Sobol point sets are whole chunks: 32 of them.
      const bool sobol = inst.find("sobol") != std::string::npos;
      std::vector<std::string> sets{std::string("run.precision=") + precision};
      if (sobol) sets.push_back("run.paths=131072");
      const bool exercise = inst.find("bermudan") != std::string::npos || inst.find("american") != std::string::npos;
      // A bridged extreme's buckets take the tangents of the step where it was reached:
      // in float two steps' extremes may tie to rounding, and each backend's log picks
      // its own, as an exercise date may flip.
      const bool bridged = inst.find("lookback") != std::string::npos && inst.find("continuous") != std::string::npos &&
                           inst.find("buckets") != std::string::npos;
      agree_on_cpu_and_gpu(base + inst, sets, sobol, (exercise || bridged) && std::string(precision) == "float" ? 4 : 0);
    }
}

TEST_CASE("Hull-White bonds caps and European and Bermudan swaptions agree on CPU and GPU", "[gpu][rates]") {
  if (!have_gpu()) return;
  const std::string base =
      "run: { name: t, paths: 200_003, seed: 14, chunk_paths: 4096 }\nmodel:\n  type: rates\n"
      "  market: { discount: { times: [0.5, 1, 2, 5, 10], zero_rates: [0.02, 0.024, 0.028, 0.035, 0.04] } }\n"
      "  short_rate: { model: hull_white, a: 0.08, sigma: 0.012 }\n";
  for (const char* precision : {"float", "double"})
    for (const char* product : {"{ type: zero_coupon_bond, maturity: 7 }",
                                "{ type: cap, strike: 0.03, start: 1, maturity: 4, period: 0.25 }",
                                "{ type: swaption, position: receiver, strike: 0.03, start: 2, maturity: 7, period: 1 }",
                                "{ type: bermudan_swaption, position: payer, strike: 0.035, start: 1, maturity: 6, period: 0.5 }"}) {
      INFO(precision << " " << product);
      agree_on_cpu_and_gpu(base + "  product: " + product + "\n  variance_reduction: [antithetic]\n",
                           {std::string("run.precision=") + precision}, false);
    }
}

TEST_CASE("stocks beside a Hull-White rate and autocallables agree on CPU and GPU", "[gpu][hybrid]") {
  if (!have_gpu()) return;
  const std::string base =
      "run: { name: t, paths: 100_003, seed: 16, chunk_paths: 4096 }\nmodel:\n  type: option\n"
      "  market: { discount: { times: [0.5, 1, 2, 5], zero_rates: [0.02, 0.03, 0.04, 0.045] } }\n";
  const std::string gbm = "  process: { type: gbm, spot: 100, dividend: 0.01, volatility: 0.2, short_rate: { a: 0.05, "
                          "sigma: 0.012, correlation: 0.3 } }\n";
  const std::string heston = "  process: { type: heston, spot: 100, rate: 0.03, v0: 0.04, kappa: 1.5, theta: 0.04, xi: 0.5, "
                             "rho: -0.7, short_rate: { a: 0.05, sigma: 0.01, correlation: 0.2 } }\n  steps: 120\n";
  const std::string autocall = "  instrument: { type: autocallable, initial_spot: 100, maturity: 3, observations: 12, coupon: 0.02, "
                               "autocall_barrier: 1, coupon_barrier: 0.7, knock_in: 0.6, memory: true }\n";
  const std::string european = "  instrument: { type: european, option: call, strike: 105, maturity: 4 }\n";
  for (const char* precision : {"float", "double"})
    for (const std::string& job : {base + gbm + european, base + gbm + autocall + "  variance_reduction: [antithetic]\n",
                                   std::string("run: { name: t, paths: 100_003, seed: 17, chunk_paths: 4096 }\nmodel:\n"
                                               "  type: option\n") + heston + autocall})
      for (const char* greeks : {"null", "[delta, gamma]"}) {  // the likelihood ratio's scores too
        INFO(precision << " greeks " << greeks << "\n" << job);
        const bool flt = std::string(precision) == "float", scored = std::string(greeks) != "null";
        agree_on_cpu_and_gpu(job, {std::string("run.precision=") + precision, std::string("model.greeks=") + greeks}, false,
                             flt && scored ? 4 : 0);
      }
}
