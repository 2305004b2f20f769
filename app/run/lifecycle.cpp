#include "app/run/lifecycle.hpp"

#include <stdexcept>

#include "app/exec/trace.hpp"
#include "app/run/signals.hpp"
#include "reduce/mpi.hpp"

namespace mcsim {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
}  // namespace

Checkpointer::Checkpointer(const RunOptions& options, const io::Job& job, const DeviceList& devices, StagedJob& family)
    : options_(options), family_(family), every_s_(job.run.checkpoint_s) {
  identity_.job = job.yaml;
  identity_.scenario = options.scenario;
  identity_.backend = options.peek_backend.empty() ? backend_name(devices) : options.peek_backend;
  identity_.fingerprint = job_fingerprint(job, identity_.backend);
}

Checkpointer::~Checkpointer() {
  if (!failure_.empty()) clear_fault_stop();  // the fault's stop ends with its run
}

void Checkpointer::save() {
  std::lock_guard<std::mutex> lock(mutex_);
  write();
}

void Checkpointer::save_if_due() {
  if (every_s() <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (since(last_) >= every_s_) write();
}

void Checkpointer::write() {
  if (!enabled() || !failure_.empty()) return;
  const TraceRange range("checkpoint");
  try {
    auto state = family_.checkpoint();
    if (state)
      write_rank_checkpoint(options_, identity_, family_.checkpoint_units(), std::move(state->first),
                            family_.checkpoint_layout(), std::move(state->second));
  } catch (const std::exception& e) {
    // On a worker's thread: stop the workers, and say why once they have.
    failure_ = std::string(e.what()) + "; the run stopped, and the last checkpoint written before is kept";
    request_fault_stop();
  }
  last_ = Clock::now();
}

void Checkpointer::check() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.empty()) return;
  clear_fault_stop();
  throw std::runtime_error(failure_);
}

ScenarioRun run_stages(StagedJob& family, const io::Job& job, const RunOptions& options, const DeviceList& devices,
                       Clock::time_point started) {
  if (job.run.chunk_paths == 0) throw std::logic_error("a job runs after the planner has sized it (plan::planned)");
  Checkpointer checkpoints(options, job, devices, family);
  if (checkpoints.enabled())
    family.resume(resume_checkpoints(options, checkpoints.fingerprint(), family.checkpoint_units(), family.checkpoint_layout()));
  const double setup_s = since(started);
  const bool many = mpi::size() > 1;

  const auto t_stages = Clock::now();
  if (!options.peek_backend.empty()) {  // what the checkpoints hold, no more
    family.peek();
    ScenarioRun out = family.results(std::vector<std::string>(1), devices, 0);
    out.paths = family.paths();
    out.stage_seconds = {{"setup", setup_s}};
    return out;
  }
  {
    const std::uint64_t total = family.progress_total();
    Progress progress(total, total > 0 && options.progress && mpi::master(), options.progress_lines_s);
    progress.add(family.progress_done());
    StageContext context{progress, checkpoints};
    while (family.next_stage()) {
      bool finished = false;
      try {
        const TraceRange range("dispatch");
        finished = family.dispatch(devices, context);
      } catch (...) {
        checkpoints.save();  // what finished stays usable
        throw;
      }
      checkpoints.check();
      if (mpi::max_over_ranks(finished ? 0 : 1)) {
        checkpoints.save();
        throw stopped_by_signal(checkpoints.enabled());
      }
      const TraceRange range("reduce stage");
      const auto parts = many ? mpi::gather(mpi::master() ? std::string() : family.stage_partial())
                              : std::vector<std::string>(1);
      std::string decision = mpi::master() ? family.reduce_stage(parts) : std::string();
      if (many) {
        decision = mpi::broadcast(decision);
        if (!mpi::master()) family.decide(decision);
      }
      if (family.checkpoint_every_stage() && checkpoints.every_s() > 0) checkpoints.save();
      else checkpoints.save_if_due();
      checkpoints.check();
    }
    progress.finish();
  }
  if (options.scenario_saved_at && since(*options.scenario_saved_at) >= options.scenario_checkpoint_s) {
    checkpoints.save();
    *options.scenario_saved_at = Clock::now();
  }
  checkpoints.check();
  const double stages_s = since(t_stages);

  const auto t_results = Clock::now();
  const TraceRange range("results");
  const auto parts = many ? mpi::gather(mpi::master() ? std::string() : family.final_partial()) : std::vector<std::string>(1);
  ScenarioRun out;
  if (mpi::master()) out = family.results(parts, devices, stages_s);
  out.paths = family.paths();
  out.target_met = family.target_met();
  std::vector<std::pair<std::string, double>> stages = {
      {"setup", setup_s}, {"simulate", stages_s}, {"reduce", since(t_results)}};
  stages.insert(stages.end(), out.stage_seconds.begin(), out.stage_seconds.end());
  out.stage_seconds = std::move(stages);
  return out;
}

}  // namespace mcsim
