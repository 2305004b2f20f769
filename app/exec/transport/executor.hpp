// Particle transport on one device: rows of histories into fixed-point tally
// slots (models/transport/transport_kernel.hpp) and, for eigenvalue runs, their
// fission sites in history order; a GPU may also keep the fission source between
// generations, so no bank crosses to the host.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "app/exec/device.hpp"

namespace mcsim {

namespace transport {
struct TransportKernel;  // models/transport/transport_kernel.hpp
template <class Real>
struct Site;
struct SourceMesh;  // models/transport/fission_source.hpp
}  // namespace transport

// Histories [first, first + count) of a transport job, in rows of `chunk`: history
// h draws from stream (seed, stream_base + h) and starts from sites[h - first] when
// `sites` is set (an eigenvalue generation), else from the job's source. Fission
// sites are banked at k's collision score over `k` (the last generation's k).
// `kept_sites`: (generation()) start from the sites the executor kept instead.
struct TransportBatch {
  std::uint64_t stream_base = 0, first = 0, count = 0, chunk = 0;
  const transport::Site<double>* sites = nullptr;
  double k = 1;
  bool kept_sites = false;
};

class TransportExecutor : public Executor {
 public:
  static std::unique_ptr<TransportExecutor> make(Device& device);
  // Writes row j's tally slots (the histories [first + j chunk, first + (j + 1)
  // chunk)) to tallies[j * slots, ...), and appends the fission sites to *bank in
  // history order, each history's in the order it banked them.
  virtual void run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                   std::vector<transport::Site<double>>* bank) = 0;
  // Eigenvalue generations on an executor that keeps the fission source between
  // them: runs the whole generation b as run() does, counts its bank's sites in the
  // mesh's bins (counts[mesh.bins]), and keeps the next generation's b.count sites,
  // drawn from the bank with uniform u (drawn_index). Returns the bank's size (0:
  // no sites kept). Executors that keep nothing say so with keeps_sites().
  virtual bool keeps_sites() const { return false; }
  virtual std::uint64_t generation(const transport::TransportKernel& k, const TransportBatch& b,
                                   const transport::SourceMesh& mesh, double u, std::uint64_t* tallies,
                                   std::uint64_t* counts);
  // The sites kept for the next generation (for a checkpoint).
  virtual void kept_sites(std::vector<transport::Site<double>>* out);
};

std::unique_ptr<TransportExecutor> make_cpu_transport_executor(Device& device);
std::unique_ptr<TransportExecutor> make_cuda_transport_executor(Device& device);

}  // namespace mcsim
