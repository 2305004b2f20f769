#include "models/model.hpp"

#include <stdexcept>

namespace mcsim {

PathKernel Model::kernel(const KernelSetup&) const {
  throw std::logic_error("this model runs no path kernel: " + describe());
}

}  // namespace mcsim
