// Built when the CUDA toolkit was not found: the CUDA backend reports why it is missing.
#include "app/backend.hpp"

namespace mcsim {

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  if (why) *why = "mcsim was built without CUDA (no nvcc found at configure time)";
  return nullptr;
}

std::vector<std::unique_ptr<Backend>> make_cuda_backends(std::string* why) {
  make_cuda_backend(why);
  return {};
}

std::vector<std::string> cuda_device_report() {
  return {"no CUDA backend: mcsim was built without CUDA"};
}

StreamDraws cuda_stream_draws(std::uint64_t, const std::vector<std::uint64_t>&) { return {}; }

}  // namespace mcsim
