// How a chunk maps onto streams, shared by every executor: chunk i holds paths
// [i*C, min((i+1)*C, N)); path p belongs to stream group p / G, lane p % G; the
// group's stream is Philox(seed, subsequence = group index).
#pragma once
#include <cstdint>

#include "reduce/moments.hpp"
#include "rng/stream.hpp"

namespace mcsim {

struct ChunkGeometry {
  std::uint64_t paths;        // N, the job's total
  std::uint64_t chunk_paths;  // C, a multiple of every kernel's group size
  std::uint64_t seed;
};

struct GroupRange {
  std::uint64_t first, last;  // stream groups [first, last)
  std::uint64_t end_path;     // one past the chunk's last path
};

template <int G>
MCSIM_HD GroupRange chunk_groups(const ChunkGeometry& geo, std::uint64_t chunk) {
  const std::uint64_t begin = chunk * geo.chunk_paths;
  std::uint64_t end = begin + geo.chunk_paths;
  if (end > geo.paths) end = geo.paths;
  return {begin / G, (end + G - 1) / G, end};
}

// Paths of group g that lie inside the chunk: G except in a chunk's last group.
template <int G>
MCSIM_HD int lanes_of(const GroupRange& r, std::uint64_t g) {
  const std::uint64_t left = r.end_path - g * G;
  return left < G ? static_cast<int>(left) : G;
}

// Simulates `lanes` paths of stream group g and adds their samples to `acc`.
template <class Kernel>
MCSIM_HD void run_group(const Kernel& kernel, std::uint64_t seed, std::uint64_t g, int lanes,
                        reduce::Moments<Kernel::kOutputs>& acc) {
  rng::Stream stream(seed, g);
  reduce::GroupMoments<Kernel::kOutputs, typename Kernel::real_type> group;
  kernel.simulate(stream, lanes, group);
  acc.absorb(group);
}

}  // namespace mcsim
