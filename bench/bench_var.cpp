// Portfolio-risk throughput: a var job file (scripts/var_portfolio.py writes them)
// run whole, both passes and the contributions, `runs` times after a warm-up; the
// median time next to the target. Option revaluations count every option
// in every scenario of every pass.
//   bench_var JOB.yaml cuda [scenarios = run.paths] [runs = 5] [float | double = run.precision]
//   bench_var JOB.yaml cpu  [scenarios] [runs] [precision]  (one thread: OMP_NUM_THREADS=1)
// (a historical job takes its scenarios from its history: give no scenarios, or `-`).
// Also the median time to read the job, its positions and history files included.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "job_args.hpp"
#include "models/var/var_model.hpp"

using namespace mcsim;

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: bench_var JOB.yaml cuda|cpu [scenarios] [runs]\n");
    return 2;
  }
  const JobArgs args = job_args(argc, argv);
  const io::Job& job = args.job;
  const RunOptions& opt = args.options;
  const std::string& file = args.file;
  const std::string& backend = args.backend;
  const int runs = args.runs;
  const auto* model = dynamic_cast<const var::VarModel*>(job.model.get());
  if (!model) {
    fmt::print(stderr, "{} is not a var job\n", file);
    return 2;
  }
  std::uint64_t options = 0;
  for (const auto& p : model->spec().portfolio)
    options += var::is_option(p.instrument) ? 1 : 0;

  // Reading the job: its positions and history files included.
  std::vector<double> loads;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const io::Job again = io::load_job_file(file, args.sets);
    loads.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(loads.begin(), loads.end());

  run_job(job, opt);  // warm-up: device start, portfolio upload
  std::vector<double> seconds, kernel_ms;
  double passes = 0;
  io::Results last;
  for (int i = 0; i < runs; ++i) {
    last = run_job(job, opt);
    double simulate = 0, ms = 0;
    for (const auto& [stage, s] : last.stage_seconds)
      if (stage == "simulate") simulate = s;
    for (const auto& d : last.device_times) ms += d.kernel_ms;
    seconds.push_back(simulate);
    kernel_ms.push_back(ms);
    for (const auto& [name, v] : last.scenarios.front().diagnostics)
      if (name == "histogram_passes") passes = v + 1;
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(kernel_ms.begin(), kernel_ms.end());
  const double t = seconds[seconds.size() / 2];
  const double n = static_cast<double>(job.run.paths);
  fmt::print("bench_var {} on {} [{}], {}: {} scenarios, {} assets, {} positions ({} options), {} passes\n", file,
             last.backend, fmt::join(last.devices, "; "), last.precision, job.run.paths, model->spec().assets.size(),
             model->spec().portfolio.size(), options, passes);
  fmt::print("  median of {} runs: {:.3f} s (kernels {:.3f} s), {:.3g} scenarios/s, {:.3g} option revaluations/s\n",
             runs, t, kernel_ms[kernel_ms.size() / 2] / 1e3, n / t, passes * n * static_cast<double>(options) / t);
  fmt::print("  load (config and its files): median {:.3f} s for {} positions; target: 100,000 positions in seconds\n",
             loads[loads.size() / 2], model->spec().portfolio.size());
  const bool in_float = last.precision == "float";
  fmt::print("  target: {}\n", backend != "cuda" ? ">= 2e7 option revaluations/s on one thread"
                                 : in_float ? "1e8 scenarios x 1,000 options, both passes, <= 1.0 s in float (>= 1e11 option revaluations/s)"
                                            : "1e8 scenarios x 1,000 options, both passes, <= 2 s in double (>= 5e10 option revaluations/s)");
  for (const auto& e : last.scenarios.front().estimates)
    if (e.name.find('.') == std::string::npos) fmt::print("  {:<10} {:.8g} +- {:.3g}\n", e.name, e.value, e.std_error);
  return 0;
}
