// CPU hot loops compiled for baseline x86-64 and for the levels MCSIM_CPU_LEVELS
// names (cmake/CpuLevels.cmake: AVX-512 x86-64-v4, AVX2 x86-64-v3), picked at load
// time by the CPU found (-DMCSIM_NO_CPU_CLONES builds the baseline alone).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(MCSIM_NO_CPU_CLONES) && \
    (defined(MCSIM_CLONE_V4) || defined(MCSIM_CLONE_V3))
#if defined(MCSIM_CLONE_V4) && defined(MCSIM_CLONE_V3)
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#elif defined(MCSIM_CLONE_V4)
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v4", "default")))
#else
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v3", "default")))
#endif
#else
#define MCSIM_CPU_CLONES __attribute__((flatten))
#endif
