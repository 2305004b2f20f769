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

// x within [lo, hi] (lo for a NaN): the GPU's min and max instructions, and on the
// host selects that GCC vectorises.
template <class Real>
MCSIM_HD Real clamp_to(Real x, Real lo, Real hi) {
#if defined(MCSIM_DEVICE_CODE)
  return fmin(fmax(x, lo), hi);
#else
  x = x > lo ? x : lo;
  return x < hi ? x : hi;
#endif
}

// The integer nearest x (ties to even) for |x| < 2^21, and that integer as a Real,
// with no float-to-integer conversion (a quarter-rate instruction on GPUs): adding
// 1.5 * 2^(mantissa bits) leaves the rounded integer in the mantissa's low bits.
// Exact in IEEE arithmetic; a compiler allowed to reassociate (fast maths) breaks it.
template <class Real>
MCSIM_HD int nearest_integer(Real x, Real* rounded) {
  using Bits = std::conditional_t<sizeof(Real) == 4, std::uint32_t, std::uint64_t>;
  constexpr Real shift = sizeof(Real) == 4 ? Real(12582912.0f) : Real(6755399441055744.0);
  constexpr std::uint32_t shift_low = sizeof(Real) == 4 ? 0x4B400000u : 0u;  // shift's low 32 bits
  const Real r = x + shift;
  *rounded = r - shift;
  Bits b;
  std::memcpy(&b, &r, sizeof b);
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(b) - shift_low);
}

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
