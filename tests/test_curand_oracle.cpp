// cuRAND itself as the oracle: its device API compiled for the host, and its host
// generator (curandCreateGeneratorHost), which runs without a GPU.
#include <catch2/catch.hpp>
#include <curand.h>
#include <curand_kernel.h>

#include "rng/stream.hpp"

using namespace mcsim::rng;

TEST_CASE("streams equal curand_init of seed and path followed by curand4 and its normals", "[rng][curand]") {
  for (std::uint64_t seed : {0ULL, 42ULL, 0xdeadbeefcafef00dULL})
    for (std::uint64_t path : {0ULL, 1ULL, 977ULL, (1ULL << 32) + 5, 0xffffffffffffULL}) {
      curandStatePhilox4_32_10_t st;
      curand_init(seed, path, 0, &st);
      Stream s(seed, path);
      for (int block = 0; block < 3; ++block) {
        const uint4 r = curand4(&st);
        const Words4 w = s.next4();
        REQUIRE(w.w[0] == r.x);
        REQUIRE(w.w[1] == r.y);
        REQUIRE(w.w[2] == r.z);
        REQUIRE(w.w[3] == r.w);
      }
      curand_init(seed, path, 0, &st);
      Stream f(seed, path);
      const float4 zc = curand_normal4(&st);
      const auto z = normals<float>(f);
      CHECK(z.z[0] == Approx(zc.x).margin(1e-6));
      CHECK(z.z[1] == Approx(zc.y).margin(1e-6));
      CHECK(z.z[2] == Approx(zc.z).margin(1e-6));
      CHECK(z.z[3] == Approx(zc.w).margin(1e-6));
      curand_init(seed, path, 0, &st);
      Stream d(seed, path);
      const double2 dc = curand_normal2_double(&st);
      const auto zd = normals<double>(d);
      CHECK(zd.z[0] == Approx(dc.x).margin(1e-14));
      CHECK(zd.z[1] == Approx(dc.y).margin(1e-14));
    }
}

TEST_CASE("cuRAND's host generator: its b-th block is block 0 of subsequence b", "[rng][curand]") {
  curandGenerator_t gen;
  REQUIRE(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS);
  REQUIRE(curandSetPseudoRandomGeneratorSeed(gen, 31337) == CURAND_STATUS_SUCCESS);
  std::vector<unsigned int> out(4 * 256);
  REQUIRE(curandGenerate(gen, out.data(), out.size()) == CURAND_STATUS_SUCCESS);
  curandDestroyGenerator(gen);
  for (std::uint64_t b = 0; b < 256; ++b) {
    Stream s(31337, b);
    const Words4 w = s.next4();
    for (int i = 0; i < 4; ++i) REQUIRE(w.w[i] == out[4 * b + i]);
  }
}
