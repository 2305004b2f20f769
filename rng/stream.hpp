// One random stream per path: cuRAND's Philox4_32_10 sequence as set up by
// curand_init(seed, subsequence, 0): key = seed, counter = (block, subsequence).
// Streams depend on (seed, subsequence) alone, never on the thread that runs them.
#pragma once
#include <cstdint>

#include "rng/hd.hpp"
#include "rng/philox.hpp"

namespace mcsim::rng {

class Stream {
 public:
  // `block`: the first block to draw (0: the stream's start).
  MCSIM_HD Stream(std::uint64_t seed, std::uint64_t subsequence, std::uint64_t block = 0)
      : ctr_{{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
              static_cast<std::uint32_t>(subsequence), static_cast<std::uint32_t>(subsequence >> 32)}},
        k0_(static_cast<std::uint32_t>(seed)),
        k1_(static_cast<std::uint32_t>(seed >> 32)) {}

  MCSIM_HD std::uint64_t subsequence() const {
    return static_cast<std::uint64_t>(ctr_.w[2]) | static_cast<std::uint64_t>(ctr_.w[3]) << 32;
  }
  // The counter: the next block's two words, then the subsequence's two.
  MCSIM_HD Words4 counter() const { return ctr_; }
  MCSIM_HD void set_counter(const Words4& c) { ctr_ = c; }

  // The next block of four 32-bit words (what curand4() returns).
  MCSIM_HD Words4 next4() {
    const Words4 out = philox4x32_10(ctr_, k0_, k1_);
    ctr_.w[0] += 1;
    ctr_.w[1] += ctr_.w[0] == 0 ? 1u : 0u;  // carry: a 64-bit block counter
    return out;
  }

 private:
  Words4 ctr_;
  std::uint32_t k0_, k1_;
};

// Word -> uniform on (0, 1], as curand_uniform() maps it.
constexpr float kTwoPow32Inv = 2.3283064e-10f;  // 2^-32
MCSIM_HD float uniform_float(std::uint32_t x) {
  return static_cast<float>(x) * kTwoPow32Inv + kTwoPow32Inv / 2.0f;
}

// Two words -> uniform on (0, 1) with 53 random bits, as curand_uniform2_double().
constexpr double kTwoPow53Inv = 1.1102230246251565e-16;  // 2^-53
MCSIM_HD double uniform_double(std::uint32_t lo, std::uint32_t hi) {
  const std::uint64_t z = static_cast<std::uint64_t>(lo) ^ (static_cast<std::uint64_t>(hi) << 21);
  return static_cast<double>(z) * kTwoPow53Inv + kTwoPow53Inv / 2.0;
}

// Standard normals from one Philox block by Box-Muller: four in float (two words a
// pair), two in double (four words a pair), as curand_normal4 / curand_normal2_double.
template <class Real>
struct NormalBlock;
template <>
struct NormalBlock<float> {
  static constexpr int size = 4;
  float z[4];
};
template <>
struct NormalBlock<double> {
  static constexpr int size = 2;
  double z[2];
};

template <class Real>
MCSIM_HD void box_muller(Real u, Real angle, Real* z0, Real* z1) {
  Real s, c;
  fast_sincos(angle, &s, &c);
  const Real minus_two_log = Real(-2) * fast_log(u);
  // The fast device logarithm may return a tiny positive value for u just below 1.
  const Real r = sqrt(minus_two_log > Real(0) ? minus_two_log : Real(0));
  *z0 = s * r;
  *z1 = c * r;
}

// Uniforms on (0, 1] in blocks of the normals' size: four floats, or two doubles
// (two words each), from one Philox block.
template <class Real>
MCSIM_HD NormalBlock<Real> uniforms(Stream& s);

template <>
MCSIM_HD NormalBlock<float> uniforms<float>(Stream& s) {
  const Words4 x = s.next4();
  return {{uniform_float(x.w[0]), uniform_float(x.w[1]), uniform_float(x.w[2]), uniform_float(x.w[3])}};
}

template <>
MCSIM_HD NormalBlock<double> uniforms<double>(Stream& s) {
  const Words4 x = s.next4();
  return {{uniform_double(x.w[0], x.w[1]), uniform_double(x.w[2], x.w[3])}};
}

constexpr double kTwoPi = 6.283185307179586;

template <class Real>
MCSIM_HD NormalBlock<Real> normals(Stream& s);

template <>
MCSIM_HD NormalBlock<float> normals<float>(Stream& s) {
  const Words4 x = s.next4();
  constexpr float kAngle = kTwoPow32Inv * static_cast<float>(kTwoPi);
  NormalBlock<float> b;
  box_muller(uniform_float(x.w[0]), x.w[1] * kAngle + kAngle / 2.0f, &b.z[0], &b.z[1]);
  box_muller(uniform_float(x.w[2]), x.w[3] * kAngle + kAngle / 2.0f, &b.z[2], &b.z[3]);
  return b;
}

template <>
MCSIM_HD NormalBlock<double> normals<double>(Stream& s) {
  const Words4 x = s.next4();
  NormalBlock<double> b;
  box_muller(uniform_double(x.w[0], x.w[1]), uniform_double(x.w[2], x.w[3]) * kTwoPi, &b.z[0],
             &b.z[1]);
  return b;
}

// Where a stepped kernel draws its blocks. OneStream: one group's stream, drawn in
// order (the GPU, and the odd groups at a chunk's end). GroupBatch: W consecutive
// groups advancing in step, block by block, each block of group j computed from its
// counter, so a loop over j vectorises (the CPU backend). Both give every group the
// same blocks in the same order, so the paths have the same bits.
struct OneStream {
  Stream& stream;
  template <class Real>
  MCSIM_HD NormalBlock<Real> normals(int) { return mcsim::rng::normals<Real>(stream); }
  template <class Real>
  MCSIM_HD NormalBlock<Real> uniforms(int) { return mcsim::rng::uniforms<Real>(stream); }
  MCSIM_HD void next() {}
};

struct GroupBatch {
  std::uint64_t seed, first, block;
  template <class Real>
  MCSIM_HD NormalBlock<Real> normals(int j) const {
    Stream s(seed, first + static_cast<std::uint64_t>(j), block);
    return mcsim::rng::normals<Real>(s);
  }
  template <class Real>
  MCSIM_HD NormalBlock<Real> uniforms(int j) const {
    Stream s(seed, first + static_cast<std::uint64_t>(j), block);
    return mcsim::rng::uniforms<Real>(s);
  }
  MCSIM_HD void next() { ++block; }
};

}  // namespace mcsim::rng
