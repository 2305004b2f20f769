// mcsim as a library: read a job, run it, and get its results in memory (estimates,
// tables, chunk partials, timings), without the command line or a file. The CLI,
// the tests and the validation suite use it; so will the Python module.
//
//   mcsim::Session session;                                   // this rank's devices
//   const mcsim::io::Job job = mcsim::load_job("configs/quickstart.yaml", {"run.paths=1e6"});
//   const mcsim::io::Results r = session.run(job);            // r.scenarios[0].estimates ...
//
// Bad input throws io::ConfigError, whose text names file:line:column of every
// error; runtime faults throw std::runtime_error; a stop by signal throws Stopped.
// Under MPI every rank calls run(); the results are whole on rank 0.
#pragma once
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "io/config.hpp"
#include "io/diagnostics.hpp"
#include "io/output_files.hpp"
#include "io/results.hpp"

namespace mcsim {

// A job from a YAML file, or from YAML text (`label` names it in errors), with
// overrides such as "model.process.volatility=0.3" applied before it is checked,
// and its sizes decided (run.chunk_paths, app/run/plan.hpp).
io::Job load_job(const std::string& path, const std::vector<std::string>& overrides = {});
io::Job parse_job(const std::string& yaml, const std::string& label = "job",
                  const std::vector<std::string>& overrides = {}, const std::string& base_dir = "");

// This rank's devices, made once and kept for every job run through the session:
// CUDA contexts, device copies of a model and buffers are set up once.
// A results file for one run: checked to be writable (io::check_writable) and,
// on rank 0, held against any other mcsim run until the claim is dropped
// (io::OutputClaim). Every rank calls it; a refusal throws on every rank.
io::OutputClaim claim_output(const std::string& path, bool force);
// Rank 0: writes the job's results to `path`, then removes its checkpoints, which
// the results now hold.
void write_job_results(const std::string& path, const io::Job& job, const io::Results& results, bool force);

// What a run's checkpoint holds so far, as results (mcsim show, mcsim.open): the
// job it stores, resumed from every rank's checkpoint beside it, and no further
// work. `samples` count the finished paths (histories, generations). Throws for a family or
// a state that has no estimates yet (a risk run's passes).
io::Results open_checkpoint(const std::string& path);
// A results file, or a checkpoint by its name (RESULTS.ckpt.h5, RESULTS.ckpt.rN.h5).
io::Results open_results(const std::string& path);

class Session {
 public:
  explicit Session(io::BackendChoice backend = io::BackendChoice::Auto);
  // Runs the job on the session's devices (options.backend is ignored).
  io::Results run(const io::Job& job, const RunOptions& options = quiet()) const;
  const DeviceList& devices() const { return list_; }
  // Options without a progress line, checkpoints or a command line.
  static RunOptions quiet();

 private:
  Devices owned_;
  DeviceList list_;
};

}  // namespace mcsim
