// A backend runs a path kernel over a range of chunks and returns each chunk's
// partial tally. Partials depend on the chunk alone, so backends, devices and
// threads can share out chunks in any way.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/chunk.hpp"
#include "app/progress.hpp"
#include "models/kernels.hpp"

namespace mcsim {

struct DeviceTiming {
  std::string device;
  double seconds = 0;          // wall time spent simulating on it
  double kernel_ms = 0;        // GPU: kernel time by CUDA events (0 on the CPU)
  std::uint64_t paths = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::vector<std::string> devices() const = 0;
  // Writes chunk c's path moments to out[(c - first) * width, ...) for c in
  // [first, last), width = tally_width(kernel).
  virtual void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first,
                   std::uint64_t last, double* out, Progress* progress) = 0;
  virtual std::vector<DeviceTiming> timings() const = 0;
  // The fewest chunks worth handing to run() at once (the CPU: one per thread).
  virtual std::uint64_t min_unit() const { return 1; }
};

// Doubles in one chunk partial of this kernel: the moments of its outputs, then,
// for a kernel whose chunks are independent replicates (scrambled Sobol), the
// moments of the chunk's own values as one sample (add_chunk_samples).
std::size_t tally_width(const PathKernel& kernel);
// Fills a replicate kernel's chunk-sample fields from the path moments a backend
// wrote; does nothing for other kernels.
void add_chunk_samples(const PathKernel& kernel, double* partial);

std::unique_ptr<Backend> make_cpu_backend();
// Null, with the reason in *why, when no usable CUDA device (or no CUDA build).
std::unique_ptr<Backend> make_cuda_backend(std::string* why);
// One backend per GPU this rank should drive: all GPUs of the node when it is the
// node's only rank, else the GPU of its node-local rank (one rank per GPU). Empty,
// with the reason in *why, when there is none.
std::vector<std::unique_ptr<Backend>> make_cuda_backends(std::string* why);
// One line per CUDA device, or the reason there is none.
std::vector<std::string> cuda_device_report();

// The first block of each stream (seed, subsequence) as drawn on the GPU: its four
// words, four float normals and two double normals. Lets tests and `mcsim devices`
// check that the device streams equal the host's. Empty when no device is usable.
struct StreamDraws {
  std::vector<std::uint32_t> words;  // 4 per stream
  std::vector<float> normals_f;      // 4 per stream
  std::vector<double> normals_d;     // 2 per stream
};
StreamDraws cuda_stream_draws(std::uint64_t seed, const std::vector<std::uint64_t>& subsequences);

}  // namespace mcsim
