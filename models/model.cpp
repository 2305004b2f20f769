#include "models/model.hpp"

#include <atomic>
#include <stdexcept>

namespace mcsim {

std::uint64_t new_kernel_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

PathKernel Model::kernel(const KernelSetup&) const {
  throw std::logic_error("this model runs no path kernel: " + describe());
}

}  // namespace mcsim
