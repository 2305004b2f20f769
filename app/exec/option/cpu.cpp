// Option pricing on the CPU: the executor hands a kernel to its family's run
// (cpu_family.hpp, compiled per family in families/*.cpp).
#include <algorithm>
#include <type_traits>
#include <variant>

#include "app/exec/option/executor.hpp"
#include "app/exec/option/family.hpp"

namespace mcsim {

namespace {

class CpuOptionExecutor : public OptionExecutor {
 public:
  explicit CpuOptionExecutor(Device& device) : device_(device) {}

  void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first, std::uint64_t last, double* out,
           PathCounter* progress) override {
    TimedCall call(device_, std::min(geo.paths, last * geo.chunk_paths) - first * geo.chunk_paths);
    const ChunkRun chunks{geo, first, last, tally_width(kernel), out, progress};
    device_.run([&] {
      std::visit([&](const auto& k) { cpu_run_family<FamilyOf<std::decay_t<decltype(k)>>>(kernel, chunks); }, kernel);
    });
  }

 private:
  Device& device_;
};

}  // namespace

std::unique_ptr<OptionExecutor> make_cpu_option_executor(Device& device) {
  return std::make_unique<CpuOptionExecutor>(device);
}

}  // namespace mcsim
