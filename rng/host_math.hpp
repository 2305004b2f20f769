// Single-precision exp, log and sincos for the CPU backend, written as plain
// arithmetic and selects. glibc's expf/logf/sincosf are opaque calls that stop the
// compiler from vectorising a loop over stream groups; these inline into it, so the
// loop runs on SIMD lanes, and give the same bits in scalar and vector code (no
// FMA contraction: the build sets -ffp-contract=off). Accuracy: within 2 ulp of the
// exact result over the arguments path maths meets (tests/test_host_math.cpp).
#pragma once
#include <cstdint>
#include <cstring>

namespace mcsim::host {

inline float bits_to_float(std::int32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}
inline std::int32_t float_to_bits(float f) {
  std::int32_t i;
  std::memcpy(&i, &f, sizeof i);
  return i;
}

// Round to nearest for |x| < 2^22: adding and removing 1.5 * 2^23 drops the fraction
// (roundf is a library call before SSE4.1).
inline float round_nearest(float x) {
  constexpr float kShift = 12582912.0f;
  return (x + kShift) - kShift;
}

// e^x = 2^n e^r with n = round(x / ln 2), |r| <= ln 2 / 2 (ln 2 split in two so
// n * kLn2Hi is exact); e^r by its Taylor polynomial to r^7. Clamped to the range
// where the result is a normal float.
inline float exp(float x) {
  constexpr float kLog2e = 1.44269502f, kLn2Hi = 0.693145752f, kLn2Lo = 1.42860677e-6f;
  x = x < -87.0f ? -87.0f : x;
  x = x > 88.0f ? 88.0f : x;
  const float n = round_nearest(x * kLog2e);
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  return p * bits_to_float((static_cast<std::int32_t>(n) + 127) << 23);
}

// ln x for positive normal x: x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)).
// With s = f / (2 + f), ln(1 + f) = 2 atanh(s) = 2s + s R(s^2) = f - s (f - R):
// f is exact and the correction small, so the result is within an ulp or so.
inline float log(float x) {
  const std::int32_t bits = float_to_bits(x);
  std::int32_t e = ((bits >> 23) & 0xff) - 127;
  float m = bits_to_float((bits & 0x007fffff) | 0x3f800000);  // [1, 2)
  const bool high = m > 1.41421356f;
  m = high ? 0.5f * m : m;
  e = high ? e + 1 : e;
  const float f = m - 1.0f;
  const float s = f / (2.0f + f);  // |s| <= 0.172
  const float z = s * s;
  float r = 2.0f / 11.0f;  // R = 2 (z/3 + z^2/5 + ...), to z^5
  r = r * z + 2.0f / 9.0f;
  r = r * z + 2.0f / 7.0f;
  r = r * z + 2.0f / 5.0f;
  r = r * z + 2.0f / 3.0f;
  r = r * z;
  constexpr float kLn2Hi = 0.693145752f, kLn2Lo = 1.42860677e-6f;  // e * kLn2Hi is exact
  const float ef = static_cast<float>(e);
  return ef * kLn2Hi + ((f - s * (f - r)) + ef * kLn2Lo);
}

// sin x and cos x for |x| <= 8 (Box-Muller angles lie in (0, 2 pi)): x = q pi/2 + r
// with |r| <= pi/4 (pi/2 split in three so q * each part is exact), Taylor
// polynomials in r, then the quadrant's swap and signs.
inline void sincos(float x, float* sin_x, float* cos_x) {
  constexpr float kTwoOverPi = 0.636619747f;
  constexpr float kHalfPi1 = 1.5703125f, kHalfPi2 = 4.83870506e-4f, kHalfPi3 = -4.37113883e-8f;
  const float q = round_nearest(x * kTwoOverPi);
  const float r = ((x - q * kHalfPi1) - q * kHalfPi2) - q * kHalfPi3;
  const float r2 = r * r;
  float s = -1.0f / 39916800.0f;
  s = s * r2 + 1.0f / 362880.0f;
  s = s * r2 - 1.0f / 5040.0f;
  s = s * r2 + 1.0f / 120.0f;
  s = s * r2 - 1.0f / 6.0f;
  s = s * r2 + 1.0f;
  s = s * r;
  float c = -1.0f / 3628800.0f;
  c = c * r2 + 1.0f / 40320.0f;
  c = c * r2 - 1.0f / 720.0f;
  c = c * r2 + 1.0f / 24.0f;
  c = c * r2 - 0.5f;
  c = c * r2 + 1.0f;
  const int quadrant = static_cast<int>(q) & 3;
  const float sq = (quadrant & 1) ? c : s;  // sin(q pi/2 + r), up to sign
  const float cq = (quadrant & 1) ? s : c;
  *sin_x = (quadrant & 2) ? -sq : sq;
  *cos_x = ((quadrant + 1) & 2) ? -cq : cq;
}

}  // namespace mcsim::host
