// CPU backend: OpenMP threads take whole chunks; within a chunk one thread walks
// the stream groups in order, so a chunk's partial is the same whatever the
// thread count.
#include <omp.h>

#include <chrono>
#include <thread>

#include "app/backend.hpp"

namespace mcsim {

namespace {

template <class Kernel>
void run_chunk(const Kernel& kernel, const ChunkGeometry& geo, std::uint64_t chunk, double* out) {
  const GroupRange r = chunk_groups<Kernel::kGroup>(geo, chunk);
  reduce::Moments<Kernel::kOutputs> acc;
  for (std::uint64_t g = r.first; g < r.last; ++g)
    run_group(kernel, geo.seed, g, lanes_of<Kernel::kGroup>(r, g), acc);
  for (int i = 0; i < acc.size; ++i) out[i] = acc.v[i];
}

class CpuBackend : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::vector<std::string> devices() const override {
    return {"cpu (" + std::to_string(omp_get_max_threads()) + " threads)"};
  }
  std::vector<DeviceTiming> timings() const override { return {timing_}; }

  void run(const PathKernel& kernel, const ChunkGeometry& geo, std::uint64_t first,
           std::uint64_t last, double* out, Progress* progress) override {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t width = tally_width(kernel);
    std::visit(
        [&](const auto& k) {
          const auto n = static_cast<std::int64_t>(last - first);
#pragma omp parallel for schedule(dynamic, 1)
          for (std::int64_t i = 0; i < n; ++i) {
            const std::uint64_t chunk = first + static_cast<std::uint64_t>(i);
            run_chunk(k, geo, chunk, out + static_cast<std::size_t>(i) * width);
            if (progress) {
              const std::uint64_t begin = chunk * geo.chunk_paths;
              progress->add(std::min(geo.chunk_paths, geo.paths - begin));
            }
          }
        },
        kernel);
    timing_.device = devices().front();
    timing_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::uint64_t c = first; c < last; ++c)
      timing_.paths += std::min(geo.chunk_paths, geo.paths - c * geo.chunk_paths);
  }

 private:
  DeviceTiming timing_;
};

}  // namespace

std::size_t tally_width(const PathKernel& kernel) {
  return std::visit(
      [](const auto& k) {
        return static_cast<std::size_t>(reduce::kMomentFields * std::decay_t<decltype(k)>::kOutputs);
      },
      kernel);
}

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace mcsim
