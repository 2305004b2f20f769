// Moments of the variates: a wrong mapping (a bias, a lost factor of 2 pi, a
// mis-ordered word) moves one of these by many standard errors.
#include <catch2/catch.hpp>

#include <cmath>

#include "rng/stream.hpp"

using namespace mcsim::rng;

namespace {
struct Stats {
  double n = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, tail = 0;
  void add(double x) {
    n += 1, s1 += x, s2 += x * x, s3 += x * x * x, s4 += x * x * x * x;
    tail += std::fabs(x) > 1.959963984540054 ? 1 : 0;
  }
};

template <class Real>
Stats normal_stats(std::uint64_t streams) {
  Stats st;
  for (std::uint64_t p = 0; p < streams; ++p) {
    Stream s(2024, p);
    for (int b = 0; b < 2; ++b) {
      const auto z = normals<Real>(s);
      for (int i = 0; i < NormalBlock<Real>::size; ++i) st.add(z.z[i]);
    }
  }
  return st;
}

template <class Real>
void check_normal_moments() {
  const Stats st = normal_stats<Real>(250000);
  const double n = st.n;
  // Standard errors of the sample moments of N(0,1): sqrt(Var/n).
  CHECK(std::fabs(st.s1 / n) < 4 * std::sqrt(1.0 / n));
  CHECK(std::fabs(st.s2 / n - 1.0) < 4 * std::sqrt(2.0 / n));
  CHECK(std::fabs(st.s3 / n) < 4 * std::sqrt(15.0 / n));
  CHECK(std::fabs(st.s4 / n - 3.0) < 4 * std::sqrt(96.0 / n));
  const double p = 0.05;
  CHECK(std::fabs(st.tail / n - p) < 4 * std::sqrt(p * (1 - p) / n));
}
}  // namespace

TEST_CASE("float normals have standard normal moments", "[rng]") { check_normal_moments<float>(); }
TEST_CASE("double normals have standard normal moments", "[rng]") { check_normal_moments<double>(); }

TEST_CASE("uniforms have uniform moments and fill every decile", "[rng]") {
  const std::uint64_t streams = 200000;
  double sf = 0, sf2 = 0, sd = 0, sd2 = 0;
  std::vector<double> bins(10, 0);
  for (std::uint64_t p = 0; p < streams; ++p) {
    Stream s(7, p);
    const Words4 w = s.next4();
    for (int i = 0; i < 4; ++i) {
      const double u = uniform_float(w.w[i]);
      sf += u, sf2 += u * u;
      bins[std::min(9, static_cast<int>(u * 10))] += 1;
    }
    for (int i = 0; i < 4; i += 2) {
      const double u = uniform_double(w.w[i], w.w[i + 1]);
      sd += u, sd2 += u * u;
    }
  }
  const double nf = 4.0 * streams, nd = 2.0 * streams;
  CHECK(std::fabs(sf / nf - 0.5) < 4 * std::sqrt(1.0 / 12 / nf));
  CHECK(std::fabs(sd / nd - 0.5) < 4 * std::sqrt(1.0 / 12 / nd));
  CHECK(std::fabs(sf2 / nf - 1.0 / 3) < 4 * std::sqrt(4.0 / 45 / nf));
  CHECK(std::fabs(sd2 / nd - 1.0 / 3) < 4 * std::sqrt(4.0 / 45 / nd));
  double chi2 = 0;
  for (double b : bins) chi2 += (b - nf / 10) * (b - nf / 10) / (nf / 10);
  CHECK(chi2 < 27.9);  // chi-square, 9 degrees of freedom, p = 0.001
}
