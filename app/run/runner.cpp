#include "app/run/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include "app/exec/trace.hpp"
#include "app/run/families.hpp"
#include "app/run/plan.hpp"
#include "app/run/signals.hpp"
#include "app/version.hpp"
#include "io/checkpoint.hpp"
#include "reduce/mpi.hpp"

namespace mcsim {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Every scenario's estimates minus the base scenario's, by name.
void add_differences(io::Results& r) {
  const io::ScenarioResult& base = r.scenarios.front();
  for (std::size_t i = 1; i < r.scenarios.size(); ++i) {
    io::ScenarioResult& s = r.scenarios[i];
    const auto& weights = s.batches.weights == base.batches.weights ? s.batches.weights : std::vector<double>{};
    for (const reduce::Estimate& e : s.estimates)
      for (const reduce::Estimate& b : base.estimates) {
        if (b.name != e.name) continue;
        const auto values = [](const io::ScenarioResult& x, const std::string& name) {
          const auto found = x.batches.values.find(name);
          return found == x.batches.values.end() ? std::vector<double>{} : found->second;
        };
        reduce::Difference d = reduce::paired_difference(e, b, values(s, e.name), values(base, e.name), weights);
        // VaR and ES have no batches; their tails pair them.
        for (const reduce::Tail& ta : s.tails)
          for (const reduce::Tail& tb : base.tails)
            if (ta.var_name == tb.var_name && (e.name == ta.var_name || e.name == ta.es_name)) {
              const reduce::TailCorrelation c = reduce::tail_correlation(ta, tb);
              d = reduce::correlated_difference(e, b, e.name == ta.var_name ? c.var : c.es);
            }
        for (const Reference& x : s.references)
          for (const Reference& y : base.references)
            if (x.name == e.name && y.name == e.name && x.tolerance == 0 && y.tolerance == 0) d.reference = x.value - y.value;
        s.differences.push_back(d);
      }
  }
}

// Adds seconds to a stage, appending stages not seen yet.
void add_stage(std::vector<std::pair<std::string, double>>& stages, const std::string& name, double s) {
  for (auto& [stage, total] : stages)
    if (stage == name) return void(total += s);
  stages.emplace_back(name, s);
}

// Each rank's device times travel to rank 0 as a partial: per device its name,
// seconds, kernel milliseconds and paths.
constexpr reduce::PartialLayout kDeviceTimesLayout{"run.device_times", 1};
// What each device did since `before` (devices may outlive a job: a Session's).
std::string pack_timings(const DeviceList& devices, const std::vector<DeviceTiming>& before) {
  reduce::Packer out(kDeviceTimesLayout);
  out.put(static_cast<std::uint64_t>(devices.size()));
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const DeviceTiming t = devices[i]->timing(), &b = before[i];
    out.put(t.device), out.put(t.seconds - b.seconds), out.put(t.kernel_ms - b.kernel_ms), out.put(t.paths - b.paths);
  }
  return out.take();
}
void unpack_timings(const std::string& bytes, int rank, std::vector<io::DeviceTime>* out) {
  reduce::Unpacker in(bytes, kDeviceTimesLayout, fmt::format("rank {}", rank));
  std::uint64_t n = 0;
  in.get(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    io::DeviceTime d;
    d.rank = rank;
    in.get(d.device), in.get(d.seconds), in.get(d.kernel_ms), in.get(d.paths);
    out->push_back(std::move(d));
  }
  in.finish();
}

// The provenance of a results file: version, time, command line, config, backend,
// precision, seed, chunk size, ranks.
void results_header(const io::Job& job, const RunOptions& options, const std::string& backend, io::Results* r) {
  r->mcsim_version = kVersion;
  r->git_sha = kGitSha;
  r->created = now_iso8601();
  r->command_line = options.command_line;
  r->config = job.yaml;
  r->backend = backend;
  r->precision = io::to_string(job.run.precision);
  r->seed = job.run.seed;
  r->chunk_paths = job.run.chunk_paths;
  r->ranks = static_cast<std::uint64_t>(mpi::size());
}


std::runtime_error unfinished_run(const std::string& checkpoint) {
  return std::runtime_error("a checkpoint of an unfinished run exists (" + checkpoint +
                            "): pass --resume to continue it, or --force to start over");
}

// Every scenario's checkpoint name (scenario_checkpoint_path), base first.
std::vector<std::string> scenario_checkpoint_paths(const std::string& results_path, const io::Job& job) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::max<std::size_t>(job.scenarios.size(), 1); ++i)
    out.push_back(scenario_checkpoint_path(results_path, job, i));
  return out;
}

}  // namespace

std::vector<std::pair<std::string, io::Checkpoint>> resume_checkpoints(const RunOptions& opt, const std::string& fingerprint,
                                                                       std::uint64_t units, reduce::PartialLayout layout) {
  if (opt.checkpoint_for.empty() || opt.none_saved) return {};
  const auto files = io::find_checkpoints(opt.checkpoint_for);
  if (files.empty()) {
    if (opt.resume) throw std::runtime_error("--resume: no checkpoint of '" + opt.checkpoint_for + "' found");
    return {};
  }
  if (!opt.resume) {
    if (!opt.discard_old)
      throw unfinished_run(files.front());
    if (mpi::master()) io::remove_checkpoints(opt.checkpoint_for);
    return {};
  }
  std::vector<std::pair<std::string, io::Checkpoint>> out;
  for (const auto& f : files) {
    io::Checkpoint c = io::read_checkpoint(f);
    if (c.mcsim_version != kVersion)
      throw std::runtime_error("checkpoint '" + f + "' was written by mcsim " + c.mcsim_version + ", this is " +
                               kVersion + "; it cannot be resumed");
    if (c.fingerprint != fingerprint || c.chunks != units || c.layout != layout.name)
      throw std::runtime_error("checkpoint '" + f + "' belongs to a different job (config, backend or "
                               "precision changed); resume with the job as it was, or --force to start over");
    out.emplace_back(f, std::move(c));
  }
  return out;
}

void write_rank_checkpoint(const RunOptions& opt, io::Checkpoint c, std::uint64_t units, std::vector<std::uint64_t> done,
                           reduce::PartialLayout layout, std::string partial) {
  c.mcsim_version = kVersion, c.chunks = units, c.done = std::move(done), c.layout = layout.name, c.partial = std::move(partial);
  io::write_checkpoint(io::checkpoint_path(opt.checkpoint_for, mpi::rank()), c);
}

Stopped stopped_by_signal(bool checkpoint_written) {
  return Stopped(fmt::format("stopped by signal {}{}", stop_signal(),
                             checkpoint_written ? "; checkpoint written" : " (no checkpoint: none asked for)"));
}

std::string backend_name(const DeviceList& devices) { return to_string(devices.front()->kind()); }

std::string job_fingerprint(const io::Job& job, const std::string& backend) {
  return io::fingerprint(job.yaml + "\nbackend " + backend);
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

ScenarioRun run_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  return family_run(job.model_type).run(job, options, devices);
}

std::string scenario_checkpoint_path(const std::string& results_path, const io::Job& job, std::size_t i) {
  if (i == 0 || results_path.empty()) return results_path;
  return io::results_base(results_path) + "." + job.scenarios.at(i).name + ".h5";
}

void remove_job_checkpoints(const std::string& results_path, const io::Job& job) {
  io::remove_checkpoints(scenario_checkpoint_paths(results_path, job));
}

io::Results run_job(const io::Job& job, const RunOptions& options) {
  const auto t_start = Clock::now();
  const Devices owned = make_devices(options.backend.value_or(job.run.backend));
  DeviceList devices;
  for (const auto& d : owned) devices.push_back(d.get());
  const double made_s = since(t_start);
  io::Results r = run_job(job, options, devices);
  if (!mpi::master()) return r;
  r.wall_s += made_s;
  if (!r.stage_seconds.empty()) r.stage_seconds.front().second += made_s;  // setup
  return r;
}

io::Results run_job(const io::Job& config, const RunOptions& options, const DeviceList& devices) {
  const auto t_start = Clock::now();
  const io::Job job = [&] {
    const TraceRange range("plan");
    return plan::planned(config);
  }();
  std::vector<DeviceTiming> before;
  for (const Device* d : devices) before.push_back(d->timing());
  const std::size_t n = std::max<std::size_t>(job.scenarios.size(), 1);
  // Checkpoints per scenario: refuse to start over an unfinished run before any
  // work, and resume the scenarios that have some (the others start afresh).
  std::vector<bool> saved(n);
  if (n > 1 && !options.checkpoint_for.empty()) {
    const auto found = io::find_checkpoints(scenario_checkpoint_paths(options.checkpoint_for, job));
    for (std::size_t i = 0; i < n; ++i) saved[i] = !found[i].empty();
    const auto first = std::find(saved.begin(), saved.end(), true);
    if (options.resume && first == saved.end())
      throw std::runtime_error("--resume: no checkpoint of '" + options.checkpoint_for + "' found");
    if (!options.resume && !options.discard_old && first != saved.end())
      throw unfinished_run(found[static_cast<std::size_t>(first - saved.begin())].front());
  }

  io::Results r;
  double simulate_s = 0, work = 0;
  auto unsaved_since = Clock::now();  // the scenarios' last checkpoint
  for (std::size_t i = 0; i < n; ++i) {
    ScenarioRun run;
    if (n == 1) {
      run = run_scenario(job, options, devices);
    } else {
      io::Job one = job.scenario(i);
      if (i > 0 && (job.run.target_rel_error > 0 || job.run.target_abs_error > 0)) {
        // The base scenario's paths exactly: its target error may have stopped it early.
        one.run.paths = mpi::broadcast(r.paths);
        one.run.target_rel_error = one.run.target_abs_error = 0;
      }
      RunOptions o = options;
      o.checkpoint_for = scenario_checkpoint_path(options.checkpoint_for, job, i);
      o.resume = options.resume && saved[i];
      o.none_saved = !saved[i];
      o.scenario_saved_at = &unsaved_since;
      o.keep_tails = true;
      o.scenario = job.scenarios[i].name;
      if (options.progress && mpi::master()) fmt::print(stderr, "scenario {} ({} of {})\n", job.scenarios[i].name, i + 1, n);
      run = run_scenario(one, o, devices);
      run.scenario.name = job.scenarios[i].name;
      run.scenario.overrides = job.scenarios[i].overrides;
    }
    if (i == 0) r.paths = run.paths, r.target_met = run.target_met;
    for (const auto& [stage, s] : run.stage_seconds) {
      add_stage(r.stage_seconds, stage, s);
      if (stage == "simulate") simulate_s += s;
    }
    work += run.work;
    for (const auto& e : run.scenario.estimates) run.scenario.info.push_back(job.model->describe_estimate(e.name));
    r.scenarios.push_back(std::move(run.scenario));
  }
  // Rank 0 takes every device's time.
  const auto timings = mpi::gather(pack_timings(devices, before));
  if (!mpi::master()) return r;
  results_header(job, options, backend_name(devices), &r);
  for (std::size_t rank = 0; rank < timings.size(); ++rank) unpack_timings(timings[rank], static_cast<int>(rank), &r.device_times);
  for (const auto& d : r.device_times) r.devices.push_back(d.device);
  r.paths_cap = job.run.paths;
  r.target_rel_error = job.run.target_rel_error;
  r.target_abs_error = job.run.target_abs_error;
  r.paths_per_s = simulate_s > 0 ? work / simulate_s : 0.0;
  if (n > 1) {
    add_differences(r);
    for (auto& s : r.scenarios) s.tails.clear();  // used; the file does not hold them
  }
  r.wall_s = since(t_start);
  return r;
}

}  // namespace mcsim
