// Runs a job: this rank's devices are made once, every scenario runs on them in
// turn through its family's run (app/run/families.cpp), and the results are
// assembled here once: provenance, paired differences from the base scenario,
// every device's time and the job's wall time (the caller writes them).
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/exec/device.hpp"
#include "io/checkpoint.hpp"
#include "io/config.hpp"
#include "io/results.hpp"
#include "reduce/partial.hpp"

namespace mcsim {

struct RunOptions {
  std::optional<io::BackendChoice> backend;  // overrides run.backend
  bool progress = true;
  std::string command_line;
  // The results path checkpoints are named after; empty: no checkpoints.
  std::string checkpoint_for;
  bool resume = false;       // continue from the checkpoints found
  bool discard_old = false;  // delete checkpoints found instead of refusing to start
  bool none_saved = false;   // the caller found none to look for (a job's scenarios, in one listing)
  // A job of several scenarios keeps each finished one in a checkpoint until its
  // results file is written, once scenario_checkpoint_s of work since the last
  // such checkpoint (*scenario_saved_at, which the write sets) would be lost
  // without it: quicker scenarios cost less to rerun than to write (a sweep's).
  std::chrono::steady_clock::time_point* scenario_saved_at = nullptr;
  double scenario_checkpoint_s = 1;
  // Keep each risk level's tail scenarios (for paired VaR and ES differences).
  bool keep_tails = false;
  // When stderr is not a terminal (a batch job's log), a progress line every this
  // many seconds instead of the bar (0: none).
  double progress_lines_s = 0;
  // Run no stage: the results are what the checkpoints of checkpoint_for hold,
  // written on a device of this kind (mcsim show CHECKPOINT; io/checkpoint.hpp).
  std::string peek_backend;
  // The scenario's name, for its checkpoints.
  std::string scenario = "base";
  // A bumped rerun's base model, whose fitted state its kernel follows (KernelSetup).
  const Model* fitted_by = nullptr;
};

// A run stopped by SIGTERM/SIGINT after writing its checkpoint.
struct Stopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a stop signal raises once every rank has stopped, saying whether a
// checkpoint was written.
Stopped stopped_by_signal(bool checkpoint_written);

// What one scenario's run of a family gives the runner (the scenario whole on rank
// 0 only).
struct ScenarioRun {
  io::ScenarioResult scenario;
  std::uint64_t paths = 0;      // paths (scenarios, histories) run
  bool target_met = false;      // stopped early at run.target_*_error
  // Seconds per stage: "setup", "simulate" (which the rate divides by), and the
  // family's own ("reduce", "histories", "greeks").
  std::vector<std::pair<std::string, double>> stage_seconds;
  double work = 0;              // what the rate counts: paths, or scenarios x passes
};

// The devices a family's run may use: this rank's.
using DeviceList = std::vector<Device*>;

// Runs the job on every rank, each of its scenarios in turn with the same random
// numbers, and their paired differences from the base scenario; the returned
// results are whole on rank 0 only. The first form makes this rank's devices for
// the job; the second runs on devices the caller keeps (for several jobs).
io::Results run_job(const io::Job& job, const RunOptions& options);
io::Results run_job(const io::Job& job, const RunOptions& options, const DeviceList& devices);

// One scenario's job (job.scenario(i), or a job without scenarios) on its family.
ScenarioRun run_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices);

// The results path that scenario i's checkpoints are named after (the results path
// itself for the base scenario), and the removal of every scenario's checkpoints.
std::string scenario_checkpoint_path(const std::string& results_path, const io::Job& job, std::size_t i);
void remove_job_checkpoints(const std::string& results_path, const io::Job& job);

// The time now, as the results file records it.
std::string now_iso8601();

// The checkpoints a run starts from: with --resume every checkpoint file of its
// results path, checked against the job (fingerprint, unit count, the partial's
// layout); without it none, after refusing to start over an unfinished run unless
// told to discard it. Each comes with the file it was read from.
std::vector<std::pair<std::string, io::Checkpoint>> resume_checkpoints(const RunOptions& opt, const std::string& fingerprint,
                                                                       std::uint64_t units, reduce::PartialLayout layout);
// Writes this rank's checkpoint: its finished units and the partial holding them.
// `c` holds the job's identity (fingerprint, text, scenario, backend); this adds
// the finished units and their partial.
void write_rank_checkpoint(const RunOptions& opt, io::Checkpoint c, std::uint64_t units, std::vector<std::uint64_t> done,
                           reduce::PartialLayout layout, std::string partial);
// What a checkpoint must match: the job as run and the kind of device it ran on.
std::string job_fingerprint(const io::Job& job, const std::string& backend);

// The devices' kind as results name it ("cpu", "cuda").
std::string backend_name(const DeviceList& devices);

}  // namespace mcsim
