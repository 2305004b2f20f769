// Option pricing on one GPU: the executor puts a kernel's tables on the device and
// hands it to its family's launches (cuda_family.cuh, compiled per family in
// families/*.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <type_traits>
#include <variant>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/option/executor.hpp"
#include "app/exec/option/family.hpp"

namespace mcsim {

namespace {

// Kernels that read tables from memory (StepPath::for_each_table).
struct AnyTable {
  template <class T>
  void operator()(T&) const {}
};
template <class K, class = void>
struct HasTables : std::false_type {};
template <class K>
struct HasTables<K, std::void_t<decltype(std::declval<K&>().for_each_table(AnyTable{}))>> : std::true_type {};

class CudaOptionExecutor : public OptionExecutor {
 public:
  explicit CudaOptionExecutor(Device& device) : device_(device), ordinal_(device.ordinal()) {}

  void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first, std::uint64_t last, double* out,
           PathCounter* progress) override {
    TimedCall call(device_, std::min(geo.paths, last * geo.chunk_paths) - first * geo.chunk_paths);
    check_cuda(cudaSetDevice(ordinal_), ordinal_, "device selection");
    const ChunkRun chunks{geo, first, last, tally_width(kernel), out, progress};
    std::visit(
        [&](const auto& k) {
          using K = std::decay_t<decltype(k)>;
          call.kernel_ms = cuda_run_family<FamilyOf<K>>(PathKernel(on_device(k)), chunks, out_, ordinal_);
        },
        kernel);
  }

 private:
  // The kernel with its tables' views on this device's copies, made once per table id.
  // Copies of other jobs' tables (a sweep makes new ones per scenario) are dropped
  // before this kernel's are looked up, never between them: a view already handed
  // out must stay valid.
  template <class Kernel>
  Kernel on_device(const Kernel& kernel) {
    Kernel k = kernel;
    if constexpr (HasTables<Kernel>::value) {
      std::size_t fresh = 0;
      k.for_each_table([&](const auto& table) { fresh += table.size != 0 && tables_.count(table.id) == 0; });
      if (tables_.size() + fresh > kKeptTables) tables_.clear();
      k.for_each_table([&](auto& table) {
        if (table.size == 0) return;
        using Real = std::remove_cv_t<std::remove_pointer_t<decltype(table.data)>>;
        const std::size_t bytes = table.size * sizeof(Real);
        auto found = tables_.find(table.id);
        if (found == tables_.end()) {
          found = tables_.try_emplace(table.id).first;
          void* at = found->second.room(bytes, ordinal_);
          check_cuda(cudaMemcpy(at, table.data, bytes, cudaMemcpyHostToDevice), ordinal_, "copy of a kernel table");
        }
        table.data = static_cast<const Real*>(found->second.get());
      });
    }
    return k;
  }
  static constexpr std::size_t kKeptTables = 8;
  std::map<std::uint64_t, DeviceBuffer> tables_;

  Device& device_;
  int ordinal_;
  DeviceBuffer out_;
};

}  // namespace

std::unique_ptr<OptionExecutor> make_cuda_option_executor(Device& device) {
  return std::make_unique<CudaOptionExecutor>(device);
}

}  // namespace mcsim
