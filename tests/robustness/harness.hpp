// The robustness suite's tools: mcsim run as a user (or an attacker) runs it, in
// a scratch folder, and what is on disk afterwards. Each case asserts the exit
// status, the message and the files.
#pragma once
#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../run_exe.hpp"

namespace robust {

namespace fs = std::filesystem;
using test_exe::Outcome;

inline std::string source(const std::string& rel) { return std::string(MCSIM_SOURCE_DIR) + "/" + rel; }
inline std::string quickstart() { return source("configs/quickstart.yaml"); }

// Single-quoted for sh; the argument may hold anything but a NUL.
inline std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline Outcome cli(const std::string& args, const std::string& prefix = "") {
  return test_exe::run(args, prefix.empty() ? "OMP_NUM_THREADS=2" : prefix);
}

// A fresh folder for one case, removed afterwards.
struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name) : dir(test_exe::scratch("robust-" + name)) {}
  ~Scratch() {
    std::error_code e;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, e);
    fs::remove_all(dir, e);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  // The names in the folder, sorted: what a case leaves on disk.
  std::set<std::string> files() const {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
    return out;
  }
};

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// mcsim's own error: one line starting "mcsim: error: " (or a config error's
// FILE:LINE lines), never an HDF5 stack or a crash.
// One error line after the job's header (`mcsim run` prints it first: name,
// model, job, output), and nothing else.
inline bool one_error_line(const Outcome& r) {
  std::string out = r.output;
  const auto header = out.find("\n  output   ");
  if (out.rfind("mcsim ", 0) == 0 && out.find("mcsim: error: ") != 0 && header != std::string::npos)
    out.erase(0, out.find('\n', header + 1) + 1);
  return out.find("HDF5-DIAG") == std::string::npos && out.find("terminate called") == std::string::npos &&
         out.find("mcsim: error: ") == 0 && std::count(out.begin(), out.end(), '\n') == 1;
}
// Under a file-size limit the MPI runtime may add lines of its own: mcsim's are
// still one error line and nothing of HDF5's or of a crash.
inline bool one_mcsim_error(const Outcome& r) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = r.output.find("mcsim: error: ", at)) != std::string::npos; ++at) ++n;
  return n == 1 && r.output.find("HDF5-DIAG") == std::string::npos && r.output.find("terminate called") == std::string::npos;
}
// A file-size limit of `kb` KB for mcsim (its writes then fail with EFBIG, as a
// full disk's fail with ENOSPC), with the MPI runtime's shared-memory store off.
inline std::string file_size_limit(int kb) {
  return "trap '' XFSZ; ulimit -f " + std::to_string(2 * kb) + "; PMIX_MCA_gds=hash OMP_NUM_THREADS=2";
}
inline bool has(const Outcome& r, const std::string& text) { return r.output.find(text) != std::string::npos; }

// A small quick job file: quickstart with these paths and this output.
inline std::string small_job(const std::string& out, const std::string& extra_run = "") {
  return "run: { name: small, paths: 200000, seed: 3, output: \"" + out + "\"" + extra_run +
         " }\nmodel:\n  type: option\n  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
         "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n";
}

}  // namespace robust
