// Host/device qualifier: one definition of every piece of path maths serves the
// CPU backend (g++) and the CUDA backend (nvcc).
#pragma once

#if defined(__CUDACC__)
#define MCSIM_HD __host__ __device__ __forceinline__
#elif defined(__GNUC__)
// Inlined early, so GCC splits small aggregates (Philox blocks) into scalars before
// it vectorises the CPU backend's loops over stream groups.
#define MCSIM_HD inline __attribute__((always_inline))
#else
#define MCSIM_HD inline
#endif

#if defined(__CUDA_ARCH__)
#define MCSIM_DEVICE_CODE 1
#endif

// Unrolls a short fixed loop. On the host, unrolled loops inside a kernel let the
// CPU backend's loop over stream groups vectorise (app/backend_cpu.cpp).
#if defined(__CUDACC__)
#define MCSIM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define MCSIM_UNROLL _Pragma("GCC unroll 16")
#else
#define MCSIM_UNROLL
#endif

// Unrolls a loop of independent iterations by 4, so a GPU thread overlaps their
// long dependency chains (instruction-level parallelism).
#if defined(__CUDACC__)
#define MCSIM_UNROLL4 _Pragma("unroll 4")
#else
#define MCSIM_UNROLL4
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if !defined(MCSIM_DEVICE_CODE)
#include "rng/host_math.hpp"
#endif

namespace mcsim {

// Elementary functions for path maths. In float, device code uses the hardware
// approximations and host code the vectorisable ones of host_math.hpp (each a few
// ulp; the CPU/GPU agreement tests bound the effect on estimates); double uses the
// accurate library functions on both sides.
MCSIM_HD float fast_exp(float x) {
#if defined(MCSIM_DEVICE_CODE)
  return __expf(x);
#else
  return host::exp(x);
#endif
}
MCSIM_HD double fast_exp(double x) { return exp(x); }

MCSIM_HD float fast_log(float x) {
#if defined(MCSIM_DEVICE_CODE)
  return __logf(x);
#else
  return host::log(x);
#endif
}
MCSIM_HD double fast_log(double x) { return log(x); }

// Standard normal distribution function.
MCSIM_HD float fast_normcdf(float x) {
#if defined(MCSIM_DEVICE_CODE)
  return normcdff(x);
#else
  return 0.5f * std::erfc(-x * 0.70710678f);
#endif
}
MCSIM_HD double fast_normcdf(double x) {
#if defined(MCSIM_DEVICE_CODE)
  return normcdf(x);
#else
  return 0.5 * std::erfc(-x * 0.7071067811865476);
#endif
}

MCSIM_HD void fast_sincos(float x, float* s, float* c) {
#if defined(MCSIM_DEVICE_CODE)
  __sincosf(x, s, c);
#else
  host::sincos(x, s, c);
#endif
}
MCSIM_HD void fast_sincos(double x, double* s, double* c) { ::sincos(x, s, c); }

// `flag ? if_true : if_false` for a per-job switch (call or put, antithetic or
// not) inside path maths; both values are computed. On the host the pick is made
// with bit masks, because GCC does not vectorise a select on a loop-invariant bool.
template <class Real>
MCSIM_HD Real choose(bool flag, Real if_true, Real if_false) {
#if defined(MCSIM_DEVICE_CODE)
  return flag ? if_true : if_false;
#else
  using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
  const Bits mask = Bits(0) - static_cast<Bits>(flag);
  Bits t, f;
  std::memcpy(&t, &if_true, sizeof t);
  std::memcpy(&f, &if_false, sizeof f);
  const Bits picked = (t & mask) | (f & ~mask);
  Real out;
  std::memcpy(&out, &picked, sizeof out);
  return out;
#endif
}

}  // namespace mcsim
