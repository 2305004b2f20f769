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

constexpr std::uint64_t kMaxPaths = std::uint64_t{1} << 63;
// Chunks hold whole stream groups of every kernel (4 paths in float, 2 in double).
constexpr std::uint64_t kChunkMultiple = 4;
// Chunks that are scrambled Sobol point sets: 2^m paths in this range, and at
// least kMinReplicateChunks of them for an error bar.
constexpr std::uint64_t kMinReplicatePaths = 1024, kMaxReplicatePaths = std::uint64_t{1} << 24;
constexpr std::uint64_t kMinReplicateChunks = 8;

struct RunConfig {
  std::string name;
  std::uint64_t paths = 0;
  std::uint64_t seed = 0;
  std::uint64_t chunk_paths = 0;  // 0: not given; the planner decides (app/run/plan.hpp)
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
// `base_dir`: the folder relative data-file names are taken from ("": the working one).
Job load_job_text(const std::string& text, const std::string& label,
                  const std::vector<std::string>& overrides = {}, SchemaRecorder* schema = nullptr,
                  const std::string& base_dir = "");

// Every config key, declared next to its reader: the loader's (run, model.type),
// each model family's, the scenarios'. What mcsim schema prints.
std::vector<KeySchema> declared_keys();
// Throws std::logic_error naming a key `recorded` read that is not declared, or
// declared with another type, default or range (set MCSIM_SCHEMA_CHECK=1 to check
// every job loaded; the tests do).
void check_declared(const SchemaRecorder& recorded);

const char* to_string(BackendChoice b);
const char* to_string(Precision p);

}  // namespace mcsim::io
