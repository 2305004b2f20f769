// What a chunk's partial tally holds, for every kernel, and the executor for a device.
#include <type_traits>

#include "app/exec/option/executor.hpp"

namespace mcsim {

namespace {
template <class K, class = void>
struct Replicates : std::false_type {};
template <class K>
struct Replicates<K, std::void_t<decltype(K::kReplicates)>> : std::bool_constant<K::kReplicates> {};
}  // namespace

std::unique_ptr<OptionExecutor> OptionExecutor::make(Device& d) {
  return executor_for<OptionExecutor>(d, make_cpu_option_executor, MCSIM_CUDA_MAKER(make_cuda_option_executor));
}

std::size_t tally_width(const PathKernel& kernel) {
  return std::visit(
      [](const auto& k) {
        using K = std::decay_t<decltype(k)>;
        return static_cast<std::size_t>(reduce::kMomentFields * K::kOutputs * (Replicates<K>::value ? 2 : 1));
      },
      kernel);
}

void add_chunk_samples(const PathKernel& kernel, double* partial) {
  std::visit(
      [&](const auto& k) {
        using K = std::decay_t<decltype(k)>;
        if constexpr (Replicates<K>::value) {
          constexpr int n = K::kOutputs, f = reduce::kMomentFields;
          double mean[n], value[n];
          for (int o = 0; o < n; ++o) mean[o] = partial[f * o + 1] / partial[f * o];
          K::chunk_values(mean, value);
          for (int o = 0; o < n; ++o) {
            double* out = partial + f * (n + o);
            out[0] = 1, out[1] = value[o], out[2] = value[o] * value[o];
          }
        }
      },
      kernel);
}

}  // namespace mcsim
