// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as
// 1, 2, 3", SC'11), the generator behind cuRAND's CURAND_RNG_PSEUDO_PHILOX4_32_10.
// Written once for host and device; tests check it against Random123's known-answer
// vectors and, where the CUDA toolkit is installed, against cuRAND itself.
#pragma once
#include <cstdint>

#include "rng/hd.hpp"

namespace mcsim::rng {

struct Words4 {
  std::uint32_t w[4];
};

// Multipliers and Weyl key increments, named as in the paper.
constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;
constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;

MCSIM_HD std::uint32_t mulhi32(std::uint32_t a, std::uint32_t b) {
#if defined(MCSIM_DEVICE_CODE)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

MCSIM_HD Words4 philox_round(Words4 c, std::uint32_t k0, std::uint32_t k1) {
#if defined(MCSIM_DEVICE_CODE)
  const std::uint32_t hi0 = mulhi32(kPhiloxM0, c.w[0]);
  const std::uint32_t lo0 = kPhiloxM0 * c.w[0];
  const std::uint32_t hi1 = mulhi32(kPhiloxM1, c.w[2]);
  const std::uint32_t lo1 = kPhiloxM1 * c.w[2];
#else
  // Both halves from one 64-bit product: vectorised, one widening multiply
  // instead of that and a slow 32-bit one.
  const std::uint64_t p0 = static_cast<std::uint64_t>(kPhiloxM0) * c.w[0];
  const std::uint64_t p1 = static_cast<std::uint64_t>(kPhiloxM1) * c.w[2];
  const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
  const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
#endif
  return Words4{{hi1 ^ c.w[1] ^ k0, lo1, hi0 ^ c.w[3] ^ k1, lo0}};
}

// Ten rounds with the key bumped between rounds.
MCSIM_HD Words4 philox4x32_10(Words4 counter, std::uint32_t k0, std::uint32_t k1) {
  MCSIM_UNROLL
  for (int round = 0; round < 10; ++round) {
    counter = philox_round(counter, k0, k1);
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
  return counter;
}

}  // namespace mcsim::rng
