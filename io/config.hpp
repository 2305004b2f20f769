// A job as read from its YAML file: the `run:` block and the model. Every key is
// checked; all errors are collected and thrown together as io::ConfigError.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/model.hpp"

namespace mcsim::io {

enum class BackendChoice { Auto, Cpu, Cuda };

constexpr std::uint64_t kDefaultChunkPaths = 65536;
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
};

struct Job {
  std::string file;        // where the config came from
  std::string yaml;        // the config as run, overrides applied
  std::string model_type;  // model.type
  RunConfig run;
  std::shared_ptr<const Model> model;
};

// overrides: "model.process.volatility=0.3" style assignments, applied before
// validation; errors in them are reported against the --set option.
Job load_job_file(const std::string& path, const std::vector<std::string>& overrides = {});
Job load_job_text(const std::string& text, const std::string& label,
                  const std::vector<std::string>& overrides = {});

const char* to_string(BackendChoice b);
const char* to_string(Precision p);

}  // namespace mcsim::io
