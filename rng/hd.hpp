// Host/device qualifier: one definition of every piece of path maths serves the
// CPU backend (g++) and the CUDA backend (nvcc).
#pragma once

#if defined(__CUDACC__)
#define MCSIM_HD __host__ __device__ __forceinline__
#else
#define MCSIM_HD inline
#endif

#if defined(__CUDA_ARCH__)
#define MCSIM_DEVICE_CODE 1
#endif

#include <cmath>

namespace mcsim {

// Elementary functions for path maths. In float, device code uses the hardware
// approximations (a few ulp; the CPU/GPU agreement tests bound the effect on
// estimates); double uses the accurate library functions on both sides.
MCSIM_HD float fast_exp(float x) {
#if defined(MCSIM_DEVICE_CODE)
  return __expf(x);
#else
  return std::exp(x);
#endif
}
MCSIM_HD double fast_exp(double x) { return exp(x); }

MCSIM_HD float fast_log(float x) {
#if defined(MCSIM_DEVICE_CODE)
  return __logf(x);
#else
  return std::log(x);
#endif
}
MCSIM_HD double fast_log(double x) { return log(x); }

// glibc's sincos shares the argument reduction of sin and cos: one call, not two.
MCSIM_HD void fast_sincos(float x, float* s, float* c) {
#if defined(MCSIM_DEVICE_CODE)
  __sincosf(x, s, c);
#else
  ::sincosf(x, s, c);
#endif
}
MCSIM_HD void fast_sincos(double x, double* s, double* c) { ::sincos(x, s, c); }

}  // namespace mcsim
