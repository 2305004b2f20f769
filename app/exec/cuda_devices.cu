// CUDA devices: how many, their names, and a check of their streams.
#include <cuda_runtime.h>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/device.hpp"
#include "rng/stream.hpp"

namespace mcsim {

namespace {

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

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    cudaGetLastError();  // clear the sticky error of a failed query
    return 0;
  }
  return count;
}

std::string cuda_device_name(int ordinal) {
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, ordinal), ordinal, "device query");
  return "cuda:" + std::to_string(ordinal) + " " + prop.name;
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

StreamDraws cuda_stream_draws(std::uint64_t seed, const std::vector<std::uint64_t>& subsequences) {
  StreamDraws out;
  if (cuda_device_count(nullptr) == 0 || subsequences.empty()) return out;
  const int n = static_cast<int>(subsequences.size());
  check_cuda(cudaSetDevice(0), 0, "device selection");
  DeviceBuffer sub, words, f, d;
  const auto at = [&](DeviceBuffer& b, std::size_t bytes) { return b.room(bytes, 0); };
  auto* d_sub = static_cast<std::uint64_t*>(at(sub, n * sizeof(std::uint64_t)));
  auto* d_words = static_cast<std::uint32_t*>(at(words, 4 * n * sizeof(std::uint32_t)));
  auto* d_f = static_cast<float*>(at(f, 4 * n * sizeof(float)));
  auto* d_d = static_cast<double*>(at(d, 2 * n * sizeof(double)));
  check_cuda(cudaMemcpy(d_sub, subsequences.data(), n * sizeof(std::uint64_t), cudaMemcpyHostToDevice), 0, "copy");
  draws_kernel<<<(n + 127) / 128, 128>>>(seed, d_sub, n, d_words, d_f, d_d);
  check_cuda(cudaGetLastError(), 0, "stream check launch");
  out.words.resize(4 * n);
  out.normals_f.resize(4 * n);
  out.normals_d.resize(2 * n);
  check_cuda(cudaMemcpy(out.words.data(), d_words, 4 * n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), 0, "stream check");
  check_cuda(cudaMemcpy(out.normals_f.data(), d_f, 4 * n * sizeof(float), cudaMemcpyDeviceToHost), 0, "stream check");
  check_cuda(cudaMemcpy(out.normals_d.data(), d_d, 2 * n * sizeof(double), cudaMemcpyDeviceToHost), 0, "stream check");
  return out;
}

}  // namespace mcsim
