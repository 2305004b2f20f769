// Option pricing on one GPU: one block per chunk, or, when a job has too few chunks to fill a
// GPU (large Sobol point sets), one block per part of a chunk; a block's threads
// stride over its stream groups, then a CUB block reduction (deterministic) writes
// its partial, and the parts of a chunk are added in order. The parts depend on
// the job's chunk geometry alone, so the result of a chunk never depends on the
// grid, the launch or the device.
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/option/executor.hpp"

namespace mcsim {

namespace {

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

const auto check = check_cuda;

// Kernels that read tables from memory (StepPath::for_each_table).
struct AnyTable {
  template <class T>
  void operator()(T&) const {}
};
template <class K, class = void>
struct HasTables : std::false_type {};
template <class K>
struct HasTables<K, std::void_t<decltype(std::declval<K&>().for_each_table(AnyTable{}))>> : std::true_type {};

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

class CudaOptionExecutor : public OptionExecutor {
 public:
  explicit CudaOptionExecutor(Device& device) : device_(device), ordinal_(device.ordinal()) {}

  void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first, std::uint64_t last, double* out,
           PathCounter* progress) override {
    TimedCall call(device_, std::min(geo.paths, last * geo.chunk_paths) - first * geo.chunk_paths);
    check(cudaSetDevice(ordinal_), ordinal_, "device selection");
    const std::size_t width = tally_width(kernel);
    std::visit([&](const auto& k) { call.kernel_ms = launch_all(on_device(k), geo, first, last, width, out, progress); },
               kernel);
  }

 private:
  // The kernel with its tables' views on this device's copies, made once per table id.
  template <class Kernel>
  Kernel on_device(const Kernel& kernel) {
    Kernel k = kernel;
    if constexpr (HasTables<Kernel>::value) {
      k.for_each_table([&](auto& table) {
        if (table.size == 0) return;
        using Real = std::remove_cv_t<std::remove_pointer_t<decltype(table.data)>>;
        const std::size_t bytes = table.size * sizeof(Real);
        auto found = tables_.find(table.id);
        if (found == tables_.end()) {
          if (tables_.size() >= kKeptTables) tables_.clear();  // another job's: a sweep makes new ones per scenario
          found = tables_.try_emplace(table.id).first;
          void* at = found->second.room(bytes, ordinal_);
          check(cudaMemcpy(at, table.data, bytes, cudaMemcpyHostToDevice), ordinal_, "copy of a kernel table");
        }
        table.data = static_cast<const Real*>(found->second.get());
      });
    }
    return k;
  }
  static constexpr std::size_t kKeptTables = 8;
  std::map<std::uint64_t, DeviceBuffer> tables_;

  // Returns the kernels' milliseconds.
  template <class Kernel>
  float launch_all(const Kernel& kernel, const ChunkGeometry& geo, std::uint64_t first, std::uint64_t last,
                   std::size_t width, double* out, PathCounter* progress) {
    // Chunk partials, then (for chunks of several parts) the parts' partials.
    const Parts split = chunk_parts<Kernel>(geo);
    const std::uint64_t parts = split.count;
    const std::size_t chunk_doubles = std::min(kMaxChunksPerLaunch, last - first) * width;
    auto* sums = static_cast<double*>(out_.room(chunk_doubles * (parts > 1 ? 1 + parts : 1) * sizeof(double), ordinal_));
    double* part_out = parts > 1 ? sums + chunk_doubles : sums;
    float total_ms = 0;
    for (std::uint64_t c = first; c < last; c += kMaxChunksPerLaunch) {
      const std::uint64_t n = std::min(kMaxChunksPerLaunch, last - c);
      const std::string where = "chunks " + std::to_string(c) + ".." + std::to_string(c + n - 1);
      EventTimer timer(ordinal_);
      chunk_kernel<Kernel, kBlock><<<static_cast<unsigned>(n * parts), kBlock>>>(kernel, geo, c, static_cast<unsigned>(parts),
                                                                                split.groups, width, part_out);
      check(cudaGetLastError(), ordinal_, "launch of " + where);
      if (parts > 1) {
        add_parts<<<static_cast<unsigned>((n * width + 255) / 256), 256>>>(part_out, static_cast<unsigned>(parts), width, n, sums);
        check(cudaGetLastError(), ordinal_, "launch of the part sums of " + where);
      }
      total_ms += timer.ms("kernel of " + where);
      check(cudaMemcpy(out + (c - first) * width, sums, n * width * sizeof(double), cudaMemcpyDeviceToHost), ordinal_,
            "copy of " + where);
      if (progress) progress->add(std::min(geo.paths, (c + n) * geo.chunk_paths) - c * geo.chunk_paths);
    }
    return total_ms;
  }

  Device& device_;
  int ordinal_;
  DeviceBuffer out_;
};

}  // namespace

std::unique_ptr<OptionExecutor> make_cuda_option_executor(Device& device) {
  return std::make_unique<CudaOptionExecutor>(device);
}

}  // namespace mcsim
