// The CPU backend prices against Black-Scholes-Merton within 4 standard errors
// (exact GBM step: no discretisation bias), and its answer does not depend on the
// thread count.
#include <catch2/catch.hpp>
#include <omp.h>

#include <cmath>
#include <cstring>

#include "app/run/runner.hpp"
#include "cpu_run.hpp"
#include "models/option/american_path.hpp"
#include "models/option/analytic.hpp"
#include "models/option/lsm.hpp"
#include "models/option/quadrature.hpp"
#include "job_text.hpp"

using namespace mcsim;

TEST_CASE("European and digital prices agree with the closed form", "[option]") {
  for (const char* precision : {"float", "double"})
    for (const char* inst : {"european", "digital"})
      for (const char* opt : {"call", "put"}) {
        INFO(precision << " " << inst << " " << opt);
        const auto r = run_cpu(option_job(inst, opt), {std::string("run.precision=") + precision});
        const auto& e = price(r);
        CHECK(e.samples == 400000);
        CHECK(e.std_error > 0);
        CHECK(std::fabs(e.value - reference(r)) < 4 * e.std_error);
        CHECK(e.std_error < 0.01 * reference(r));  // the error bar is tight enough to mean something
      }
}

TEST_CASE("a wrong model would be caught: shifting volatility moves the price by many standard errors", "[option]") {
  const auto r = run_cpu(option_job("european", "call"), {"model.process.volatility=0.26"});
  // Reference for volatility 0.25 (the job's), estimate for 0.26: must disagree.
  const auto base = run_cpu(option_job("european", "call"));
  CHECK(std::fabs(price(r).value - reference(base)) > 8 * price(r).std_error);
}

TEST_CASE("antithetic pairs are one sample and reduce the variance of a call", "[option]") {
  const auto plain = run_cpu(option_job("european", "call"));
  const auto anti = run_cpu(option_job("european", "call", "  variance_reduction: [antithetic]\n"));
  CHECK(price(anti).samples == 400000);
  CHECK(std::fabs(price(anti).value - reference(anti)) < 4 * price(anti).std_error);
  // For a call the pair correlation is negative: the variance falls by well over 2x here.
  CHECK(price(anti).std_error < 0.75 * price(plain).std_error);
}

TEST_CASE("path counts that are not a multiple of the chunk or the stream group", "[option]") {
  const auto r = run_cpu(option_job("european", "call"), {"run.paths=100_003", "run.chunk_paths=1000"});
  CHECK(price(r).samples == 100003);
  CHECK(r.scenarios.front().chunk_tallies.size() == 101 * r.scenarios.front().tally_layout.size());
  CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
}

TEST_CASE("the CPU result is bitwise the same for 1 and 2 threads", "[option]") {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = run_cpu(option_job("european", "put"), {"run.precision=float"});
  omp_set_num_threads(2);
  const auto two = run_cpu(option_job("european", "put"), {"run.precision=float"});
  omp_set_num_threads(saved);
  const double a = price(one).value, b = price(two).value;
  CHECK(std::memcmp(&a, &b, sizeof a) == 0);
  CHECK(one.scenarios.front().chunk_tallies == two.scenarios.front().chunk_tallies);
}

TEST_CASE("a different seed gives a different and still correct estimate", "[option]") {
  const auto a = run_cpu(option_job("european", "call"));
  const auto b = run_cpu(option_job("european", "call"), {"run.seed=100"});
  CHECK(price(a).value != price(b).value);
  CHECK(std::fabs(price(b).value - reference(b)) < 4 * price(b).std_error);
}

TEST_CASE("pathwise, likelihood-ratio and bumped Greeks agree with their closed forms", "[option][greeks]") {
  // European: delta, gamma, vega, rho on the paths, theta by bump; digital: all by
  // likelihood ratio on the paths.
  for (const char* inst : {"european", "digital"})
    for (const char* opt : {"call", "put"}) {
    INFO(inst << " " << opt);
    const bool digital = std::string(inst) == "digital";
    const auto r = run_cpu(option_job(inst, opt, digital ? "  greeks: [delta, gamma, vega, rho]\n"
                                                         : "  greeks: [delta, gamma, vega, rho, theta]\n"));
    const auto& s = r.scenarios.front();
    REQUIRE(s.estimates.size() == (digital ? 5 : 6));
    REQUIRE(s.references.size() == (digital ? 5 : 6));
    for (const auto& e : s.estimates)
      for (const auto& ref : s.references)
        if (ref.name == e.name) {
          INFO(e.name << " " << e.value << " +- " << e.std_error << " vs " << ref.value);
          CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error);
          CHECK(e.std_error < 0.05 * std::fabs(ref.value));  // tight enough to mean something
        }
    }
}

TEST_CASE("bumped Greeks rerun on the job's devices and count in its time", "[option][greeks]") {
  // Theta is one rerun a day later (delta is pathwise): the one CPU device runs the
  // paths twice, and the rerun's seconds are a stage of their own inside the wall.
  const auto r = run_cpu(option_job("european", "call", "  greeks: [delta, theta]\n"));
  REQUIRE(r.device_times.size() == 1);
  CHECK(r.device_times.front().paths == 2 * r.paths);
  double stages = 0, greeks = -1;
  for (const auto& [stage, s] : r.stage_seconds) {
    stages += s;
    if (stage == "greeks") greeks = s;
  }
  CHECK(greeks >= 0);
  CHECK(r.wall_s >= stages);
  const auto plain = run_cpu(option_job("european", "call", "  greeks: [delta]\n"));
  CHECK(plain.device_times.front().paths == plain.paths);
  for (const auto& [stage, s] : plain.stage_seconds) CHECK(stage != "greeks");
}

TEST_CASE("the Longstaff-Schwartz rule is fitted on its own streams and exercises sensibly", "[option][american]") {
  const option::LsmInput put{36, 40, 0.06, 0.0, 0.2, 1.0, false, 50, 1 << 15, 7};
  const auto a = option::fit_exercise_rule(put), b = option::fit_exercise_rule(put);
  REQUIRE(a.beta.size() == 49 * 4);
  CHECK(std::memcmp(a.beta.data(), b.beta.data(), a.beta.size() * sizeof(double)) == 0);  // the seed alone decides
  auto other = put;
  other.seed = 8;
  CHECK(option::fit_exercise_rule(other).beta != a.beta);
  // The regression paths' own value (biased high) is near the tree's Bermudan value 4.478.
  CHECK(a.in_sample_price == Approx(4.478).margin(0.03));
  // Deep in the money half way (the boundary is near 33), holding a put on is worth
  // less than exercising it; at the money near expiry, holding on is worth more
  // than the nothing exercise pays.
  const double* half = &a.beta[24 * 4];
  CHECK(option::lsm_continuation(half, 30.0 / 40) < 40.0 - 30.0);
  CHECK(option::lsm_continuation(half, 36.0 / 40) > 40.0 - 36.0);
  const double* late = &a.beta[48 * 4];
  CHECK(option::lsm_continuation(late, 1.0) > 0.0);
}

TEST_CASE("a Bermudan put is worth more than the European and no more than the American", "[option][american]") {
  const std::string job =
      "run: { name: t, paths: 200_000, seed: 3, precision: double }\n"
      "model:\n  type: option\n  process: { type: gbm, spot: 36, rate: 0.06, volatility: 0.2 }\n"
      "  instrument: { type: bermudan, exercise_dates: 50, option: put, strike: 40, maturity: 1.0 }\n";
  const auto& e = price(run_cpu(job));
  const double european = option::bsm_price({36, 40, 0.06, 0.0, 0.2, 1.0, false});  // 3.844
  const double american = option::binomial_price({36, 40, 0.06, 0.0, 0.2, 1.0, false}, 4000, true);
  CHECK(e.value > european + 20 * e.std_error);
  CHECK(e.value < american + 4 * e.std_error);
}

TEST_CASE("antithetic runs report the variance reduction their pairs achieved", "[option][antithetic]") {
  // Exact factor for the job's call: Var(a) / (Var(a) + Cov(a, b)), a = f(Z), b = f(-Z),
  // the moments by quadrature (kinks at +-z* are smoothed by many panels).
  const double s0 = 100, k = 105, r = 0.05, q = 0.02, sigma = 0.25, t = 1.5;  // option_job's
  const auto f = [&](double z) {
    return std::exp(-r * t) *
           std::max(0.0, s0 * std::exp((r - q - 0.5 * sigma * sigma) * t + sigma * std::sqrt(t) * z) - k);
  };
  const auto moment = [&](auto g) {
    return option::integrate(-10, 10, 4000, [&](double z) { return option::normal_pdf(z) * g(z); });
  };
  const double p = moment(f), second = moment([&](double z) { return f(z) * f(z); });
  const double cross = moment([&](double z) { return f(z) * f(-z); });
  const double exact = (second - p * p) / (second - p * p + cross - p * p);
  const auto r1 = run_cpu(option_job("european", "call", "  variance_reduction: [antithetic]\n"),
                          {"run.precision=double"});
  double factor = 0;
  for (const auto& [name, value] : r1.scenarios.front().diagnostics)
    if (name == "antithetic_variance_reduction_factor") factor = value;
  CHECK(exact > 1.3);  // pairs of a call help
  CHECK(factor == Approx(exact).epsilon(0.03));
  // Without antithetics nothing is claimed.
  for (const auto& d : run_cpu(option_job("european", "call", "")).scenarios.front().diagnostics)
    CHECK(d.first != "antithetic_variance_reduction_factor");
}

TEST_CASE("a basket's antithetic pairs report what they gained, from the first path of each pair", "[option][antithetic][basket]") {
  const std::string job =
      "run: { name: t, paths: 200_000, seed: 5, precision: double }\nmodel:\n  type: option\n"
      "  process:\n    rate: 0.05\n    assets: [{ name: A, spot: 100, volatility: 0.3 }, { name: B, spot: 90, volatility: 0.2 }]\n"
      "    correlation: [[1, 0.6], [0.6, 1]]\n"
      "  instrument: { type: basket, payoff: average, option: call, strike: 95, maturity: 1 }\n"
      "  variance_reduction: [antithetic]\n";
  const auto r = run_cpu(job);
  double factor = 0;
  for (const auto& [name, value] : r.scenarios.front().diagnostics)
    if (name == "antithetic_variance_reduction_factor") factor = value;
  // A call at the money on an average of lognormals: its pairs remove much of the variance.
  CHECK(factor > 1.5);
  CHECK(factor < 20);
}
