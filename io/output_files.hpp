// How mcsim puts a file on disk, as a database would: the bytes go to a temp file
// of a unique name created exclusively in the target folder (never through a
// link), are flushed, and are renamed onto the target in one step, so a reader
// sees the whole file or none and a crash leaves at worst a stray temp file. An
// output (its results file and its checkpoints) is claimed by one run at a time
// through a lock held for the run's life.
#pragma once
#include <string>

namespace mcsim::io {

// Why `name` (run.name, a scenario's) cannot be part of a file name, or "" if it
// can: at most 200 bytes, not empty, no '/' or '\\', no control character, not
// starting with '.' (so neither '.' nor '..').
std::string file_name_problem(const std::string& name);

// Why `path` cannot name a results file, or "": empty, holding a control
// character, or naming a folder (a trailing '/', '.' or '..').
std::string output_path_problem(const std::string& path);
// Throws naming the path for such a one, or for an existing folder.
void check_output_path(const std::string& path);

// Makes the folder of `path` and tries a temp file there, so a place that cannot
// be written fails before the work, not after it.
void check_can_write(const std::string& path);

// Writes `bytes` to `path` whole or not at all; makes the folder. With replace,
// an existing file is replaced atomically; without, one that exists (or appears
// while writing) is kept and the error names the temp file that holds the bytes.
// A write that fails (a full disk) removes its temp file and says why.
void write_whole_file(const std::string& path, const std::string& bytes, bool replace);

// The lock PATH.lock, taken without waiting: a second run on the same output
// fails at once with a message naming the lock. Released (and the lock file
// removed) when the claim ends, or by the system when the process dies.
class OutputClaim {
 public:
  OutputClaim() = default;
  explicit OutputClaim(const std::string& output);
  ~OutputClaim();
  OutputClaim(OutputClaim&& o) noexcept;
  OutputClaim& operator=(OutputClaim&& o) noexcept;
  OutputClaim(const OutputClaim&) = delete;
  OutputClaim& operator=(const OutputClaim&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  void release();
  int fd_ = -1;
  std::string lock_;
};

// A system error as mcsim prints it: "no space left on device".
std::string describe_errno(int error);

}  // namespace mcsim::io
