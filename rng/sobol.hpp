// Scrambled Sobol points for quasi-Monte Carlo. A chunk of C = 2^m paths holds the
// first C points of the Sobol sequence (a digital net: every coordinate puts one
// point in each interval [k/C, (k+1)/C)), under its own Owen scrambling keyed by
// (seed, chunk, dimension). Each chunk is then an unbiased estimate independent of
// the others, and the spread of the chunk means is an honest error bar.
#pragma once
#include <cmath>
#include <cstdint>

#include "rng/hd.hpp"

namespace mcsim::rng {

constexpr int kSobolDims = 32;  // the dimensions scrambled Sobol points drive
constexpr int kSobolBits = 32;

// Direction numbers, one 32-bit word per index bit: coordinate d of point i is the
// XOR of v[d][k] over the set bits k of i.
struct SobolDirections {
  std::uint32_t v[kSobolDims][kSobolBits];
};

// The table (host; built once): primitive polynomials in order of degree, initial
// numbers chosen greedily for good two-dimensional projections.
const SobolDirections& sobol_directions();

// The t-value of the 2^bits-point net in dimensions (a, b): 0 is perfect
// stratification of every elementary rectangle of area 2^-bits.
int sobol_pair_t(const SobolDirections& table, int a, int b, int bits);

MCSIM_HD std::uint32_t sobol_word(const std::uint32_t* v, std::uint32_t index, int bits) {
  std::uint32_t y = 0;
  for (int k = 0; k < bits; ++k) y ^= v[k] & (0u - ((index >> k) & 1u));
  return y;
}

// A bijective 32-bit mixer (xor-shift-multiply).
MCSIM_HD std::uint32_t mix32(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// SplitMix64: the n-th output of the generator is splitmix64(n * kGolden).
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
MCSIM_HD std::uint64_t splitmix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Key of one scrambling of one dimension.
MCSIM_HD std::uint32_t scramble_key(std::uint64_t seed, std::uint64_t replicate, int dim) {
  const std::uint64_t n = replicate * kSobolDims + static_cast<std::uint64_t>(dim) + 1;
  return static_cast<std::uint32_t>(splitmix64(seed + kGolden * n) >> 32);
}

// Owen's nested uniform scrambling: the digit at depth d flips by a random bit of
// the node that the digits above it name. Below depth `bits` each point of the
// 2^bits-point net sits alone in its interval, so its remaining digits are simply
// uniform: one hash of its node gives them all.
MCSIM_HD std::uint32_t owen_scramble(std::uint32_t x, std::uint32_t key, int bits) {
  std::uint32_t out = 0, node = 1;  // a leading 1, then the original digits seen so far
  for (int d = 0; d < bits; ++d) {
    const std::uint32_t digit = (x >> (31 - d)) & 1u;
    out |= (digit ^ (mix32(node ^ key) >> 31)) << (31 - d);
    node = (node << 1) | digit;
  }
  if (bits < 32) out |= mix32(node ^ mix32(key)) >> bits;
  return out;
}

// The standard normal quantile in double: Abramowitz-Stegun 26.2.23 (error below
// 4.5e-4) refined by two Halley steps on Phi(x) = p, in the lower tail where Phi
// has no cancellation.
MCSIM_HD double inverse_normal(double u) {
  const double p = u < 0.5 ? u : 1.0 - u;
  const double t = sqrt(-2.0 * log(p));
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (int i = 0; i < 2; ++i) {
    const double e = 0.5 * erfc(-x * 0.7071067811865476) - p;
    const double d = e * 2.5066282746310002 * exp(0.5 * x * x);  // e / phi(x)
    x -= d / (1.0 + 0.5 * x * d);
  }
  return u < 0.5 ? x : -x;
}

// Point i of a 2^bits-point set under a scrambling, as a uniform in (0, 1).
MCSIM_HD double scrambled_uniform(const std::uint32_t* v, std::uint32_t index, int bits, std::uint32_t key) {
  return (static_cast<double>(owen_scramble(sobol_word(v, index, bits), key, bits)) + 0.5) * 2.3283064365386963e-10;
}

}  // namespace mcsim::rng
