// The results file (HDF5), laid out as the results-file contract says:
//   /                  provenance attributes
//   /scenarios/<name>/ estimates, reference, chunks/{tally, layout}
//   /timing            wall and per-stage seconds, per-device times
// Written whole or not at all (io/output_files.hpp), with a checksum of its content.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/model.hpp"
#include "reduce/paired.hpp"
#include "reduce/stats.hpp"

namespace mcsim::io {

// Version 2 added content_checksum and timing/stages; 3 what samples count, units
// and approximate references' tolerances. Versions 1 and 2 still read.
constexpr std::uint64_t kFormatVersion = 3;
constexpr std::uint64_t kOldestFormatVersion = 1;

// A model's own array, such as a loss histogram: rows of named columns.
struct Table {
  std::string name;
  std::vector<std::string> columns;
  std::vector<double> data;  // rows x columns.size()
  std::vector<std::string> units = {};      // one per column ("" for none), or none at all
  std::vector<std::string> row_names = {};  // one per row (a position's name), or none
};

struct ScenarioResult {
  std::string name = "base";
  std::vector<std::pair<std::string, std::string>> overrides;  // key -> value
  std::vector<reduce::Estimate> estimates;
  // One per estimate: what its samples count and its unit (none in files before version 3).
  std::vector<EstimateInfo> info;
  std::vector<Reference> references;
  std::vector<std::pair<std::string, double>> diagnostics;  // e.g. variance-reduction factor
  std::vector<std::string> tally_layout;  // one name per field of a chunk partial
  std::vector<double> chunk_tallies;      // chunks x layout.size()
  std::vector<Table> tables;              // written as datasets with a `columns` attribute
  // Every estimate on batches of the paths, for paired differences (not written).
  reduce::BatchValues batches;
  // Quantile tails for the paired errors of VaR and ES differences (not written).
  std::vector<reduce::Tail> tails;
  // This scenario minus the base scenario, per estimate both hold (none for base).
  std::vector<reduce::Difference> differences;
  // The closed-form reference of an estimate, or null where it has none.
  const Reference* reference(const std::string& estimate) const {
    for (const auto& r : references)
      if (r.name == estimate) return &r;
    return nullptr;
  }
};

struct DeviceTime {
  int rank = 0;
  std::string device;
  double seconds = 0, kernel_ms = 0;
  std::uint64_t paths = 0;
};

struct Results {
  std::string mcsim_version, git_sha, created, command_line, config, backend, precision;
  std::uint64_t seed = 0, paths = 0, chunk_paths = 0, ranks = 1;
  // Stopping on a target error: run.paths is then a cap, `paths` what was run.
  std::uint64_t paths_cap = 0;
  double target_rel_error = 0, target_abs_error = 0;
  bool target_met = false;
  std::vector<std::string> devices;
  std::vector<ScenarioResult> scenarios;
  double wall_s = 0, paths_per_s = 0;
  std::vector<std::pair<std::string, double>> stage_seconds;
  std::vector<DeviceTime> device_times;
  // Not in files: the checkpoint these results were made from, the finished work
  // of an unfinished run (app/mcsim.hpp, open_checkpoint); empty for a run's results.
  std::string checkpoint;
};

// Throws if `path` cannot name a results file (io::check_output_path), exists and
// !force, or if its folder cannot be made or written to; creates the folder.
void check_writable(const std::string& path, bool force);
// Without force, a file that appears at `path` while writing is kept (the error
// names the temp file that holds these results).
void write_results(const std::string& path, const Results& r, bool force);
// Refuses, in one line naming the file, what is not a results file of a format
// version this mcsim reads, or whose content fails its checksum.
Results read_results(const std::string& path);
// A checksum of everything a results file holds (the fields read_results fills),
// stored in it as content_checksum: a damaged or edited value is detected.
std::uint64_t content_checksum(const Results& r);

}  // namespace mcsim::io
