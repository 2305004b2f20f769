// Named ranges of a run's steps on a profiler's timeline (NVTX: `nsys profile`
// shows them beside the kernels and copies; docs/profiling.md). Without CUDA a
// range compiles to nothing; with it, it costs a call that returns at once when no
// profiler is attached. Ranges nest per thread.
#pragma once
#if MCSIM_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace mcsim {

class TraceRange {
 public:
  explicit TraceRange(const char* name) {
#if MCSIM_NVTX
    nvtxRangePushA(name);
#else
    (void)name;
#endif
  }
  ~TraceRange() {
#if MCSIM_NVTX
    nvtxRangePop();
#endif
  }
  TraceRange(const TraceRange&) = delete;
  TraceRange& operator=(const TraceRange&) = delete;
};

}  // namespace mcsim
