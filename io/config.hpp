// A job as read from its YAML file: the `run:` block and the model. Every key is
// checked; all errors are collected and thrown together as io::ConfigError.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/schema.hpp"
#include "models/model.hpp"

namespace mcsim::io {

enum class BackendChoice { Auto, Cpu, Cuda };

constexpr std::uint64_t kDefaultChunkPaths = 65536;
constexpr std::uint64_t kMaxPaths = std::uint64_t{1} << 63;
// Without run.chunk_paths, chunks grow (doubling) until a job has at most this many,
// so per-chunk tallies, their reduction and their file table stay small.
constexpr std::uint64_t kMaxDefaultChunks = std::uint64_t{1} << 16;
// Long paths get smaller chunks (down to kMinDefaultChunkPaths), so a GPU has a block
// per chunk to spare: about kDefaultChunkPaths path-steps a chunk.
constexpr std::uint64_t kMinDefaultChunkPaths = 1024;
std::uint64_t default_chunk_paths(std::uint64_t paths, std::uint64_t steps = 1,
                                  std::uint64_t max_chunks = kMaxDefaultChunks);
// Chunks hold whole stream groups of every kernel (4 paths in float, 2 in double).
constexpr std::uint64_t kChunkMultiple = 4;

struct RunConfig {
  std::string name;
  std::uint64_t paths = 0;
  std::uint64_t seed = 0;
  std::uint64_t chunk_paths = kDefaultChunkPaths;
  BackendChoice backend = BackendChoice::Auto;
  Precision precision = Precision::Double;
  std::string output;
  // Stop once every estimate's standard error is below these (0: no target);
  // decided after 2^k chunks in index order, so the stop point is reproducible.
  double target_rel_error = 0, target_abs_error = 0;
  double checkpoint_s = 60;  // seconds between checkpoints; 0: none
};

// One what-if scenario of a job (see io/scenarios.hpp): its overrides and the
// model they give.
struct Scenario {
  std::string name = "base";
  std::vector<std::pair<std::string, std::string>> overrides;  // dotted key -> value as YAML
  std::string yaml;  // the config this scenario runs: overrides applied, no scenarios
  std::shared_ptr<const Model> model;
};

struct Job {
  std::string file;        // where the config came from
  std::string yaml;        // the config as run, --set overrides applied
  std::string model_type;  // model.type
  RunConfig run;
  std::shared_ptr<const Model> model;  // the base scenario's
  std::vector<Scenario> scenarios;     // base first; just base for a job without any
  // The job of scenario i alone: its model and config, the run: block shared.
  Job scenario(std::size_t i) const;
};

// overrides: "model.process.volatility=0.3" style assignments, applied before
// validation; errors in them are reported against the --set option.
Job load_job_file(const std::string& path, const std::vector<std::string>& overrides = {});
// `schema`, when given, records every key the loader reads (mcsim schema).
Job load_job_text(const std::string& text, const std::string& label,
                  const std::vector<std::string>& overrides = {}, SchemaRecorder* schema = nullptr);

const char* to_string(BackendChoice b);
const char* to_string(Precision p);

}  // namespace mcsim::io
