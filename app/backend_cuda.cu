// CUDA backend: one block per chunk, or, when a job has too few chunks to fill a
// GPU (large Sobol point sets), one block per part of a chunk; a block's threads
// stride over its stream groups, then a CUB block reduction (deterministic) writes
// its partial, and the parts of a chunk are added in order. The parts depend on
// the job's chunk geometry alone, so the result of a chunk never depends on the
// grid, the launch or the device.
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include "app/backend.hpp"
#include "app/risk_cuda.hpp"
#include "app/transport_cuda.hpp"
#include "reduce/mpi.hpp"

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

void check(cudaError_t e, int device, const std::string& what) {
  if (e != cudaSuccess)
    throw std::runtime_error("CUDA error on device " + std::to_string(device) + " during " + what +
                             ": " + cudaGetErrorString(e));
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

class CudaBackend : public Backend {
 public:
  explicit CudaBackend(int device) : device_(device), risk_(device), transport_(device) {
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device_), device_, "device query");
    name_ = "cuda:" + std::to_string(device_) + " " + prop.name;
    timing_.device = name_;
  }
  ~CudaBackend() override {
    if (out_) cudaFree(out_);
  }
  std::string name() const override { return "cuda"; }
  std::vector<std::string> devices() const override { return {name_}; }
  std::vector<DeviceTiming> timings() const override { return {timing_}; }

  void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first,
           std::uint64_t last, double* out, Progress* progress) override {
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaSetDevice(device_), device_, "device selection");
    const std::size_t width = tally_width(kernel);
    std::visit([&](const auto& k) { launch_all(k, geo, first, last, width, out, progress); }, kernel);
    timing_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  bool beside_host() const override { return true; }

  // Risk calls may overlap (losses ahead of sums): timings add under a lock, and
  // seconds count the wall time of each call, so overlapping calls count twice.
  void scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out) override {
    const auto t0 = std::chrono::steady_clock::now();
    const float ms = risk_.losses(k, first, count, out);
    std::lock_guard<std::mutex> lock(timing_mutex_);
    timing_.kernel_ms += ms;
    timing_.paths += count;
    timing_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  void position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                     const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums) override {
    const auto t0 = std::chrono::steady_clock::now();
    const float ms = risk_.position_sums(k, scenarios, masks, bands, sums);
    std::lock_guard<std::mutex> lock(timing_mutex_);
    timing_.kernel_ms += ms;
    timing_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  void transport(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                 std::vector<transport::Site<double>>* bank) override {
    const auto t0 = std::chrono::steady_clock::now();
    const float ms = transport_.run(k, b, tallies, bank);
    add_transport_timing(t0, ms, b.count);
  }
  bool keeps_sites() const override { return true; }
  std::uint64_t generation(const transport::TransportKernel& k, const TransportBatch& b, const transport::SourceMesh& mesh,
                           double u, std::uint64_t* tallies, std::uint64_t* counts) override {
    const auto t0 = std::chrono::steady_clock::now();
    float ms = 0;
    const std::uint64_t banked = transport_.generation(k, b, mesh, u, tallies, counts, &ms);
    add_transport_timing(t0, ms, b.count);
    return banked;
  }
  void kept_sites(std::vector<transport::Site<double>>* out) override { transport_.kept_sites(out); }

 private:
  void add_transport_timing(std::chrono::steady_clock::time_point t0, float ms, std::uint64_t histories) {
    std::lock_guard<std::mutex> lock(timing_mutex_);
    timing_.kernel_ms += ms;
    timing_.paths += histories;
    timing_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  template <class Kernel>
  void launch_all(const Kernel& kernel, const ChunkGeometry& geo, std::uint64_t first,
                  std::uint64_t last, std::size_t width, double* out, Progress* progress) {
    // Chunk partials, then (for chunks of several parts) the parts' partials.
    const Parts split = chunk_parts<Kernel>(geo);
    const std::uint64_t parts = split.count;
    const std::size_t chunk_doubles = std::min(kMaxChunksPerLaunch, last - first) * width;
    const std::size_t bytes = chunk_doubles * (parts > 1 ? 1 + parts : 1) * sizeof(double);
    if (bytes > out_bytes_) {
      if (out_) cudaFree(out_);
      out_ = nullptr;
      check(cudaMalloc(&out_, bytes), device_, "allocation of chunk partials");
      out_bytes_ = bytes;
    }
    double* part_out = parts > 1 ? out_ + chunk_doubles : out_;
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), device_, "event creation");
    check(cudaEventCreate(&stop), device_, "event creation");
    for (std::uint64_t c = first; c < last; c += kMaxChunksPerLaunch) {
      const std::uint64_t n = std::min(kMaxChunksPerLaunch, last - c);
      const std::string where = "chunks " + std::to_string(c) + ".." + std::to_string(c + n - 1);
      check(cudaEventRecord(start), device_, where);
      chunk_kernel<Kernel, kBlock><<<static_cast<unsigned>(n * parts), kBlock>>>(kernel, geo, c, static_cast<unsigned>(parts),
                                                                                split.groups, width, part_out);
      check(cudaGetLastError(), device_, "launch of " + where);
      if (parts > 1) {
        add_parts<<<static_cast<unsigned>((n * width + 255) / 256), 256>>>(part_out, static_cast<unsigned>(parts), width, n, out_);
        check(cudaGetLastError(), device_, "launch of the part sums of " + where);
      }
      check(cudaEventRecord(stop), device_, where);
      check(cudaMemcpy(out + (c - first) * width, out_, n * width * sizeof(double),
                       cudaMemcpyDeviceToHost),
            device_, "kernel of " + where);
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), device_, where);
      timing_.kernel_ms += ms;
      const std::uint64_t paths = std::min(geo.paths, (c + n) * geo.chunk_paths) - c * geo.chunk_paths;
      timing_.paths += paths;
      if (progress) progress->add(paths);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }

  int device_;
  RiskDevice risk_;
  TransportDevice transport_;
  std::mutex timing_mutex_;
  std::string name_;
  double* out_ = nullptr;
  std::size_t out_bytes_ = 0;
  DeviceTiming timing_;
};

__global__ void draws_kernel(std::uint64_t seed, const std::uint64_t* subsequences, int n,
                             std::uint32_t* words, float* normals_f, double* normals_d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rng::Stream a(seed, subsequences[i]), b(seed, subsequences[i]), c(seed, subsequences[i]);
  const rng::Words4 w = a.next4();
  const auto zf = rng::normals<float>(b);
  const auto zd = rng::normals<double>(c);
  for (int j = 0; j < 4; ++j) words[4 * i + j] = w.w[j], normals_f[4 * i + j] = zf.z[j];
  for (int j = 0; j < 2; ++j) normals_d[2 * i + j] = zd.z[j];
}

}  // namespace

StreamDraws cuda_stream_draws(std::uint64_t seed, const std::vector<std::uint64_t>& subsequences) {
  StreamDraws out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || subsequences.empty()) {
    cudaGetLastError();
    return out;
  }
  const int n = static_cast<int>(subsequences.size());
  std::uint64_t* d_sub = nullptr;
  std::uint32_t* d_words = nullptr;
  float* d_f = nullptr;
  double* d_d = nullptr;
  check(cudaMalloc(&d_sub, n * sizeof(std::uint64_t)), 0, "allocation");
  check(cudaMalloc(&d_words, 4 * n * sizeof(std::uint32_t)), 0, "allocation");
  check(cudaMalloc(&d_f, 4 * n * sizeof(float)), 0, "allocation");
  check(cudaMalloc(&d_d, 2 * n * sizeof(double)), 0, "allocation");
  check(cudaMemcpy(d_sub, subsequences.data(), n * sizeof(std::uint64_t), cudaMemcpyHostToDevice), 0, "copy");
  draws_kernel<<<(n + 127) / 128, 128>>>(seed, d_sub, n, d_words, d_f, d_d);
  check(cudaGetLastError(), 0, "stream check launch");
  out.words.resize(4 * n);
  out.normals_f.resize(4 * n);
  out.normals_d.resize(2 * n);
  check(cudaMemcpy(out.words.data(), d_words, 4 * n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), 0, "stream check");
  check(cudaMemcpy(out.normals_f.data(), d_f, 4 * n * sizeof(float), cudaMemcpyDeviceToHost), 0, "stream check");
  check(cudaMemcpy(out.normals_d.data(), d_d, 2 * n * sizeof(double), cudaMemcpyDeviceToHost), 0, "stream check");
  cudaFree(d_sub);
  cudaFree(d_words);
  cudaFree(d_f);
  cudaFree(d_d);
  return out;
}

namespace {
// The number of CUDA devices, or 0 with the reason in *why.
int usable_devices(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    cudaGetLastError();  // clear the sticky error of a failed query
    return 0;
  }
  return count;
}
}  // namespace

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  if (usable_devices(why) == 0) return nullptr;
  return std::make_unique<CudaBackend>(0);
}

std::vector<std::unique_ptr<Backend>> make_cuda_backends(std::string* why) {
  std::vector<std::unique_ptr<Backend>> out;
  const int count = usable_devices(why);
  if (count == 0) return out;
  if (mpi::local_size() > 1) {
    out.push_back(std::make_unique<CudaBackend>(mpi::local_rank() % count));
  } else {
    for (int d = 0; d < count; ++d) out.push_back(std::make_unique<CudaBackend>(d));
  }
  return out;
}

std::vector<std::string> cuda_device_report() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    return {std::string("no usable CUDA device: ") + (e != cudaSuccess ? cudaGetErrorString(e) : "none found")};
  std::vector<std::string> lines;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, d);
    lines.push_back("cuda:" + std::to_string(d) + "  " + p.name + "  compute " +
                    std::to_string(p.major) + "." + std::to_string(p.minor) + "  " +
                    std::to_string(p.multiProcessorCount) + " SMs  " +
                    std::to_string(p.totalGlobalMem >> 20) + " MiB");
  }
  return lines;
}

}  // namespace mcsim
