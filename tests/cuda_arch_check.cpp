// A binary that holds machine code for sm_75 alone (tests/CMakeLists.txt builds
// app/exec/cuda_devices.cu so for it). On any other GPU the check before a run
// refuses the GPU, naming its architecture, the binary's and the CMake option that
// rebuilds for it; `mcsim devices` says the same. Exits 1 on a check that fails.
#include <cstdio>
#include <string>
#include <vector>

#include "app/exec/device.hpp"

int main() {
  std::string why;
  if (mcsim::cuda_device_count(&why) == 0) {
    std::printf("SKIPPED: no usable CUDA device (%s)\n", why.c_str());
    return 0;
  }
  const std::string line = mcsim::cuda_device_report().at(0);  // "cuda:0  NAME  compute M.N  ..."
  const std::size_t at = line.find("compute ");
  if (at == std::string::npos) {
    std::printf("FAILED: no compute capability in the report: %s\n", line.c_str());
    return 1;
  }
  const std::string cc = line.substr(at + 8, 1) + line.substr(at + 10, line.find(' ', at + 10) - at - 10);
  if (cc == "75") {
    std::printf("SKIPPED: the GPU is sm_75, which this binary runs\n");
    return 0;
  }
  const std::string refused = mcsim::cuda_device_unusable(0);
  int failed = 0;
  const std::vector<std::string> wanted{"cannot run this mcsim", "the GPU is sm_" + cc, "the binary holds sm_75",
                                       "-DCMAKE_CUDA_ARCHITECTURES=" + cc, "--backend cpu"};
  for (const std::string& want : wanted)
    for (const std::string& text : {refused, line})
      if (text.find(want) == std::string::npos) {
        std::printf("FAILED: \"%s\" lacks \"%s\"\n", text.c_str(), want.c_str());
        ++failed;
      }
  if (failed) return 1;
  std::printf("refused: %s\n", refused.c_str());
  return 0;
}
