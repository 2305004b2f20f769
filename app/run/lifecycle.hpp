// The steps every scenario of every family goes through (run_stages), in order:
//   plan      the family's constructor: its sizes (plan.hpp) and unit grid
//   resume    the checkpoints of its results path, into the family's state
//   stages    while the family has a next stage (a target stage of option chunks,
//             a risk pass, the fixed-source histories, an eigenvalue generation):
//     dispatch   this rank's units of the stage on its devices
//     stop       collective: on a signal every rank saves and stops together
//     gather     every other rank's stage partial to rank 0
//     reduce     rank 0 adds them and decides (target met, the next pass, the
//                next generation's sites)
//     decide     the decision to every rank
//     checkpoint every run.checkpoint_s, or after every stage if the family asks
//   results   every other rank's final partial to rank 0, and rank 0's results.
// A family supplies the steps (StagedJob); this file owns their order, the
// collectives, stop handling, checkpoint files and timing, once for all families.
#pragma once
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/run/progress.hpp"
#include "app/run/runner.hpp"

namespace mcsim {

class StagedJob;

// This rank's checkpoint file, written when asked or when run.checkpoint_s has
// passed since the last (from any thread); a no-op without checkpoints.
class Checkpointer {
 public:
  Checkpointer(const RunOptions& options, const io::Job& job, const DeviceList& devices, StagedJob& family);
  ~Checkpointer();
  bool enabled() const { return !options_.checkpoint_for.empty(); }
  double every_s() const { return enabled() ? every_s_ : 0; }
  const std::string& fingerprint() const { return identity_.fingerprint; }
  // Neither throws: a write that fails keeps the last good file, stops the
  // workers (request_fault_stop) and is reported by check().
  void save();
  void save_if_due();
  // Throws the first failed write's error, on the run's own thread.
  void check();

 private:
  void write();  // with mutex_ held
  const RunOptions& options_;
  StagedJob& family_;
  io::Checkpoint identity_;  // the job's fingerprint, text, scenario and backend
  double every_s_;
  std::string failure_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// What a family's steps see of the run while dispatching.
struct StageContext {
  Progress& progress;
  Checkpointer& checkpoints;
};

class StagedJob {
 public:
  virtual ~StagedJob() = default;

  // Checkpoints count finished units of this grid (chunks, units, generations),
  // and hold a partial of this layout.
  virtual std::uint64_t checkpoint_units() const = 0;
  virtual reduce::PartialLayout checkpoint_layout() const = 0;
  // --resume: every checkpoint file found for this job, checked (runner.hpp).
  virtual void resume(const std::vector<std::pair<std::string, io::Checkpoint>>& files) = 0;
  // This rank's finished units and the partial holding them, from any thread; none
  // when this rank has nothing to write (an eigenvalue run's ranks other than 0,
  // or a state cut short by an error).
  virtual std::optional<std::pair<std::vector<std::uint64_t>, std::string>> checkpoint() = 0;
  // Save after every stage (a risk pass's state), not only every run.checkpoint_s.
  virtual bool checkpoint_every_stage() const { return false; }
  // After resume, instead of the stages: make results() give the estimates of the
  // units the checkpoints hold (mcsim show CHECKPOINT). Throws, saying why, for a
  // family or a state that has none yet.
  virtual void peek() { throw std::runtime_error("a checkpoint of this kind of job holds no estimates before its run ends"); }

  // What the progress line counts (0: none), and how much a resume already did.
  virtual std::uint64_t progress_total() const = 0;
  virtual std::uint64_t progress_done() const { return 0; }

  // Moves to the next stage; false when every stage is done or the decision of
  // the last one ended the run (a target met).
  virtual bool next_stage() = 0;
  // Runs this rank's units of the stage; false when a stop signal cut it short.
  virtual bool dispatch(const DeviceList& devices, StageContext& context) = 0;
  // Ranks other than 0: the stage's partial for rank 0.
  virtual std::string stage_partial() { return {}; }
  // Rank 0: every rank's stage partial (rank 0's own empty: it has it), reduced;
  // returns the decision every rank needs for what follows ("" when none).
  virtual std::string reduce_stage(const std::vector<std::string>& partials) = 0;
  // Ranks other than 0: the decision of rank 0.
  virtual void decide(const std::string& /*decision*/) {}

  // Ranks other than 0: what rank 0's results need of this rank (the chunk table).
  virtual std::string final_partial() { return {}; }
  // Rank 0: the scenario's results, from every rank's final partial (rank 0's own
  // empty); `stages_s` is the time the stages took.
  virtual ScenarioRun results(const std::vector<std::string>& partials, const DeviceList& devices, double stages_s) = 0;
  // Every rank: the paths (scenarios, histories) run, and whether a target stopped
  // the run early.
  virtual std::uint64_t paths() const = 0;
  virtual bool target_met() const { return false; }
};

// Runs the steps above on this rank's devices. Seconds: "setup" (plan, from
// `started`, and resume), "simulate" (the stages), "reduce" (the results), and
// any of the family's own that its results add.
ScenarioRun run_stages(StagedJob& family, const io::Job& job, const RunOptions& options, const DeviceList& devices,
                       std::chrono::steady_clock::time_point started);

// Plans a family's scenario (Family's constructor takes the job, the options, the
// devices and `args`) and runs its steps.
template <class Family, class... Args>
ScenarioRun run_family(const io::Job& job, const RunOptions& options, const DeviceList& devices, Args&&... args) {
  const auto started = std::chrono::steady_clock::now();
  Family family(job, options, devices, std::forward<Args>(args)...);
  return run_stages(family, job, options, devices, started);
}

}  // namespace mcsim
