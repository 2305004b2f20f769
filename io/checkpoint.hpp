// Checkpoints: the finished chunks of a run and their partial tallies. Each rank
// writes its own file (rank 0: RESULTS.ckpt.h5, rank r: RESULTS.ckpt.rR.h5; RESULTS
// without its .h5), to a temporary name and then renamed, so a file on disk is
// always whole. A chunk's partial depends on the chunk alone, so any set of these
// files from runs of the same job may be merged on --resume, whatever their rank
// count was.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mcsim::io {

struct Checkpoint {
  std::string mcsim_version;
  std::string fingerprint;  // of the job as run: config text, backend, precision
  std::uint64_t chunks = 0, width = 0;
  std::vector<std::uint64_t> done;  // chunk indices
  std::vector<double> partials;     // done.size() x width, in the order of `done`
  std::vector<double> state;        // what else a resume needs (an eigenvalue run's next sites); may be empty
};

// A results path without its .h5, which checkpoint names start from.
std::string results_base(const std::string& results_path);
std::string checkpoint_path(const std::string& results_path, int rank);
// Every checkpoint file of this results path now on disk.
std::vector<std::string> find_checkpoints(const std::string& results_path);
void write_checkpoint(const std::string& path, const Checkpoint& c);
Checkpoint read_checkpoint(const std::string& path);
void remove_checkpoints(const std::string& results_path);

// A short, stable hash of a job's identity (FNV-1a, 64 bits, as hex).
std::string fingerprint(const std::string& text);

}  // namespace mcsim::io
