// An executor's runs of one kernel family (models/kernels.hpp). Each family is
// compiled in files of its own, families/NAME.cpp for the CPU and families/NAME.cu
// for CUDA, so a build compiles the families in parallel; the executors
// (cpu.cpp, cuda.cu) pick a kernel's family and call its run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "app/exec/option/chunk.hpp"
#include "app/exec/path_counter.hpp"
#include "models/kernels.hpp"

namespace mcsim {

class DeviceBuffer;

// Chunks [first, last) of a job; chunk c's partial (width doubles) goes to
// out[(c - first) * width, ...), and its paths are counted into progress (if any).
struct ChunkRun {
  ChunkGeometry geo;
  std::uint64_t first, last;
  std::size_t width;
  double* out;
  PathCounter* progress;
};

// On this process's CPU threads (cpu_family.hpp).
template <class Family>
void cpu_run_family(const PathKernel& kernel, const ChunkRun& run);
// On the current GPU, `kernel`'s tables already there, with `scratch` as device
// room for the partials; returns the kernels' milliseconds (cuda_family.cuh).
template <class Family>
float cuda_run_family(const PathKernel& kernel, const ChunkRun& run, DeviceBuffer& scratch, int ordinal);

#define MCSIM_CPU_FAMILY(F) template void cpu_run_family<kernels::F>(const PathKernel&, const ChunkRun&)
#define MCSIM_CUDA_FAMILY(F) \
  template float cuda_run_family<kernels::F>(const PathKernel&, const ChunkRun&, DeviceBuffer&, int)
#define MCSIM_FAMILY(F) \
  extern MCSIM_CPU_FAMILY(F); \
  extern MCSIM_CUDA_FAMILY(F)
MCSIM_FAMILY(European);
MCSIM_FAMILY(GbmSteps);
MCSIM_FAMILY(GreekSteps);
MCSIM_FAMILY(BucketSteps);
MCSIM_FAMILY(AntitheticBucketSteps);
MCSIM_FAMILY(ControlSteps);
MCSIM_FAMILY(SobolSteps);
MCSIM_FAMILY(HestonSteps);
MCSIM_FAMILY(HestonGreekSteps);
MCSIM_FAMILY(LocalVolSteps);
MCSIM_FAMILY(CevSteps);
MCSIM_FAMILY(LocalGreekSteps);
MCSIM_FAMILY(LocalBucketSteps);
MCSIM_FAMILY(MertonSteps);
MCSIM_FAMILY(BatesSteps);
MCSIM_FAMILY(CashSteps);
MCSIM_FAMILY(Basket);
MCSIM_FAMILY(BasketGreeks);
MCSIM_FAMILY(BasketSteps);
MCSIM_FAMILY(BasketStepGreeks);
MCSIM_FAMILY(BasketStepGreeks6);
MCSIM_FAMILY(BasketStepGreeks7);
MCSIM_FAMILY(BasketStepGreeks8);
MCSIM_FAMILY(American);
MCSIM_FAMILY(ShortRate);
MCSIM_FAMILY(Hybrid);
MCSIM_FAMILY(HestonHybrid);
#undef MCSIM_FAMILY

// f(k) for the kernel k that `kernel` holds, which is one of Family's (the
// other kernels' code is not compiled here).
template <class Family, class R, class F>
R visit_family(const PathKernel& kernel, F&& f) {
  return std::visit(
      [&](const auto& k) -> R {
        using K = std::decay_t<decltype(k)>;
        if constexpr (Family::template contains<K>)
          return f(k);
        else
          throw std::logic_error("a kernel run with another family's code");
      },
      kernel);
}

}  // namespace mcsim
