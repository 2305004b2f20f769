// Option pricing on one device: a path kernel over a range of chunks, each chunk's
// partial tally written in chunk order. A partial depends on its chunk alone, so
// devices and threads may share out chunks in any way.
#pragma once
#include <cstdint>
#include <memory>

#include "app/exec/device.hpp"
#include "app/exec/option/chunk.hpp"
#include "app/exec/path_counter.hpp"
#include "models/kernels.hpp"

namespace mcsim {

class OptionExecutor : public Executor {
 public:
  // The CPU's or the GPU's, by the device's kind.
  static std::unique_ptr<OptionExecutor> make(Device& device);
  // Writes chunk c's path moments to out[(c - first) * width, ...) for c in
  // [first, last), width = tally_width(kernel), and counts the paths into `progress`.
  virtual void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first, std::uint64_t last,
                   double* out, PathCounter* progress) = 0;
};

std::unique_ptr<OptionExecutor> make_cpu_option_executor(Device& device);
std::unique_ptr<OptionExecutor> make_cuda_option_executor(Device& device);

// Doubles in one chunk partial of this kernel: the moments of its outputs, then,
// for a kernel whose chunks are independent replicates (scrambled Sobol), the
// moments of the chunk's own values as one sample (add_chunk_samples).
std::size_t tally_width(const PathKernel& kernel);
// Fills a replicate kernel's chunk-sample fields from the path moments an executor
// wrote; does nothing for other kernels.
void add_chunk_samples(const PathKernel& kernel, double* partial);

}  // namespace mcsim
