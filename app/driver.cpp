#include "app/driver.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "app/version.hpp"
#include "reduce/tree.hpp"

namespace mcsim {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::vector<std::string> tally_layout(const std::vector<std::string>& outputs) {
  std::vector<std::string> names;
  for (const auto& o : outputs) {
    names.push_back(o + ".count");
    names.push_back(o + ".sum");
    names.push_back(o + ".sum_sq");
  }
  return names;
}

}  // namespace

std::unique_ptr<Backend> choose_backend(io::BackendChoice choice) {
  if (choice == io::BackendChoice::Cpu) return make_cpu_backend();
  std::string why;
  auto cuda = make_cuda_backend(&why);
  if (cuda) return cuda;
  if (choice == io::BackendChoice::Cuda)
    throw std::runtime_error("backend cuda was requested but is not usable: " + why);
  return make_cpu_backend();
}

io::Results run_job(const io::Job& job, const RunOptions& options) {
  const auto t_start = Clock::now();
  const io::RunConfig& run = job.run;
  auto backend = choose_backend(options.backend.value_or(run.backend));
  const PathKernel kernel = job.model->kernel(run.precision);
  const std::size_t width = tally_width(kernel);
  const std::uint64_t chunks = (run.paths + run.chunk_paths - 1) / run.chunk_paths;
  const ChunkGeometry geo{run.paths, run.chunk_paths, run.seed};
  const double setup_s = since(t_start);

  const auto t_sim = Clock::now();
  std::vector<double> partials(chunks * width);
  {
    Progress progress(run.paths, options.progress);
    backend->run(kernel, geo, 0, chunks, partials.data(), &progress);
  }
  const double simulate_s = since(t_sim);

  const auto t_reduce = Clock::now();
  const reduce::Tally total = reduce::tree_sum(partials, width);
  io::ScenarioResult scenario;
  scenario.estimates = reduce::estimates(total, job.model->outputs());
  scenario.references = job.model->references();
  scenario.tally_layout = tally_layout(job.model->outputs());
  scenario.chunk_tallies = std::move(partials);
  const double reduce_s = since(t_reduce);

  io::Results r;
  r.mcsim_version = kVersion;
  r.git_sha = kGitSha;
  r.created = now_iso8601();
  r.command_line = options.command_line;
  r.config = job.yaml;
  r.backend = backend->name();
  r.precision = io::to_string(run.precision);
  r.seed = run.seed;
  r.paths = run.paths;
  r.chunk_paths = run.chunk_paths;
  r.ranks = 1;
  r.devices = backend->devices();
  r.scenarios.push_back(std::move(scenario));
  for (const auto& d : backend->timings()) r.device_times.push_back({d.device, d.seconds, d.kernel_ms, d.paths});
  r.stage_seconds = {{"setup", setup_s}, {"simulate", simulate_s}, {"reduce", reduce_s}};
  r.wall_s = since(t_start);
  r.paths_per_s = simulate_s > 0 ? static_cast<double>(run.paths) / simulate_s : 0.0;
  return r;
}

std::string format_estimates(const io::ScenarioResult& s) {
  std::string out = fmt::format("  {:<10} {:>16} {:>12} {:>29} {:>12} {:>16} {:>7}\n", "estimate",
                                "value", "std error", "95% interval", "samples", "reference", "z");
  for (const auto& e : s.estimates) {
    std::string ref = "", z = "";
    for (const auto& r : s.references) {
      if (r.name != e.name) continue;
      ref = fmt::format("{:.10g}", r.value);
      z = fmt::format("{:+.2f}", (e.value - r.value) / e.std_error);
    }
    out += fmt::format("  {:<10} {:>16.10g} {:>12.4g} [{:>13.8g}, {:>13.8g}] {:>12} {:>16} {:>7}\n",
                       e.name, e.value, e.std_error, e.ci_low, e.ci_high, e.samples, ref, z);
  }
  return out;
}

}  // namespace mcsim
