// CPU hot loops compiled for AVX-512 (x86-64-v4), AVX2 (v3) and baseline x86-64,
// picked at load time by the CPU found (-DMCSIM_NO_CPU_CLONES builds the baseline
// alone, to measure it).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(MCSIM_NO_CPU_CLONES)
#define MCSIM_CPU_CLONES __attribute__((flatten, target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MCSIM_CPU_CLONES __attribute__((flatten))
#endif
