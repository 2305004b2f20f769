// Built when the CUDA toolkit was not found: no CUDA device, and why.
#include "app/exec/device.hpp"

namespace mcsim {

int cuda_device_count(std::string* why) {
  if (why) *why = "mcsim was built without CUDA (no nvcc found at configure time)";
  return 0;
}
std::string cuda_device_unusable(int) { return {}; }
std::string cuda_device_name(int ordinal) { return "cuda:" + std::to_string(ordinal); }
std::vector<std::string> cuda_device_report() { return {"no CUDA backend: mcsim was built without CUDA"}; }
StreamDraws cuda_stream_draws(std::uint64_t, const std::vector<std::uint64_t>&) { return {}; }

}  // namespace mcsim
