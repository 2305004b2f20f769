// The CUDA backend's portfolio-risk work on one GPU: its copy of the portfolio
// (uploaded once per job) and the buffers of the scenario kernels (risk_cuda.cu).
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "app/device_buffer.hpp"
#include "reduce/exact_sum.hpp"

namespace mcsim {

namespace var {
struct RiskKernel;  // models/var/risk_kernel.hpp
}

class RiskDevice {
 public:
  explicit RiskDevice(int device) : device_(device) {}

  // As Backend::scenario_losses; returns the kernels' milliseconds.
  float losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out);
  // As Backend::position_sums.
  float position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                      const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums);

 private:
  void upload(const var::RiskKernel& k);

  int device_;
  std::uint64_t uploaded_ = 0;  // the kernel id the portfolio copy belongs to
  std::mutex upload_mutex_;
  DeviceBuffer reals_, ints_;                              // the portfolio
  DeviceBuffer out_, scratch_;                             // losses
  DeviceBuffer list_, list_scratch_, log_spots_, partial_;  // position sums
};

}  // namespace mcsim
