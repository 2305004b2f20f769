// Scrambled Sobol points: the net properties of the table and of its scramblings,
// the normal quantile, and Sobol-driven option prices with honest error bars.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <vector>

#include "app/run/runner.hpp"
#include "io/config.hpp"
#include "io/diagnostics.hpp"
#include "models/option/analytic.hpp"
#include "rng/sobol.hpp"

using namespace mcsim;

namespace {

constexpr int kBits = 10, kPoints = 1 << kBits;

// Points of dimension d, scrambled by `key` (or not, key = 0 and scramble = false).
std::vector<std::uint32_t> points(int d, bool scramble, std::uint32_t key) {
  const auto& t = rng::sobol_directions();
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < kPoints; ++i) {
    const std::uint32_t y = rng::sobol_word(t.v[d], i, kBits);
    out.push_back(scramble ? rng::owen_scramble(y, key, kBits) : y);
  }
  return out;
}

// Every box of 2^a x 2^(kBits - a) equal intervals holds exactly one point.
bool is_zero_net(const std::vector<std::uint32_t>& x, const std::vector<std::uint32_t>& y) {
  for (int a = 0; a <= kBits; ++a) {
    std::set<std::uint64_t> boxes;
    for (std::size_t i = 0; i < x.size(); ++i)
      boxes.insert((a ? std::uint64_t{x[i] >> (32 - a)} << 32 : 0) | (a < kBits ? y[i] >> (32 - (kBits - a)) : 0));
    if (boxes.size() != x.size()) return false;
  }
  return true;
}

bool stratified(const std::vector<std::uint32_t>& x) {
  std::set<std::uint32_t> cells;
  for (auto v : x) cells.insert(v >> (32 - kBits));
  return cells.size() == x.size();
}

}  // namespace

TEST_CASE("every Sobol dimension puts one point in each interval, and dimensions 0 and 1 form a (0,m,2)-net", "[sobol]") {
  for (int d = 0; d < rng::kSobolDims; ++d) {
    INFO("dimension " << d);
    CHECK(stratified(points(d, false, 0)));
  }
  CHECK(is_zero_net(points(0, false, 0), points(1, false, 0)));
  CHECK(rng::sobol_pair_t(rng::sobol_directions(), 0, 1, 14) == 0);
}

TEST_CASE("the chosen direction numbers give good two-dimensional projections", "[sobol]") {
  // A net's t-value: boxes of area 2^(t - m) hold 2^t points each. The greedy choice
  // keeps the leading dimensions, which the Brownian bridge loads most, near 0.
  const auto& t = rng::sobol_directions();
  int worst_leading = 0, total = 0;
  for (int a = 0; a < rng::kSobolDims; ++a)
    for (int b = a + 1; b < rng::kSobolDims; ++b) {
      const int v = rng::sobol_pair_t(t, a, b, kBits);
      total += v;
      if (b < 8) worst_leading = std::max(worst_leading, v);
    }
  CHECK(worst_leading <= 4);
  CHECK(total <= 3 * 496);  // a mean t of at most 3 over the 496 pairs
}

TEST_CASE("Owen scrambling keeps the net and makes each point uniform", "[sobol]") {
  for (std::uint32_t key : {1u, 0xdeadbeefu, rng::scramble_key(42, 3, 1)}) {
    const auto x = points(0, true, key), y = points(1, true, key ^ 0x5bd1e995u);
    CHECK(stratified(x));
    CHECK(is_zero_net(x, y));
    CHECK(x != points(0, false, 0));
  }
  // Point 0 (the origin before scrambling) over many scramblings: uniform on (0, 1).
  double sum = 0, sum_sq = 0;
  constexpr int n = 20000;
  for (int r = 0; r < n; ++r) {
    const double u = rng::scrambled_uniform(rng::sobol_directions().v[2], 0, kBits, rng::scramble_key(7, r, 2));
    sum += u, sum_sq += u * u;
  }
  CHECK(std::fabs(sum / n - 0.5) < 4 * std::sqrt(1.0 / 12 / n));
  CHECK(std::fabs(sum_sq / n - 1.0 / 3) < 0.01);
}

TEST_CASE("the normal quantile inverts Phi to full double precision, tails included", "[sobol]") {
  for (double u : {1e-300, 1e-12, 2.3e-10, 1e-5, 0.01, 0.2, 0.4999, 0.5, 0.51, 0.9, 0.999, 1 - 1e-9}) {
    const double x = rng::inverse_normal(u);
    const double p = u < 0.5 ? 0.5 * std::erfc(-x / std::sqrt(2.0)) : 0.5 * std::erfc(x / std::sqrt(2.0));
    INFO("u = " << u << ", x = " << x);
    CHECK(std::fabs(p - std::min(u, 1 - u)) <= 1e-13 * std::min(u, 1 - u));
  }
  CHECK(rng::inverse_normal(0.975) == Approx(1.959963984540054).epsilon(1e-14));
}

namespace {
io::Results run_sobol(const std::string& instrument, std::uint64_t seed, const std::string& extra = "") {
  const std::string text =
      "run: { name: s, paths: 65536, chunk_paths: 4096, seed: " + std::to_string(seed) +
      ", backend: cpu }\nmodel:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.02, volatility: 0.25 }\n"
      "  instrument: " + instrument + "\n  variance_reduction: [sobol" + extra + "]\n";
  RunOptions opt;
  opt.progress = false;
  return run_job(io::load_job_text(text, "s.yaml"), opt);
}
double diagnostic(const io::ScenarioResult& s, const std::string& name) {
  for (const auto& [n, v] : s.diagnostics)
    if (n == name) return v;
  return std::nan("");
}
}  // namespace

TEST_CASE("Sobol prices are unbiased and their error bars, from 16 scramblings, are honest", "[sobol][option]") {
  // A geometric Asian on 48 fixings: 32 coarse points from Sobol, 16 steps filled
  // by the bridge. Over 24 seeds the errors, in units of the stated standard error,
  // must have a mean square near 1 (chi-square with 24 degrees of freedom: 0.42 to
  // 1.76 holds 99% of its mass).
  const std::string inst = "{ type: asian, average: geometric, fixings: 48, option: call, strike: 100, maturity: 1 }";
  option::BsmInput in{100, 100, 0.05, 0.02, 0.25, 1, true};
  std::vector<double> times;
  for (int i = 1; i <= 48; ++i) times.push_back(i / 48.0);
  const double exact = option::geometric_asian_price(in, times);
  double z2 = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const auto r = run_sobol(inst, seed);
    const auto& e = r.scenarios.front().estimates.front();
    z2 += std::pow((e.value - exact) / e.std_error, 2) / 24;
    CHECK(e.samples == 65536);
    CHECK(diagnostic(r.scenarios.front(), "scramblings") == 16);
    // Plain Monte Carlo on 65536 paths has a standard error near 0.03.
    CHECK(diagnostic(r.scenarios.front(), "sobol_variance_reduction_factor") > 30);
  }
  CHECK(z2 > 0.42);
  CHECK(z2 < 1.76);
}

TEST_CASE("Sobol points price a European to its closed form far beyond plain Monte Carlo", "[sobol][option]") {
  const auto r = run_sobol("{ type: european, option: put, strike: 110, maturity: 2 }", 5);
  const auto& e = r.scenarios.front().estimates.front();
  const double exact = option::bsm_price({100, 110, 0.05, 0.02, 0.25, 2, false});
  CHECK(std::fabs(e.value - exact) < 4 * e.std_error);
  CHECK(e.std_error < 2e-3);  // plain: about 0.05
  CHECK(diagnostic(r.scenarios.front(), "variance_reduction_factor") > 500);
}

TEST_CASE("Sobol with the geometric control prices the arithmetic Asian", "[sobol][option][cv]") {
  // The reference is validation/path-dependent.yaml's monthly call: 6.683198809 +- 3.5e-5.
  const std::string text =
      "run: { name: s, paths: 262144, seed: 3, backend: cpu }\nmodel:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.02, volatility: 0.25 }\n"
      "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }\n"
      "  variance_reduction: [sobol, control_variate]\n";
  RunOptions opt;
  opt.progress = false;
  const auto r = run_job(io::load_job_text(text, "s.yaml"), opt);
  const auto& s = r.scenarios.front();
  CHECK(r.chunk_paths == 8192);  // the default: 32 scramblings
  const auto& e = s.estimates.front();
  CHECK(e.name == "price");
  CHECK(std::fabs(e.value - 6.683198809) < 4 * std::hypot(e.std_error, 3.5e-5));
  CHECK(diagnostic(s, "variance_reduction_factor") > diagnostic(s, "sobol_variance_reduction_factor"));
}

TEST_CASE("Sobol keys are checked", "[sobol][config]") {
  const auto fails = [](const std::string& run, const std::string& model, const std::string& expect) {
    const std::string text = "run: { name: s, " + run + " }\nmodel:\n  type: option\n"
                             "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.25 }\n" + model;
    try {
      io::load_job_text(text, "s.yaml");
    } catch (const io::ConfigError& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find(expect) != std::string::npos);
      return;
    }
    FAIL("no config error for: " << text);
  };
  const std::string asian =
      "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }\n"
      "  variance_reduction: [sobol]\n";
  fails("paths: 1000000", asian, "s.yaml:1:");                 // no power-of-two chunks divide it
  fails("paths: 1048576, chunk_paths: 3072", asian, "chunk_paths");
  fails("paths: 16384, chunk_paths: 4096", asian, "paths");    // 4 scramblings: too few
  fails("paths: 1048576", "  instrument: { type: digital, option: call, strike: 100, maturity: 1 }\n"
        "  variance_reduction: [sobol]\n", "variance_reduction");
  fails("paths: 1048576",
        "  instrument: { type: asian, average: arithmetic, times: [0.5, 1], option: call, strike: 100, maturity: 1 }\n"
        "  variance_reduction: [sobol]\n", "times");
  fails("paths: 1048576",
        "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }\n"
        "  variance_reduction: [sobol, antithetic]\n", "antithetic");
}
