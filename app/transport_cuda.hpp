// The CUDA backend's particle transport on one GPU (transport_cuda.cu): its copy
// of the job's cross sections (uploaded once per job), the buffers of the history
// kernel and the fission bank, and the sites an eigenvalue run keeps between
// generations.
#pragma once
#include <cstdint>
#include <vector>

#include "app/backend.hpp"
#include "app/device_buffer.hpp"

namespace mcsim {

class TransportDevice {
 public:
  explicit TransportDevice(int device);

  // As Backend::transport; returns the device's milliseconds.
  float run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
            std::vector<transport::Site<double>>* bank);
  // As Backend::generation; the device's milliseconds to *ms.
  std::uint64_t generation(const transport::TransportKernel& k, const TransportBatch& b, const transport::SourceMesh& mesh,
                           double u, std::uint64_t* tallies, std::uint64_t* counts, float* ms);
  void kept_sites(std::vector<transport::Site<double>>* out);

 private:
  // Runs b's histories from d_sites (null: the job's source) into the rows' tallies
  // (tallies_) and, when banking, packs their sites in history order (packed_);
  // returns how many.
  std::uint64_t histories(const transport::TransportKernel& k, const TransportBatch& b,
                          const transport::Site<double>* d_sites, bool banking);
  template <class Real>
  void launch(const transport::TransportKernel& k, const TransportBatch& b, const transport::Site<double>* d_sites,
              bool banking);

  int device_, sms_ = 1;
  std::uint64_t uploaded_ = 0;  // the kernel id the cross sections belong to
  unsigned K_ = 4;              // bank places a history: grows to the most any history banked
  DeviceBuffer arrays_, tallies_, bank_, banked_, ends_, scan_scratch_, packed_, most_, counts_;
  DeviceBuffer uploaded_sites_;  // run()'s sites
  DeviceBuffer sites_[2];       // generation()'s sites and the next's
  int current_ = 0;
  std::uint64_t kept_ = 0;      // sites kept in sites_[current_]
};

}  // namespace mcsim
