// Exact quantiles in two passes: the k-th smallest and the tail mean from a bin
// histogram and one bin's samples must equal the figures of the fully sorted samples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "reduce/quantile.hpp"

using namespace mcsim;

namespace {

std::vector<double> samples(std::size_t n, std::uint64_t seed) {
  // Skewed and heavy-tailed, with ties: what a portfolio's losses look like.
  std::mt19937_64 rng(seed);
  std::student_t_distribution<double> t(3.0);
  std::vector<double> x(n);
  for (auto& v : x) v = std::round(1e3 * (t(rng) + 0.3 * std::fabs(t(rng)))) / 1e3;
  return x;
}

struct Tail {
  double var, es;
};

// Both passes over `x`: the histogram, then the samples of the bin holding rank k
// and the sum of everything above that bin.
Tail two_passes(const std::vector<double>& x, const reduce::Bins& bins, double level) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(bins.size()), 0);
  for (double v : x) ++counts[static_cast<std::size_t>(bins.of(v))];
  const auto ranks = reduce::level_ranks(level, x.size());
  const auto at = reduce::locate(counts, ranks.k);
  std::vector<double> kept;
  double above = 0;
  for (double v : x) {
    if (bins.of(v) == at.bin) kept.push_back(v);
    if (bins.of(v) > at.bin) above += v;
  }
  std::sort(kept.begin(), kept.end());
  const std::size_t k = ranks.k - at.below - 1;
  for (std::size_t i = k + 1; i < kept.size(); ++i) above += kept[i];
  return {kept[k], reduce::expected_shortfall(level, x.size(), ranks.k, kept[k], above)};
}

Tail sorted(std::vector<double> x, double level) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  const auto k = static_cast<std::size_t>(std::ceil(level * n));
  double tail = (static_cast<double>(k) - level * n) * x[k - 1];
  for (std::size_t i = k; i < x.size(); ++i) tail += x[i];
  return {x[k - 1], tail / ((1 - level) * n)};
}

}  // namespace

TEST_CASE("two passes give the sorted samples' VaR exactly and their ES", "[quantile]") {
  const auto x = samples(200'001, 3);
  for (const reduce::Bins bins : {reduce::Bins{-5, 5, 10}, reduce::Bins{-50, 50, 100000}, reduce::Bins{-1, 0.5, 7},
                                  reduce::Bins{10, 20, 4}})  // the last: the quantiles sit in under- or overflow
    for (double level : {0.5, 0.95, 0.99, 0.999, 0.99999}) {
      INFO("bins [" << bins.lo << ", " << bins.hi << ") x " << bins.bins << ", level " << level);
      const auto a = two_passes(x, bins, level), b = sorted(x, level);
      CHECK(a.var == b.var);
      CHECK(a.es == Approx(b.es).epsilon(1e-12));
    }
}

TEST_CASE("a level whose rank is a whole number and a single sample", "[quantile]") {
  std::vector<double> x(1000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7919) % 1000);  // 0..999 shuffled
  const reduce::Bins bins{0, 1000, 16};
  const auto r = two_passes(x, bins, 0.99);  // k = 990 exactly
  CHECK(r.var == 989);
  CHECK(r.es == 994.5);  // the mean of 990..999
  CHECK(two_passes({4.0}, bins, 0.99).var == 4.0);
  CHECK(two_passes({4.0}, bins, 0.99).es == 4.0);
}

TEST_CASE("bin edges cover the line and the rank band holds the quantile", "[quantile]") {
  const reduce::Bins bins{-1, 3, 8};
  CHECK(bins.low(0) == -INFINITY);
  CHECK(bins.high(0) == -1);
  CHECK(bins.low(1) == -1);
  CHECK(bins.high(8) == 3);
  CHECK(bins.high(9) == INFINITY);
  for (double x : {-7.0, -1.0, -0.5, 0.49, 2.999, 3.0, 1e9}) {
    const int b = bins.of(x);
    CHECK(bins.low(b) <= x);
    CHECK(x < bins.high(b));
  }
  // n = 10^6 at 0.99: k = 990000, band +-1.96 sqrt(9900) = +-195.
  const auto r = reduce::level_ranks(0.99, 1'000'000);
  CHECK(r.k == 990000);
  CHECK(r.lo == 990000 - 196);
  CHECK(r.hi == 990000 + 196);
  // a n an integer: the double nearest a may lie a hair above it (0.9, 0.8, 0.7),
  // and the rank is still a n itself; a hair under, it rounds up as ceil does.
  CHECK(reduce::level_ranks(0.9, 10).k == 9);
  CHECK(reduce::level_ranks(0.8, 115).k == 92);
  CHECK(reduce::level_ranks(0.7, 1000).k == 700);
  CHECK(reduce::level_ranks(0.99, 100).k == 99);
  CHECK(reduce::level_ranks(0.9, 11).k == 10);  // 9.9
  const auto edge = reduce::level_ranks(0.999, 10);
  CHECK(edge.k == 10);
  CHECK(edge.hi == 10);
  CHECK(edge.lo <= 10);
  CHECK_THROWS(reduce::locate({1, 2, 3}, 7));
  CHECK(reduce::locate({1, 2, 3}, 3).bin == 1);
  CHECK(reduce::locate({1, 2, 3}, 4).below == 3);
}
