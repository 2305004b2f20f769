// libFuzzer target: results files that are not what mcsim wrote. The input is
// either a whole file (first byte even) or byte changes to a real results file
// (first byte odd: then pairs of position and XOR mask). read_results must return
// exactly what was written or throw std::runtime_error; anything else (wrong
// numbers read back, another exception, a crash, a sanitizer report, a hang) is
// a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/results.hpp"

namespace {

namespace fs = std::filesystem;

// A results file as a run writes it: provenance, two scenarios with differences,
// references, a table and chunk tallies, timing.
mcsim::io::Results sample() {
  mcsim::io::Results r;
  r.mcsim_version = "fuzz", r.git_sha = "0123456789ab", r.created = "2026-01-01T00:00:00Z";
  r.command_line = "mcsim run job.yaml", r.config = "run: { paths: 1000 }\n", r.backend = "cpu", r.precision = "double";
  r.seed = 7, r.paths = 1000, r.chunk_paths = 250, r.ranks = 1, r.paths_cap = 1000, r.target_rel_error = 0.01;
  r.devices = {"cpu (2 threads)"};
  for (const char* name : {"base", "vol_up"}) {
    mcsim::io::ScenarioResult s;
    s.name = name;
    if (s.name != "base") s.overrides = {{"model.process.volatility", "0.3"}};
    s.estimates = {{"price", 10.4, 0.05, 10.3, 10.5, 1000}, {"delta", 0.63, 0.01, 0.61, 0.65, 1000}};
    s.references = {{"price", 10.45, 0}};
    s.diagnostics = {{"variance_reduction", 2.5}};
    s.tally_layout = {"n", "sum", "sum2"};
    s.chunk_tallies = {250, 2600, 30000, 250, 2590, 29900, 250, 2610, 30100, 250, 2605, 30050};
    s.tables = {{"histogram", {"lo", "count"}, {0, 3, 1, 5, 2, 7}}};
    if (s.name != "base") s.differences.push_back({{"price", 1.1, 0.02, 1.06, 1.14, 0}, 0.07, 8, 1.12});
    r.scenarios.push_back(s);
  }
  r.wall_s = 0.5, r.paths_per_s = 2000, r.stage_seconds = {{"setup", 0.1}, {"simulate", 0.3}, {"reduce", 0.1}};
  r.device_times = {{0, "cpu (2 threads)", 0.3, 0, 1000}};
  return r;
}

struct Seed {
  fs::path dir = fs::temp_directory_path() / ("mcsim-fuzz-results-" + std::to_string(::getpid()));
  std::string bytes;
  std::uint64_t checksum = 0;
  Seed() {
    fs::create_directories(dir);
    const std::string path = (dir / "seed.h5").string();
    const mcsim::io::Results r = sample();
    mcsim::io::write_results(path, r, true);
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    bytes = s.str();
    checksum = mcsim::io::content_checksum(mcsim::io::read_results(path));
    if (checksum != mcsim::io::content_checksum(r)) std::abort();  // the round trip itself
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Seed seed;
  std::string file;
  const bool edits = size > 0 && (data[0] & 1);
  if (edits) {
    file = seed.bytes;
    for (std::size_t i = 1; i + 2 < size; i += 3) {
      const std::size_t at = (static_cast<std::size_t>(data[i]) << 8 | data[i + 1]) % file.size();
      file[at] = static_cast<char>(file[at] ^ (data[i + 2] ? data[i + 2] : 1));
    }
  } else if (size > 0) {
    file.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  }
  const std::string path = (seed.dir / "case.h5").string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << file;
  try {
    const mcsim::io::Results r = mcsim::io::read_results(path);
    // What reads back from a changed file is what was written, or it is refused.
    if (edits && mcsim::io::content_checksum(r) != seed.checksum) std::abort();
  } catch (const std::runtime_error&) {
  }
  return 0;
}
