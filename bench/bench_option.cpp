// Option-pricing kernel throughput on one device: a named job, float paths, the
// median of several timed runs after a warm-up, printed next to the target.
// GPU figures are CUDA-event times of the chunk kernels including their CUB block
// reduction; the dyadic chunk tree runs on the host.
//   bench_option european      cuda [paths = 2^28]    [runs = 9]
//   bench_option european      cpu  [paths = 2^24]    [runs = 5]   (one thread: OMP_NUM_THREADS=1)
//   bench_option asian-barrier cuda [paths = 8192000] [runs = 9]
//   bench_option asian | asian-greeks | asian-cv | asian-sobol | asian-sobol-cv | asian-local-vol | asian-term |
//                autocallable-heston-hw | basket | basket-greeks | american
//   (no targets: figures for the record). Sobol paths must be whole point sets: a
//   multiple of 8 chunks of 2^m >= 1024 paths. Sobol errors fall faster than
//   1 / sqrt(paths), so their "time for 1e-4" line is only an estimate; run them at
//   the paths that reach 1e-4.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/exec/option/executor.hpp"
#include "app/mcsim.hpp"
#include "reduce/tree.hpp"

using namespace mcsim;

namespace {

struct BenchJob {
  std::string name, model;
  std::uint64_t gpu_paths, cpu_paths, steps;
  std::string gpu_target, cpu_target;
  double gpu_target_ms;  // kernel + tree must be at most this
};

const BenchJob kJobs[] = {
    {"european",
     "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
     "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n",
     std::uint64_t{1} << 28, std::uint64_t{1} << 24, 1, "<= 0.72 ms for 2^28 paths (>= 3.7e11 paths/s)",
     ">= 5e7 paths/s on one thread", 0.72},
    {"asian-barrier",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110,\n"
     "                maturity: 1, barrier: 100, kind: down-and-out }\n",
     8'192'000, 262'144, 365, "<= 6.8 ms for 8,192,000 paths (>= 4.4e11 path-steps/s)",
     ">= 5e7 path-steps/s on one thread", 6.8},
    // No targets set: figures for the record.
    // The arithmetic Asian of the benchmark job without its barrier, plain and with
    // the geometric control: compare their "time for 1e-4" lines.
    {"asian",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n",
     8'192'000, 262'144, 365, "none set", "none set", 0},
    // The same with delta, gamma, vega, rho and dividend rho scored on each path:
    // against "asian" (bump and revalue would take 9 runs of it).
    {"asian-greeks",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n"
     "  greeks: [delta, gamma, vega, rho, dividend_rho]\n",
     8'192'000, 262'144, 365, "<= 4x asian's time (all five Greeks)", "<= 4x asian's time", 0},
    {"asian-cv",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n"
     "  variance_reduction: [control_variate]\n",
     8'192'000, 262'144, 365, "none set", "none set", 0},
    // Scrambled Sobol points through the Brownian bridge, alone and with the control.
    {"asian-sobol",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n"
     "  variance_reduction: [sobol]\n",
     std::uint64_t{1} << 22, std::uint64_t{1} << 18, 365, "none set", "none set", 0},
    {"asian-sobol-cv",
     "  process: { type: gbm, spot: 120, rate: 0.05, volatility: 0.35 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n"
     "  variance_reduction: [sobol, control_variate]\n",
     std::uint64_t{1} << 15, std::uint64_t{1} << 15, 365, "none set", "none set", 0},
    // The arithmetic Asian under Dupire's local volatility from a skewed surface, and
    // under GBM with market curves and a volatility term structure: against "asian"
    // (GBM, flat), measured on the same device one after the other.
    {"asian-local-vol",
     "  market:\n    vol_surface: { expiries: [0.25, 0.5, 1, 2], strikes: [80, 100, 120, 140, 160],\n"
     "      vols: [[0.45, 0.4, 0.35, 0.33, 0.32], [0.44, 0.39, 0.35, 0.33, 0.32], [0.43, 0.385, 0.35, 0.335, 0.325],\n"
     "             [0.42, 0.38, 0.35, 0.335, 0.325]] }\n"
     "  process: { type: local_vol, spot: 120, rate: 0.05 }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n",
     8'192'000, 262'144, 365, "<= 1.5x the time of asian (GBM) on the same GPU", "none set", 0},
    {"asian-term",
     "  market:\n    discount: { times: [0.25, 0.5, 1, 2], zero_rates: [0.04, 0.045, 0.05, 0.052] }\n"
     "    dividends: [{ time: 0.5, proportional: 0.01 }]\n"
     "  process: { type: gbm, spot: 120, volatility: { times: [0.25, 0.5, 1], values: [0.4, 0.37, 0.35] } }\n"
     "  instrument: { type: asian, average: arithmetic, fixings: 365, option: call, strike: 110, maturity: 1 }\n",
     8'192'000, 262'144, 365, "none set", "none set", 0},
    // The 3-year quarterly autocallable of configs/autocallable.yaml under
    // Heston-Hull-White, 250 QE steps a path (four normals a step).
    {"autocallable-heston-hw",
     "  process: { type: heston, spot: 100, rate: 0.03, dividend: 0.01, v0: 0.04, kappa: 1.5, theta: 0.04, xi: 0.5,\n"
     "             rho: -0.7, short_rate: { a: 0.05, sigma: 0.01, correlation: 0.2 } }\n"
     "  instrument: { type: autocallable, initial_spot: 100, maturity: 3, observations: 12, coupon: 0.02, autocall_barrier: 1,\n"
     "                coupon_barrier: 0.7, knock_in: 0.6, memory: true }\n  steps: 250\n",
     8'192'000, 65'536, 252, "none set", "none set", 0},
    {"basket",
     "  process:\n    rate: 0.03\n    assets: [{ name: A, spot: 100, volatility: 0.25 }, { name: B, spot: 95, volatility: 0.3 },\n"
     "             { name: C, spot: 110, volatility: 0.2 }, { name: D, spot: 105, volatility: 0.35 }]\n"
     "    correlation: [[1, 0.5, 0.3, 0.2], [0.5, 1, 0.4, 0.1], [0.3, 0.4, 1, 0.25], [0.2, 0.1, 0.25, 1]]\n"
     "  instrument: { type: basket, payoff: average, option: call, strike: 100, maturity: 1 }\n",
     std::uint64_t{1} << 26, std::uint64_t{1} << 20, 4, "none set", "none set", 0},
    // The same basket scoring every asset's delta, gamma, vega and dividend rho, the
    // rho and the six correlation sensitivities on each path: against "basket" (bump
    // and revalue would take 38 runs of it).
    {"basket-greeks",
     "  process:\n    rate: 0.03\n    assets: [{ name: A, spot: 100, volatility: 0.25 }, { name: B, spot: 95, volatility: 0.3 },\n"
     "             { name: C, spot: 110, volatility: 0.2 }, { name: D, spot: 105, volatility: 0.35 }]\n"
     "    correlation: [[1, 0.5, 0.3, 0.2], [0.5, 1, 0.4, 0.1], [0.3, 0.4, 1, 0.25], [0.2, 0.1, 0.25, 1]]\n"
     "  instrument: { type: basket, payoff: average, option: call, strike: 100, maturity: 1 }\n"
     "  greeks: [delta, gamma, vega, rho, dividend_rho, correlation]\n",
     std::uint64_t{1} << 26, std::uint64_t{1} << 20, 4, "<= 4x basket's time (all 23 Greeks)", "<= 4x basket's time", 0},
    {"american",
     "  process: { type: gbm, spot: 36, rate: 0.06, volatility: 0.2 }\n"
     "  instrument: { type: bermudan, exercise_dates: 50, option: put, strike: 40, maturity: 1 }\n",
     std::uint64_t{1} << 24, std::uint64_t{1} << 18, 50, "none set", "none set", 0},
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "european";
  const std::string which = argc > 2 ? argv[2] : "cuda";
  const BenchJob* bj = nullptr;
  for (const auto& j : kJobs)
    if (j.name == name) bj = &j;
  if (!bj) {
    fmt::print("bench_option: no job '{}' (european, asian-barrier, asian, asian-greeks, asian-cv, asian-sobol, asian-sobol-cv, "
               "asian-local-vol, asian-term, autocallable-heston-hw, basket, basket-greeks, american)\n", name);
    return 1;
  }
  const std::uint64_t paths =
      argc > 3 ? std::strtoull(argv[3], nullptr, 0) : (which == "cpu" ? bj->cpu_paths : bj->gpu_paths);
  const int runs = argc > 4 ? std::atoi(argv[4]) : (which == "cpu" ? 5 : 9);

  // The job's setup, timed apart: parsing, market checks, a Dupire grid's build.
  const auto setup_start = std::chrono::steady_clock::now();
  const io::Job job = parse_job("run: { paths: " + std::to_string(paths) + ", seed: 1, precision: float }\nmodel:\n  type: option\n" +
                                    bj->model,
                                "bench");
  fmt::print("setup (config, market data, local-volatility grid): {:.2f} ms\n",
             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_start).count());
  std::string why;
  if (which != "cpu" && cuda_device_count(&why) == 0) {
    fmt::print("bench_option: no {} backend: {}\n", which, why);
    return 1;
  }
  const std::unique_ptr<Device> device =
      which == "cpu" ? make_cpu_device() : std::make_unique<Device>(DeviceKind::Cuda, 0, cuda_device_name(0));
  OptionExecutor& executor = device->executor<OptionExecutor>();
  const PathKernel kernel = job.model->kernel({Precision::Float, job.run.seed, job.run.chunk_paths});
  const std::size_t width = tally_width(kernel);
  const ChunkGeometry geo{paths, job.run.chunk_paths, job.run.seed};
  const std::uint64_t chunks = (paths + geo.chunk_paths - 1) / geo.chunk_paths;
  std::vector<double> partials(chunks * width);

  std::vector<double> kernel_ms, reduce_ms, wall_ms;
  reduce::Tally total;
  for (int i = 0; i <= runs; ++i) {  // run 0 is the warm-up
    const double k0 = device->timing().kernel_ms;
    const auto t0 = std::chrono::steady_clock::now();
    executor.run(kernel, geo, 0, chunks, partials.data(), nullptr);
    for (std::uint64_t c = 0; c < chunks; ++c) add_chunk_samples(kernel, &partials[c * width]);
    const auto t1 = std::chrono::steady_clock::now();
    total = reduce::tree_sum(partials, width);
    const auto t2 = std::chrono::steady_clock::now();
    if (i == 0) continue;
    kernel_ms.push_back(device->timing().kernel_ms - k0);
    wall_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    reduce_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  const double wall = median(wall_ms), tree = median(reduce_ms);
  const double path_steps = static_cast<double>(paths) * static_cast<double>(bj->steps);
  fmt::print("device      {}\n", device->name());
  const reduce::Estimate price = job.model->summarise(total).estimates.front();
  fmt::print("job         {}, float, {} paths x {} steps, {} chunks of {}, price {:.6f} +- {:.3g}\n", bj->name, paths,
             bj->steps, chunks, geo.chunk_paths, price.value, price.std_error);
  // Errors fall as 1 / sqrt(paths): the paths, and time at this rate, for a 1e-4 relative error.
  const double rel = price.std_error / std::fabs(price.value), needed = paths * (rel / 1e-4) * (rel / 1e-4);
  if (which == "cpu") {
    const double rate = paths / (wall * 1e-3);
    fmt::print("cpu         {} threads, median of {}: {:.1f} ms, {:.3g} paths/s, {:.3g} path-steps/s "
               "({:.3g} paths/s per thread; target {})\n",
               omp_get_max_threads(), runs, wall, rate, rate * bj->steps, rate / omp_get_max_threads(),
               bj->cpu_target);
    fmt::print("time for 1e-4 relative error: {:.3g} paths, {:.3g} s\n", needed, needed / rate);
  } else {
    const double k = median(kernel_ms);
    fmt::print("gpu kernel  median of {} (CUDA events, kernel + in-block reduction): {:.3f} ms, {:.3g} paths/s, "
               "{:.3g} path-steps/s\n",
               runs, k, paths / (k * 1e-3), path_steps / (k * 1e-3));
    fmt::print("chunk tree  {:.3f} ms on the host; kernel + tree {:.3f} ms (target {}): {}\n", tree, k + tree,
               bj->gpu_target, bj->gpu_target_ms <= 0 ? "-" : k + tree <= bj->gpu_target_ms ? "met" : "NOT met");
    fmt::print("wall        {:.3f} ms per run including the copy of chunk partials\n", wall);
    fmt::print("time for 1e-4 relative error: {:.3g} paths, {:.3g} ms of kernel + tree\n", needed,
               (k + tree) * needed / static_cast<double>(paths));
  }
  return 0;
}
