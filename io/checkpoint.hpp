// Checkpoints: the finished units of a run (chunks, generations, scenario units)
// and the partial that holds their tallies (reduce/partial.hpp), with its
// checksum. Each rank writes its own file (rank 0: RESULTS.ckpt.h5, rank r:
// RESULTS.ckpt.rR.h5; RESULTS without its .h5), to a temporary name and then
// renamed, so a file on disk is always whole. A unit's partial depends on the unit
// alone, so any set of these files from runs of the same job may be merged on
// --resume, whatever their rank count was.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mcsim::io {

// Version 4: the job's text, scenario and backend, so a checkpoint can be shown
// (3: a checksum of the whole content; 2: of the partial only; 1 held doubles).
constexpr std::uint64_t kCheckpointVersion = 4;

struct Checkpoint {
  std::string mcsim_version;
  std::string fingerprint;          // of the job as run: config text, backend, precision
  std::string job;                  // the job's YAML text as run (its scenario's own)
  std::string scenario;             // the scenario it is of ("base" for a job without)
  std::string backend;              // the kind of device it ran on ("cpu", "cuda")
  std::uint64_t chunks = 0;         // the job's units
  std::vector<std::uint64_t> done;  // the units finished
  std::string layout;               // the partial's layout name (reduce::PartialLayout)
  std::string partial;              // packed: the finished units' tallies and what else a resume needs
};

// A results path without its .h5, which checkpoint names start from.
std::string results_base(const std::string& results_path);
std::string checkpoint_path(const std::string& results_path, int rank);
// The results path a checkpoint file is named after (RESULTS.ckpt.h5, RESULTS.ckpt.rN.h5
// -> RESULTS.h5); throws for a name that is not a checkpoint's.
std::string results_path_of(const std::string& checkpoint);
// Every checkpoint file of this results path now on disk; of each of these paths
// (one listing of each folder).
std::vector<std::string> find_checkpoints(const std::string& results_path);
std::vector<std::vector<std::string>> find_checkpoints(const std::vector<std::string>& results_paths);
void write_checkpoint(const std::string& path, const Checkpoint& c);
// Refuses, naming the file, one that is not a checkpoint of this format, lists a
// unit out of range or twice, or fails its checksums.
Checkpoint read_checkpoint(const std::string& path);
void remove_checkpoints(const std::string& results_path);
void remove_checkpoints(const std::vector<std::string>& results_paths);

// A short, stable hash of a job's identity (reduce::checksum, as hex).
std::string fingerprint(const std::string& text);

}  // namespace mcsim::io
