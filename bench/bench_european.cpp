// European call throughput: the job of the foundation issue (GBM, S0=K=100, r=5%,
// sigma=20%, T=1), float paths. Prints the median of several timed runs after a
// warm-up, next to the target.
//   bench_european cuda [log2 paths = 28] [runs = 7]
//   bench_european cpu  [log2 paths = 24] [runs = 5]   (one thread: OMP_NUM_THREADS=1)
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/driver.hpp"
#include "reduce/tree.hpp"

using namespace mcsim;

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "cuda";
  const int log2_paths = argc > 2 ? std::atoi(argv[2]) : (which == "cpu" ? 24 : 28);
  const int runs = argc > 3 ? std::atoi(argv[3]) : 7;
  const std::uint64_t paths = 1ULL << log2_paths;

  const io::Job job = io::load_job_text(
      "run: { paths: " + std::to_string(paths) + ", seed: 1, precision: float }\n"
      "model:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n",
      "bench");
  std::string why;
  std::unique_ptr<Backend> backend = which == "cpu" ? make_cpu_backend() : make_cuda_backend(&why);
  if (!backend) {
    fmt::print("bench_european: no {} backend: {}\n", which, why);
    return 1;
  }
  const PathKernel kernel = job.model->kernel(Precision::Float);
  const std::size_t width = tally_width(kernel);
  const ChunkGeometry geo{paths, job.run.chunk_paths, job.run.seed};
  const std::uint64_t chunks = (paths + geo.chunk_paths - 1) / geo.chunk_paths;
  std::vector<double> partials(chunks * width);

  std::vector<double> kernel_ms, reduce_ms, wall_ms;
  double price = 0;
  for (int i = 0; i <= runs; ++i) {  // run 0 is the warm-up
    const double k0 = backend->timings().front().kernel_ms;
    const auto t0 = std::chrono::steady_clock::now();
    backend->run(kernel, geo, 0, chunks, partials.data(), nullptr);
    const auto t1 = std::chrono::steady_clock::now();
    const reduce::Tally total = reduce::tree_sum(partials, width);
    const auto t2 = std::chrono::steady_clock::now();
    price = total[1] / total[0];
    if (i == 0) continue;
    kernel_ms.push_back(backend->timings().front().kernel_ms - k0);
    wall_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    reduce_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  const double wall = median(wall_ms), tree = median(reduce_ms);
  fmt::print("device      {}\n", backend->devices().front());
  fmt::print("job         European call, float, 2^{} = {} paths, {} chunks of {}, price {:.6f}\n",
             log2_paths, paths, chunks, geo.chunk_paths, price);
  if (which == "cpu") {
    const double rate = paths / (wall * 1e-3);
    fmt::print("cpu         {} threads, median of {}: {:.1f} ms, {:.3g} paths/s ({:.3g} paths/s per thread; target >= 5e7 on one thread)\n",
               omp_get_max_threads(), runs, wall, rate, rate / omp_get_max_threads());
  } else {
    const double k = median(kernel_ms);
    fmt::print("gpu kernel  median of {} (CUDA events, kernel + in-block reduction): {:.3f} ms, {:.3g} paths/s\n",
               runs, k, paths / (k * 1e-3));
    fmt::print("chunk tree  {:.3f} ms on the host; kernel + tree {:.3f} ms (target <= 0.72 ms, >= 3.7e11 paths/s)\n",
               tree, k + tree);
    fmt::print("wall        {:.3f} ms per run including the copy of chunk partials\n", wall);
  }
  return 0;
}
