// CUDA devices: how many, their names, whether this binary holds code they run,
// and a check of their streams.
#include <cuda_runtime.h>

#include <sstream>

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

__global__ void probe_kernel() {}

#ifndef MCSIM_CUDA_ARCHS
#define MCSIM_CUDA_ARCHS ""
#endif

// The binary's code, from CMake's CMAKE_CUDA_ARCHITECTURES: "NN-real" is machine
// code (SASS) for sm_NN, "NN-virtual" PTX for compute_NN, "NN" both; anything
// else ("native", "all") leaves the lists empty and the probe alone decides.
struct Image {
  std::vector<int> sass, ptx;
  std::string text = MCSIM_CUDA_ARCHS;
};
Image binary_image() {
  Image im;
  std::istringstream in(im.text);
  for (std::string a; std::getline(in, a, ',');) {
    const std::size_t dash = a.find('-');
    const std::string num = a.substr(0, dash), kind = dash == std::string::npos ? "" : a.substr(dash + 1);
    if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos) continue;
    const int arch = std::stoi(num);
    if (kind != "virtual") im.sass.push_back(arch);
    if (kind != "real") im.ptx.push_back(arch);
  }
  return im;
}

std::string arch_list(const Image& im) {
  std::string s;
  for (int a : im.sass) s += (s.empty() ? "" : " ") + std::string("sm_") + std::to_string(a);
  for (int a : im.ptx) s += (s.empty() ? "" : " ") + std::string("compute_") + std::to_string(a) + " (PTX)";
  return s.empty() ? im.text : s;
}

// How device `ordinal` runs this binary: natively (machine code of its generation,
// same major and no newer minor), by JIT from PTX no newer than it, or not at all
// (the probe kernel cannot load: no image, or PTX newer than the driver reads).
struct Fit {
  bool usable;
  std::string how;
};
Fit fit(int ordinal, const cudaDeviceProp& p) {
  const int cc = 10 * p.major + p.minor;
  cudaFuncAttributes attr{};
  int before = 0;
  cudaGetDevice(&before);
  cudaError_t e = cudaSetDevice(ordinal);
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&attr, probe_kernel);
  cudaGetLastError();
  cudaSetDevice(before);
  const Image im = binary_image();
  if (e != cudaSuccess)
    return {false, "cannot run this mcsim (" + std::string(cudaGetErrorString(e)) + "): the GPU is sm_" + std::to_string(cc) +
                       ", the binary holds " + arch_list(im) + "; rebuild with cmake -DCMAKE_CUDA_ARCHITECTURES=" +
                       std::to_string(cc) + " (or =native), or run with --backend cpu"};
  for (int a : im.sass)
    if (a / 10 == cc / 10 && a <= cc) return {true, "runs natively (sm_" + std::to_string(a) + " code)"};
  for (int a : im.ptx)
    if (a <= cc) return {true, "runs by JIT from compute_" + std::to_string(a) + " PTX (the first launch compiles it)"};
  return {true, "runs (sm_" + std::to_string(attr.binaryVersion) + " code)"};
}

}  // namespace

std::string cuda_device_unusable(int ordinal) {
  cudaDeviceProp p{};
  check_cuda(cudaGetDeviceProperties(&p, ordinal), ordinal, "device query");
  const Fit f = fit(ordinal, p);
  return f.usable ? std::string() : "cuda:" + std::to_string(ordinal) + " " + p.name + " " + f.how;
}

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
                    std::to_string(p.totalGlobalMem >> 20) + " MiB  " + fit(d, p).how);
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
