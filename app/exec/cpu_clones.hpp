// CPU hot loops compiled for baseline x86-64 and for the levels MCSIM_CPU_LEVELS
// names (cmake/CpuLevels.cmake: AVX-512 x86-64-v4, AVX2 x86-64-v3), picked at load
// time by the CPU found (-DMCSIM_NO_CPU_CLONES builds the baseline alone), or, with
// MCSIM_CPU_LEVELS=host, for the building machine's level alone: a CPU without it
// is refused when the CPU device is made (missing_cpu_level).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(MCSIM_NO_CPU_CLONES) && \
    (defined(MCSIM_CLONE_V4) || defined(MCSIM_CLONE_V3))
#if defined(MCSIM_CPU_HOST_LEVEL)  // this machine's level alone
#define MCSIM_CPU_CLONES __attribute__((flatten, target("arch=" MCSIM_CPU_HOST_LEVEL)))
#elif defined(MCSIM_CLONE_V4) && defined(MCSIM_CLONE_V3)
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#elif defined(MCSIM_CLONE_V4)
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v4", "default")))
#else
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v3", "default")))
#endif
#else
#define MCSIM_CPU_CLONES __attribute__((flatten))
#endif

namespace mcsim {

// With the hot loops built for one level alone: that level when this CPU lacks it
// (the loops would fault on their first instruction of it), else null.
inline const char* missing_cpu_level() {
#ifdef MCSIM_CPU_HOST_LEVEL
  return __builtin_cpu_supports(MCSIM_CPU_HOST_LEVEL) ? nullptr : MCSIM_CPU_HOST_LEVEL;
#else
  return nullptr;
#endif
}

}  // namespace mcsim
