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

// Both passes over `x`.
reduce::TailFigures two_passes(const std::vector<double>& x, const reduce::Bins& bins, double level) {
  std::vector<double> tally(2 * bins.size(), 0.0);
  for (double v : x) reduce::histogram_add(bins, v, tally.data());
  const auto slot = reduce::locate_quantiles(bins, tally, {level}).front();
  std::vector<double> kept;
  for (double v : x)
    if (bins.of(v) == slot.bin) kept.push_back(v);
  return reduce::exact_tail(slot, kept, x.size());
}

reduce::TailFigures sorted(std::vector<double> x, double level) {
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

TEST_CASE("histogram tallies add, and the second pass must find what the first counted", "[quantile]") {
  const auto x = samples(10'000, 8);
  const reduce::Bins bins{-3, 3, 64};
  std::vector<double> whole(2 * bins.size(), 0.0), first(whole), second(whole);
  for (std::size_t i = 0; i < x.size(); ++i) {
    reduce::histogram_add(bins, x[i], whole.data());
    reduce::histogram_add(bins, x[i], (i < 4000 ? first : second).data());
  }
  for (std::size_t i = 0; i < whole.size(); i += 2) CHECK(first[i] + second[i] == whole[i]);
  const auto slot = reduce::locate_quantiles(bins, whole, {0.95}).front();
  CHECK_THROWS_WITH(reduce::exact_tail(slot, {1.0}, x.size()), Catch::Contains("the first counted"));
}
