// Particle-transport throughput: a transport job file run whole, `runs` times after
// a warm-up; the median time, histories, collisions and segments (flights) per
// second next to the target. Eigenvalue runs count every generation, fission-bank
// handling included.
//   bench_transport JOB.yaml cuda|cpu [histories = run.paths] [runs = 5] [float | double = run.precision]
//   (the CPU target is for one thread: OMP_NUM_THREADS=1)
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "job_args.hpp"
#include "models/transport/transport_model.hpp"

using namespace mcsim;

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: bench_transport JOB.yaml cuda|cpu [histories] [runs] [float|double]\n");
    return 2;
  }
  const JobArgs args = job_args(argc, argv);
  const io::Job& job = args.job;
  const RunOptions& opt = args.options;
  const std::string& file = args.file;
  const std::string& backend = args.backend;
  const int runs = args.runs;
  const auto* model = dynamic_cast<const transport::TransportModel*>(job.model.get());
  if (!model) {
    fmt::print(stderr, "{} is not a transport job\n", file);
    return 2;
  }

  run_job(job, opt);  // warm-up: device start, cross-section upload
  std::vector<double> seconds, rates, segment_rates, kernel_ms, in_backends;
  io::Results last;
  for (int i = 0; i < runs; ++i) {
    last = run_job(job, opt);
    for (const auto& [stage, s] : last.stage_seconds) {
      if (stage == "simulate") seconds.push_back(s);
      if (stage == "histories") in_backends.push_back(s);
    }
    for (const auto& [name, v] : last.scenarios.front().diagnostics)
      if (name == "collisions_per_s") rates.push_back(v);
      else if (name == "segments_per_s") segment_rates.push_back(v);
    double ms = 0;
    for (const auto& d : last.device_times) ms += d.kernel_ms;
    kernel_ms.push_back(ms);
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(rates.begin(), rates.end());
  std::sort(segment_rates.begin(), segment_rates.end());
  std::sort(kernel_ms.begin(), kernel_ms.end());
  std::sort(in_backends.begin(), in_backends.end());
  const double t = seconds[seconds.size() / 2], rate = rates[rates.size() / 2];
  double per_history = 0, segments = 0;
  for (const auto& [name, v] : last.scenarios.front().diagnostics) {
    if (name == "collisions_per_history") per_history = v;
    if (name == "segments_per_history") segments = v;
  }
  const bool eigen = model->spec().eigenvalue;
  fmt::print("bench_transport {} on {} [{}], {}: {} ({} histories{}, {:.3g} collisions and {:.3g} segments each)\n", file,
             last.backend, fmt::join(last.devices, "; "), last.precision, model->describe(), last.paths,
             eigen ? fmt::format(", {} a generation", job.run.paths) : "", per_history, segments);
  fmt::print("  median of {} runs: {:.3f} s (in the backends {:.3f} s, of it kernels {:.3f} s), {:.3g} histories/s, "
             "{:.3g} collisions/s, {:.3g} segments/s\n",
             runs, t, in_backends[in_backends.size() / 2], kernel_ms[kernel_ms.size() / 2] / 1e3,
             static_cast<double>(last.paths) / t, rate, segment_rates[segment_rates.size() / 2]);
  const bool csg = model->spec().geometry.csg != nullptr;
  fmt::print("  target: {}\n", backend == "cpu" ? ">= 2e7 collisions/s on one thread (fixed source)"
                               : csg            ? ">= 2e7 histories/s on one H200 in float (C5G7 eigenvalue)"
                               : eigen          ? ">= 3e9 collisions/s on one H200 (eigenvalue, PUa slab)"
                                                : ">= 2e10 collisions/s on one H200 (fixed source, 10-mfp slab)");
  for (const auto& e : last.scenarios.front().estimates) fmt::print("  {:<14} {:.8g} +- {:.3g}\n", e.name, e.value, e.std_error);
  return 0;
}
