// The CUDA backend's particle transport on one GPU (transport_cuda.cu): its copy
// of the job's cross sections (uploaded once per job) and the buffers of the
// history kernel and the fission bank.
#pragma once
#include <cstdint>
#include <vector>

#include "app/backend.hpp"
#include "app/device_buffer.hpp"

namespace mcsim {

class TransportDevice {
 public:
  explicit TransportDevice(int device) : device_(device) {}

  // As Backend::transport; returns the kernels' milliseconds.
  float run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
            std::vector<transport::Site<double>>* bank);

 private:
  template <class Real>
  float run_in(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
               std::vector<transport::Site<double>>* bank);

  int device_;
  std::uint64_t uploaded_ = 0;  // the kernel id the cross sections belong to
  DeviceBuffer arrays_, tallies_, sites_, bank_, count_, keys_, order_, sort_scratch_, out_;
};

}  // namespace mcsim
