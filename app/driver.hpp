// Runs a job: plan the chunks, pick a backend, simulate, reduce in the fixed tree,
// and assemble the results (the caller writes them).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "app/backend.hpp"
#include "io/config.hpp"
#include "io/results.hpp"

namespace mcsim {

struct RunOptions {
  std::optional<io::BackendChoice> backend;  // overrides run.backend
  bool progress = true;
  std::string command_line;
};

// The backend for a choice: auto takes the GPU when one is usable. Throws if a
// requested CUDA backend cannot be had.
std::unique_ptr<Backend> choose_backend(io::BackendChoice choice);

io::Results run_job(const io::Job& job, const RunOptions& options);

// Estimates, references and z-scores as an aligned table.
std::string format_estimates(const io::ScenarioResult& s);

}  // namespace mcsim
