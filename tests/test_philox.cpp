// Philox4x32-10 against Random123's published known-answer vectors (kat_vectors,
// "philox4x32 10" lines), and the stream layout against curand_init's definition.
#include <catch2/catch.hpp>

#include <set>

#include "rng/philox.hpp"
#include "rng/stream.hpp"

using namespace mcsim::rng;

namespace {
void require_words(const Words4& got, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  CHECK(got.w[0] == a);
  CHECK(got.w[1] == b);
  CHECK(got.w[2] == c);
  CHECK(got.w[3] == d);
}
}  // namespace

TEST_CASE("philox4x32-10 matches Random123 known answers", "[rng]") {
  require_words(philox4x32_10({{0, 0, 0, 0}}, 0, 0), 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8);
  require_words(philox4x32_10({{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, 0xffffffff, 0xffffffff),
                0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd);
  // Counter = digits of pi, key = more digits of pi.
  require_words(philox4x32_10({{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, 0xa4093822, 0x299f31d0),
                0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1);
}

TEST_CASE("a stream is curand_init with key = seed and counter = block and subsequence", "[rng]") {
  // curand_init(1234, 0, 0); curand4() is Philox with key 1234, counter 0.
  Stream s(1234, 0);
  require_words(s.next4(), 0x2090b348, 0xda7cf0ab, 0x4401906f, 0xcbca470e);
  const std::uint64_t seed = 0x0123456789abcdefULL, sub = 0xfedcba9876543210ULL;
  Stream t(seed, sub);
  t.next4();
  const Words4 second = t.next4();
  const Words4 expect = philox4x32_10({{1, 0, 0x76543210u, 0xfedcba98u}}, 0x89abcdefu, 0x01234567u);
  for (int i = 0; i < 4; ++i) CHECK(second.w[i] == expect.w[i]);
}

TEST_CASE("distinct paths and seeds give distinct streams", "[rng]") {
  std::set<std::uint64_t> firsts;
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL})
    for (std::uint64_t p = 0; p < 2000; ++p) {
      Stream s(seed, p);
      const Words4 w = s.next4();
      firsts.insert((std::uint64_t(w.w[0]) << 32) | w.w[1]);
    }
  CHECK(firsts.size() == 3 * 2000);
}

TEST_CASE("uniform maps stay inside the open-closed unit interval as cuRAND's do", "[rng]") {
  CHECK(uniform_float(0) > 0.0f);
  CHECK(uniform_float(0xffffffffu) == 1.0f);
  CHECK(uniform_double(0, 0) > 0.0);
  CHECK(uniform_double(0xffffffffu, 0xffffffffu) < 1.0);
  CHECK(uniform_double(0, 0) == Approx(std::ldexp(1.0, -54)).epsilon(1e-12));
}
