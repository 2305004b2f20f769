// Scale-out benchmark: the European call job of bench_option through the whole
// driver (devices, ranks, reduction, MPI combine), then the HDF5 write and one
// checkpoint. Prints medians of several runs after a warm-up. Compare device and
// rank counts by running it several ways:
//   bench_scale [log2 paths = 34] [runs = 5] [cuda|cpu]
//   CUDA_VISIBLE_DEVICES=0 bench_scale 41        # one GPU
//   bench_scale 41                                # every GPU of the node
//   mpirun -np 2 bench_scale 41                   # one rank per GPU
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "io/checkpoint.hpp"
#include "reduce/partial.hpp"
#include "reduce/mpi.hpp"

using namespace mcsim;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
double stage(const io::Results& r, const std::string& name) {
  for (const auto& [n, s] : r.stage_seconds)
    if (n == name) return s;
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  mpi::init(&argc, &argv);
  const int log2_paths = argc > 1 ? std::atoi(argv[1]) : 34;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::string which = argc > 3 ? argv[3] : "cuda";
  const std::uint64_t paths = std::uint64_t{1} << log2_paths;
  const io::Job job = io::load_job_text(
      "run: { name: scale, paths: " + std::to_string(paths) + ", seed: 1, precision: float }\n"
      "model:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n",
      "bench");
  RunOptions opt;
  opt.backend = which == "cpu" ? io::BackendChoice::Cpu : io::BackendChoice::Cuda;
  opt.progress = false;
  const std::string file = (std::filesystem::temp_directory_path() / "mcsim-bench-scale.h5").string();

  std::vector<double> wall, sim, red, write, ckpt;
  io::Results r;
  for (int i = 0; i <= runs; ++i) {  // run 0 is the warm-up
    r = run_job(job, opt);
    if (!mpi::master()) continue;
    const auto t0 = Clock::now();
    io::write_results(file, r, true);
    const double w = since(t0);
    // A checkpoint of every chunk, packed as an option run packs it: the most one
    // rank ever writes.
    const auto t1 = Clock::now();
    io::Checkpoint c;
    const auto& tallies = r.scenarios.front().chunk_tallies;
    const std::uint64_t width = r.scenarios.front().tally_layout.size();
    for (std::uint64_t k = 0; k < tallies.size() / width; ++k) c.done.push_back(k);
    c.chunks = c.done.size();
    c.layout = "option.chunks";
    reduce::Packer out({"option.chunks", 1});
    out.put(width), out.put(c.done), out.put(tallies);
    c.partial = out.take();
    io::write_checkpoint(file + ".ckpt", c);
    const double ck = since(t1);
    if (i == 0) continue;
    wall.push_back(r.wall_s);
    sim.push_back(stage(r, "simulate"));
    red.push_back(stage(r, "reduce"));
    write.push_back(w);
    ckpt.push_back(ck);
  }
  if (mpi::master()) {
    std::filesystem::remove(file);
    std::filesystem::remove(file + ".ckpt");
    const double w = median(wall), s = median(sim), rd = median(red), wr = median(write), ck = median(ckpt);
    fmt::print("job         European call, float, 2^{} paths, {} chunks of {}, {} rank(s), devices: {}\n",
               log2_paths, r.scenarios.front().chunk_tallies.size() / 3, r.chunk_paths, r.ranks,
               fmt::join(r.devices, "; "));
    fmt::print("run         median of {}: wall {:.4f} s, simulate {:.4f} s, {:.4g} paths/s\n", runs, w, s, paths / s);
    fmt::print("overhead    reduce + MPI combine {:.3f} ms, HDF5 write {:.3f} ms: {:.3f}% of the run's wall time "
               "(+ write) (target < 1%)\n",
               rd * 1e3, wr * 1e3, 100 * (rd + wr) / (w + wr));
    fmt::print("checkpoint  one full checkpoint {:.3f} ms: {:.4f}% of the default 60 s interval (target < 1%)\n",
               ck * 1e3, 100 * ck / 60.0);
  }
  mpi::finalize();
  return 0;
}
