// cuda_run_family (family.hpp), for the family files only: one
// block per chunk, or, when a job has too few chunks to fill a GPU (large Sobol
// point sets), one block per part of a chunk; a block's threads stride over its
// stream groups, then a CUB block reduction (deterministic) writes its partial,
// and the parts of a chunk are added in order. The parts depend on the job's chunk
// geometry alone, so the result of a chunk never depends on the grid, the launch
// or the device.
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/option/family.hpp"

namespace mcsim {

namespace {  // each family file's own copy


constexpr int kBlock = 256;
constexpr std::uint64_t kMinBlocks = 2048;  // a job of fewer chunks splits them into parts
constexpr std::uint64_t kMaxChunksPerLaunch = 1 << 14;

// How a chunk splits: `count` parts of `groups` stream groups (the last may be short).
struct Parts {
  std::uint64_t count, groups;
};
template <class Kernel>
Parts chunk_parts(const ChunkGeometry& geo) {
  const std::uint64_t chunks = (geo.paths + geo.chunk_paths - 1) / geo.chunk_paths;
  const std::uint64_t groups = (geo.chunk_paths + Kernel::kGroup - 1) / Kernel::kGroup;
  const std::uint64_t most = (groups + kBlock - 1) / kBlock;  // a group a thread at least
  const std::uint64_t count = std::max<std::uint64_t>(1, std::min((kMinBlocks + chunks - 1) / chunks, most));
  return {count, (groups + count - 1) / count};
}

template <class Kernel, int Block>
__global__ void __launch_bounds__(Block, Kernel::kMinBlocksPerSM)
    chunk_kernel(const Kernel kernel, const ChunkGeometry geo, std::uint64_t first_chunk, unsigned parts,
                 std::uint64_t part_groups, std::size_t width, double* out) {
  using Acc = reduce::Moments<Kernel::kOutputs>;
  Acc acc;
  const std::uint64_t chunk = first_chunk + blockIdx.x / parts;
  const GroupRange r = chunk_groups<Kernel::kGroup>(geo, chunk);
  const std::uint64_t begin = r.first + (blockIdx.x % parts) * part_groups;
  const std::uint64_t end = begin + part_groups < r.last ? begin + part_groups : r.last;
  for (std::uint64_t g = begin + threadIdx.x; g < end; g += Block)
    run_group(kernel, geo.seed, g, lanes_of<Kernel::kGroup>(r, g), acc);

  using BlockReduce = cub::BlockReduce<double, Block>;
  __shared__ typename BlockReduce::TempStorage temp;
#pragma unroll
  for (int i = 0; i < Acc::size; ++i) {
    const double total = BlockReduce(temp).Sum(acc.v[i]);
    if (threadIdx.x == 0) out[static_cast<std::size_t>(blockIdx.x) * width + i] = total;
    __syncthreads();  // temp is reused by the next field
  }
  // Fields the host fills in (a replicate kernel's chunk samples) start at zero.
  if (threadIdx.x == 0)
    for (std::size_t i = Acc::size; i < width; ++i) out[static_cast<std::size_t>(blockIdx.x) * width + i] = 0;
}

// Chunk c's partial: the sum of its parts' partials, in part order.
__global__ void add_parts(const double* parts_out, unsigned parts, std::size_t width, std::size_t n, double* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n * width) return;
  const std::size_t chunk = i / width, field = i % width;
  double total = 0;
  for (unsigned p = 0; p < parts; ++p) total += parts_out[(chunk * parts + p) * width + field];
  out[i] = total;
}

template <class Kernel>
float launch_chunks(const Kernel& kernel, const ChunkRun& a, DeviceBuffer& scratch, int ordinal) {
  // Chunk partials, then (for chunks of several parts) the parts' partials.
  const Parts split = chunk_parts<Kernel>(a.geo);
  const std::uint64_t parts = split.count;
  const std::size_t chunk_doubles = std::min(kMaxChunksPerLaunch, a.last - a.first) * a.width;
  auto* sums = static_cast<double*>(scratch.room(chunk_doubles * (parts > 1 ? 1 + parts : 1) * sizeof(double), ordinal));
  double* part_out = parts > 1 ? sums + chunk_doubles : sums;
  float total_ms = 0;
  for (std::uint64_t c = a.first; c < a.last; c += kMaxChunksPerLaunch) {
    const std::uint64_t n = std::min(kMaxChunksPerLaunch, a.last - c);
    const std::string where = "chunks " + std::to_string(c) + ".." + std::to_string(c + n - 1);
    EventTimer timer(ordinal);
    chunk_kernel<Kernel, kBlock><<<static_cast<unsigned>(n * parts), kBlock>>>(
        kernel, a.geo, c, static_cast<unsigned>(parts), split.groups, a.width, part_out);
    check_cuda(cudaGetLastError(), ordinal, "launch of " + where);
    if (parts > 1) {
      add_parts<<<static_cast<unsigned>((n * a.width + 255) / 256), 256>>>(part_out, static_cast<unsigned>(parts),
                                                                          a.width, n, sums);
      check_cuda(cudaGetLastError(), ordinal, "launch of the part sums of " + where);
    }
    total_ms += timer.ms("kernel of " + where);
    check_cuda(cudaMemcpy(a.out + (c - a.first) * a.width, sums, n * a.width * sizeof(double), cudaMemcpyDeviceToHost),
               ordinal, "copy of " + where);
    if (a.progress) a.progress->add(std::min(a.geo.paths, (c + n) * a.geo.chunk_paths) - c * a.geo.chunk_paths);
  }
  return total_ms;
}

}  // namespace

template <class Family>
float cuda_run_family(const PathKernel& kernel, const ChunkRun& run, DeviceBuffer& scratch, int ordinal) {
  return visit_family<Family, float>(kernel, [&](const auto& k) { return launch_chunks(k, run, scratch, ordinal); });
}

}  // namespace mcsim
