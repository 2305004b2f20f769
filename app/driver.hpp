// Runs a job: plan the chunks, pick a backend, simulate, reduce in the fixed tree,
// and assemble the results (the caller writes them).
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>
#include <string>

#include "app/backend.hpp"
#include "io/checkpoint.hpp"
#include "io/config.hpp"
#include "io/results.hpp"

namespace mcsim {

struct RunOptions {
  std::optional<io::BackendChoice> backend;  // overrides run.backend
  bool progress = true;
  std::string command_line;
  // The results path checkpoints are named after; empty: no checkpoints.
  std::string checkpoint_for;
  bool resume = false;       // continue from the checkpoints found
  bool discard_old = false;  // delete checkpoints found instead of refusing to start
  // Also checkpoint a finished run: a job of several scenarios keeps each finished
  // one until its results file is written.
  bool checkpoint_at_end = false;
  // Keep each risk level's tail scenarios (for paired VaR and ES differences).
  bool keep_tails = false;
};

// A run stopped by SIGTERM/SIGINT after writing its checkpoint.
struct Stopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// This rank's backends, one per device: auto takes the GPUs when one is usable.
// Throws if a requested CUDA backend cannot be had.
std::vector<std::unique_ptr<Backend>> choose_backends(io::BackendChoice choice);

// Runs the job on every rank, each of its scenarios in turn with the same random
// numbers, and their paired differences from the base scenario; the returned
// results are whole on rank 0 only.
io::Results run_job(const io::Job& job, const RunOptions& options);

// The results path that scenario i's checkpoints are named after (the results path
// itself for the base scenario), and the removal of every scenario's checkpoints.
std::string scenario_checkpoint_path(const std::string& results_path, const io::Job& job, std::size_t i);
void remove_job_checkpoints(const std::string& results_path, const io::Job& job);

// The provenance of a results file: version, time, command line, config, backend,
// precision, seed, chunk size, ranks.
void results_header(const io::Job& job, const RunOptions& options, const std::string& backend, io::Results* r);
// The time now, as the results file records it.
std::string now_iso8601();
// Per-device timings travel to rank 0 as text lines: rank, seconds, kernel ms, paths, name.
std::string encode_timings(const std::vector<std::unique_ptr<Backend>>& backends);
void decode_timings(const std::string& text, std::vector<io::DeviceTime>* out);

// The checkpoints a run starts from: with --resume every checkpoint file of its
// results path, checked against the job (fingerprint, chunk count, width); without
// it none, after refusing to start over an unfinished run unless told to discard it.
std::vector<io::Checkpoint> resume_checkpoints(const RunOptions& opt, const std::string& fingerprint,
                                               std::uint64_t chunks, std::size_t width);
// What a checkpoint must match: the job as run and its backend.
std::string job_fingerprint(const io::Job& job, const std::string& backend);

// Estimates, references and z-scores as an aligned table.
std::string format_estimates(const io::ScenarioResult& s);

}  // namespace mcsim
