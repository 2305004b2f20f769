#include "app/run/plan.hpp"

#include <algorithm>

#include "reduce/mpi.hpp"

namespace mcsim::plan {

std::uint64_t default_chunk_paths(std::uint64_t paths, std::uint64_t steps, std::uint64_t max_chunks) {
  // About kDefaultChunkPaths path-steps a chunk, at least kMinDefaultChunkPaths paths.
  std::uint64_t c = kDefaultChunkPaths;
  while (c > kMinDefaultChunkPaths && c * steps > 2 * kDefaultChunkPaths) c /= 2;
  if (paths == 0) return c;
  while ((paths - 1) / c + 1 > max_chunks && 2 * c * steps <= kMaxChunkPathSteps) c *= 2;  // ceil(paths / c)
  return c;
}

std::uint64_t chunk_paths(const io::Job& job) {
  const io::RunConfig& run = job.run;
  if (run.chunk_paths) return run.chunk_paths;
  if (job.model->chunk_replicates()) {
    // The loader checked that paths split into io::kMinReplicateChunks or more.
    std::uint64_t c = io::kMaxReplicatePaths;
    while (c > io::kMinReplicatePaths && (run.paths % c || run.paths / c < kReplicateChunks)) c /= 2;
    return c;
  }
  const std::uint64_t most = job.model->max_default_chunks();
  std::uint64_t c = default_chunk_paths(run.paths, job.model->steps_per_path(), most ? most : kMaxDefaultChunks);
  if (job.scenarios.size() > 1)
    while (c > kMinDefaultChunkPaths && (run.paths - 1) / c + 1 < kScenarioBatches) c /= 2;
  return c;
}

io::Job planned(io::Job job) {
  job.run.chunk_paths = chunk_paths(job);
  return job;
}

Span share(Span whole, int rank, int ranks) {
  const auto at = [&](int r) {
    return whole.first + static_cast<std::uint64_t>((static_cast<unsigned __int128>(whole.size()) * static_cast<unsigned>(r)) /
                                                    static_cast<unsigned>(ranks));
  };
  return {at(rank), at(rank + 1)};
}

Span my_share(Span whole) { return share(whole, mpi::rank(), mpi::size()); }

std::vector<std::uint64_t> stage_ends(std::uint64_t chunks, bool target) {
  std::vector<std::uint64_t> ends;
  if (target)
    for (std::uint64_t e = 16; e < chunks; e *= 2) ends.push_back(e);
  ends.push_back(chunks);
  return ends;
}

std::vector<Span> cut(const std::vector<Span>& todo, std::uint64_t most) {
  std::vector<Span> units;
  for (const Span& s : todo)
    for (std::uint64_t c = s.first; c < s.last; c += most) units.push_back({c, std::min(s.last, c + most)});
  return units;
}

std::uint64_t unit_size(std::uint64_t items, std::size_t devices, std::uint64_t per_device, std::uint64_t least,
                        std::uint64_t most) {
  const std::uint64_t share = items / (per_device * std::max<std::size_t>(devices, 1));
  return std::max<std::uint64_t>(1, std::clamp<std::uint64_t>(share, least, std::max(least, most)));
}

}  // namespace mcsim::plan
