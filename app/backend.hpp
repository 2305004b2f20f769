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
#include "reduce/exact_sum.hpp"

namespace mcsim {

namespace var {
struct RiskKernel;  // models/var/risk_kernel.hpp
}
namespace transport {
struct TransportKernel;  // models/transport/transport_kernel.hpp
template <class Real>
struct Site;
struct SourceMesh;  // models/transport/fission_source.hpp
}

// Histories [first, first + count) of a transport job, in rows of `chunk`: history
// h draws from stream (seed, stream_base + h) and starts from sites[h - first] when
// `sites` is set (an eigenvalue generation), else from the job's source. Fission
// sites are banked at k's collision score over `k` (the last generation's k).
// `kept_sites`: (generation()) start from the sites the backend kept instead.
struct TransportBatch {
  std::uint64_t stream_base = 0, first = 0, count = 0, chunk = 0;
  const transport::Site<double>* sites = nullptr;
  double k = 1;
  bool kept_sites = false;
};

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
  // True when the work runs off the host's cores, so the host may prepare the next
  // unit meanwhile (the GPU; not the CPU, whose threads would compete).
  virtual bool beside_host() const { return false; }

  // Portfolio risk. The loss of each scenario in [first, first + count), scenario
  // s drawn from stream (seed, s). A backend that works beside the host (a GPU)
  // may be asked for the next losses while position_sums runs.
  virtual void scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count,
                               double* out) = 0;
  // For each listed scenario and each band b set in its mask, adds every
  // position's loss to sums[2 b P + p] and its square to sums[(2 b + 1) P + p]
  // (P positions, in revaluation order; exact fixed point).
  virtual void position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                             const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums) = 0;

  // Particle transport: writes row j's tally slots (the histories
  // [first + j chunk, first + (j + 1) chunk), fixed point, models/transport/
  // transport_kernel.hpp) to tallies[j * slots, ...), and appends the fission sites
  // to *bank in history order, each history's in the order it banked them.
  virtual void transport(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                         std::vector<transport::Site<double>>* bank) = 0;
  // Eigenvalue generations on a backend that keeps the fission source between them
  // (a GPU that runs whole generations), so no bank crosses to the host: runs the
  // whole generation b as transport() does, counts its bank's sites in the mesh's
  // bins (counts[mesh.bins]), and keeps the next generation's b.count sites, drawn
  // from the bank with uniform u (drawn_index). Returns the bank's size (0: no
  // sites kept). Backends that keep nothing say so with keeps_sites().
  virtual bool keeps_sites() const { return false; }
  virtual std::uint64_t generation(const transport::TransportKernel& k, const TransportBatch& b,
                                   const transport::SourceMesh& mesh, double u, std::uint64_t* tallies,
                                   std::uint64_t* counts);
  // The sites kept for the next generation (for a checkpoint).
  virtual void kept_sites(std::vector<transport::Site<double>>* out);
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
