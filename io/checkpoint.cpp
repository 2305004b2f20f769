#include "io/checkpoint.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include "io/hdf5.hpp"
#include "reduce/partial.hpp"

namespace mcsim::io {

namespace fs = std::filesystem;

std::string results_base(const std::string& results_path) {
  const std::string ext = ".h5";
  const bool has_ext = results_path.size() > ext.size() &&
                       results_path.compare(results_path.size() - ext.size(), ext.size(), ext) == 0;
  return has_ext ? results_path.substr(0, results_path.size() - ext.size()) : results_path;
}

std::string checkpoint_path(const std::string& results_path, int rank) {
  const std::string base = results_base(results_path);
  return rank == 0 ? base + ".ckpt.h5" : fmt::format("{}.ckpt.r{}.h5", base, rank);
}

std::vector<std::string> find_checkpoints(const std::string& results_path) {
  const fs::path base(results_base(results_path));
  const fs::path dir = base.has_parent_path() ? base.parent_path() : fs::path(".");
  const std::string name = base.filename().string() + ".ckpt.";
  std::vector<std::string> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    const bool ours = f.rfind(name, 0) == 0 && f.size() > 3 && f.compare(f.size() - 3, 3, ".h5") == 0;
    const std::string middle = ours ? f.substr(name.size(), f.size() - name.size() - 3) : "";
    // RESULTS.ckpt.h5 (middle empty after "ckpt.") or RESULTS.ckpt.rN.h5
    if (f == name + "h5" || (ours && middle.size() > 1 && middle[0] == 'r' &&
                             middle.find_first_not_of("0123456789", 1) == std::string::npos))
      out.push_back(e.path().string());
  }
  return out;
}

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  h5::write_file_atomically(path, [&](hid_t f) {
    h5::write_attr(f, "format", std::string("mcsim-checkpoint"));
    h5::write_attr(f, "mcsim_version", c.mcsim_version);
    h5::write_attr(f, "fingerprint", c.fingerprint);
    h5::write_attr(f, "format_version", kCheckpointVersion);
    h5::write_attr(f, "chunks", c.chunks);
    // Unit indices as doubles: exact below 2^53 units.
    h5::write_dataset(f, "done", std::vector<double>(c.done.begin(), c.done.end()), c.done.size(), 0);
    h5::write_bytes(f, "partial", c.partial);
    h5::write_attr(f, "layout", c.layout);
    h5::write_attr(f, "partial_checksum", reduce::checksum(c.partial));
  });
}

Checkpoint read_checkpoint(const std::string& path) {
  h5::Handle f = h5::open_file(path);
  Checkpoint c;
  if (h5::read_attr_string(f, "format") != "mcsim-checkpoint")
    throw std::runtime_error("'" + path + "' is not an mcsim checkpoint");
  c.mcsim_version = h5::read_attr_string(f, "mcsim_version");
  if (!h5::exists_attr(f, "format_version") || h5::read_attr_uint(f, "format_version") != kCheckpointVersion)
    throw std::runtime_error("checkpoint '" + path + "' was written by mcsim " + c.mcsim_version +
                             " in another format; it cannot be resumed");
  c.fingerprint = h5::read_attr_string(f, "fingerprint");
  c.chunks = h5::read_attr_uint(f, "chunks");
  for (double d : h5::read_dataset(f, "done", nullptr, nullptr)) c.done.push_back(static_cast<std::uint64_t>(d));
  c.layout = h5::read_attr_string(f, "layout");
  c.partial = h5::read_bytes(f, "partial");
  if (reduce::checksum(c.partial) != h5::read_attr_uint(f, "partial_checksum"))
    throw std::runtime_error("checkpoint '" + path + "' is damaged: its partial fails its checksum");
  return c;
}

void remove_checkpoints(const std::string& results_path) {
  for (const auto& p : find_checkpoints(results_path)) fs::remove(p);
}

std::string fingerprint(const std::string& text) { return fmt::format("{:016x}", reduce::checksum(text)); }

}  // namespace mcsim::io
