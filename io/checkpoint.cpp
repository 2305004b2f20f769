#include "io/checkpoint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <unordered_map>

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

namespace {
// Where ".ckpt." starts in a checkpoint's file name (RESULTS.ckpt.h5 or
// RESULTS.ckpt.rN.h5), or npos for any other name.
std::size_t checkpoint_suffix(const std::string& name) {
  const auto at = name.rfind(".ckpt.");
  if (at == std::string::npos || at == 0) return std::string::npos;
  const std::string rest = name.substr(at + 6);
  const bool rank = rest.size() > 4 && rest[0] == 'r' && rest.compare(rest.size() - 3, 3, ".h5") == 0 &&
                    rest.find_first_not_of("0123456789", 1) == rest.size() - 3;
  return rest == "h5" || rank ? at : std::string::npos;
}
}  // namespace

std::string results_path_of(const std::string& checkpoint) {
  const std::string name = fs::path(checkpoint).filename().string();
  const auto at = checkpoint_suffix(name);
  if (at == std::string::npos)
    throw std::runtime_error("'" + checkpoint + "' is not named as a checkpoint (RESULTS.ckpt.h5 or RESULTS.ckpt.rN.h5)");
  return (fs::path(checkpoint).parent_path() / (name.substr(0, at) + ".h5")).string();
}

std::vector<std::vector<std::string>> find_checkpoints(const std::vector<std::string>& results_paths) {
  // Each folder listed once (a sweep's thousand scenarios share one): a file's
  // results base, RESULTS of RESULTS.ckpt.h5 or RESULTS.ckpt.rN.h5, finds its paths.
  std::map<fs::path, std::unordered_map<std::string, std::vector<std::size_t>>> by_dir;
  for (std::size_t i = 0; i < results_paths.size(); ++i) {
    const fs::path base(results_base(results_paths[i]));
    by_dir[base.has_parent_path() ? base.parent_path() : fs::path(".")][base.filename().string()].push_back(i);
  }
  std::vector<std::vector<std::string>> out(results_paths.size());
  for (const auto& [dir, names] : by_dir) {
    std::error_code e;
    if (!fs::is_directory(dir, e)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string f = entry.path().filename().string();
      const auto at = checkpoint_suffix(f);
      if (at == std::string::npos) continue;
      const auto found = names.find(f.substr(0, at));
      if (found == names.end()) continue;
      for (const std::size_t i : found->second) out[i].push_back(entry.path().string());
    }
  }
  return out;
}

std::vector<std::string> find_checkpoints(const std::string& results_path) {
  return std::move(find_checkpoints(std::vector<std::string>{results_path}).front());
}

namespace {
// What a checkpoint's checksum covers: all it holds that a resume uses.
std::uint64_t content_checksum(const Checkpoint& c) {
  reduce::Packer p({"checkpoint.content", 1});
  p.put(c.mcsim_version), p.put(c.fingerprint), p.put(c.chunks), p.put(c.done), p.put(c.layout), p.put(c.partial);
  p.put(c.job), p.put(c.scenario), p.put(c.backend);
  return reduce::checksum(p.take());
}
}  // namespace

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  h5::write_file_atomically(path, [&](hid_t f) {
    h5::write_attr(f, "format", std::string("mcsim-checkpoint"));
    h5::write_attr(f, "mcsim_version", c.mcsim_version);
    h5::write_attr(f, "fingerprint", c.fingerprint);
    h5::write_attr(f, "job", c.job);
    h5::write_attr(f, "scenario", c.scenario);
    h5::write_attr(f, "backend", c.backend);
    h5::write_attr(f, "format_version", kCheckpointVersion);
    h5::write_attr(f, "chunks", c.chunks);
    // Unit indices as doubles: exact below 2^53 units.
    h5::write_dataset(f, "done", std::vector<double>(c.done.begin(), c.done.end()), c.done.size(), 0);
    h5::write_bytes(f, "partial", c.partial);
    h5::write_attr(f, "layout", c.layout);
    h5::write_attr(f, "partial_checksum", reduce::checksum(c.partial));
    h5::write_attr(f, "content_checksum", content_checksum(c));
  }, true);
}

namespace {
Checkpoint read(const std::string& path) {
  h5::Handle f = h5::open_file(path);
  Checkpoint c;
  if (!h5::exists_attr(f, "format") || h5::read_attr_string(f, "format") != "mcsim-checkpoint")
    throw std::runtime_error("not an mcsim checkpoint");
  c.mcsim_version = h5::exists_attr(f, "mcsim_version") ? h5::read_attr_string(f, "mcsim_version") : "?";
  if (!h5::exists_attr(f, "format_version") || h5::read_attr_uint(f, "format_version") != kCheckpointVersion)
    throw std::runtime_error("written by mcsim " + c.mcsim_version + " in another format; it cannot be resumed");
  c.fingerprint = h5::read_attr_string(f, "fingerprint");
  c.job = h5::read_attr_string(f, "job");
  c.scenario = h5::read_attr_string(f, "scenario");
  c.backend = h5::read_attr_string(f, "backend");
  c.chunks = h5::read_attr_uint(f, "chunks");
  // Unit indices in range and each once, before anything indexes with them.
  for (double d : h5::read_dataset(f, "done", nullptr, nullptr)) {
    if (!(d >= 0 && d < static_cast<double>(c.chunks)) || d != std::floor(d))
      throw std::runtime_error(fmt::format("damaged: it lists unit {} of a job of {}", d, c.chunks));
    c.done.push_back(static_cast<std::uint64_t>(d));
  }
  std::vector<std::uint64_t> sorted = c.done;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) throw std::runtime_error(fmt::format("damaged: it lists unit {} twice", *twice));
  c.layout = h5::read_attr_string(f, "layout");
  c.partial = h5::read_bytes(f, "partial");
  if (reduce::checksum(c.partial) != h5::read_attr_uint(f, "partial_checksum"))
    throw std::runtime_error("damaged: its partial fails its checksum");
  if (!h5::exists_attr(f, "content_checksum") || content_checksum(c) != h5::read_attr_uint(f, "content_checksum"))
    throw std::runtime_error("damaged: what it holds fails its content_checksum");
  return c;
}
}  // namespace

Checkpoint read_checkpoint(const std::string& path) { return h5::read_named("checkpoint '" + path + "'", path, read); }

void remove_checkpoints(const std::vector<std::string>& results_paths) {
  for (const auto& files : find_checkpoints(results_paths))
    for (const auto& p : files) fs::remove(p);
}
void remove_checkpoints(const std::string& results_path) { remove_checkpoints(std::vector<std::string>{results_path}); }

std::string fingerprint(const std::string& text) { return fmt::format("{:016x}", reduce::checksum(text)); }

}  // namespace mcsim::io
