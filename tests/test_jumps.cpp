// Merton's and Bates's jump models on the CPU backend: Europeans against Merton's
// series and Bates's characteristic function, in float and double, with antithetic
// copies; the jumps' effect is many standard errors (a test that could fail);
// and the refusals of what jumps do not combine with.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "app/run/runner.hpp"
#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;

namespace {
// Crash-like jumps: about one a year, 10% down on average.
const std::string kMerton =
    "run: { name: t, paths: 400_000, seed: 21, chunk_paths: 16384 }\nmodel:\n  type: option\n"
    "  process: { type: gbm, spot: 100, rate: 0.04, dividend: 0.01, volatility: 0.18,\n"
    "             jumps: { intensity: 0.8, mean: -0.1, vol: 0.15 } }\n"
    "  instrument: { type: european, option: put, strike: 90, maturity: 1.5 }\n";
const std::string kBates =
    "run: { name: t, paths: 400_000, seed: 23, chunk_paths: 16384 }\nmodel:\n  type: option\n"
    "  process: { type: heston, spot: 100, rate: 0.03, dividend: 0.0, v0: 0.04, kappa: 2, theta: 0.05, xi: 0.4,\n"
    "             rho: -0.6, jumps: { intensity: 0.5, mean: -0.12, vol: 0.1 } }\n"
    "  instrument: { type: european, option: call, strike: 105, maturity: 1 }\n  steps: 100\n";
}  // namespace

TEST_CASE("Merton European prices agree with Merton's series in one exact step", "[jumps]") {
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"}) {
      INFO(precision << " " << vr);
      const auto r = run_cpu(kMerton, {std::string("run.precision=") + precision,
                                       std::string("model.variance_reduction=") + vr});
      CHECK(reference(r) == Approx(option::merton_price({100, 90, 0.04, 0.01, 0.18, 1.5, false},
                                                        option::Jumps{0.8, -0.1, 0.15})));
      CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
    }
  // Many small steps are the same law: still Merton's price.
  const auto stepped = run_cpu(kMerton, {"model.steps=50", "run.paths=200_000"});
  CHECK(std::fabs(price(stepped).value - reference(stepped)) < 4 * price(stepped).std_error);
  // Without the jumps the put is far cheaper: the test sees them.
  const auto plain = run_cpu(kMerton, {"model.process.jumps.intensity=1e-9"});
  CHECK(std::fabs(price(plain).value - reference(stepped)) > 10 * price(plain).std_error);
}

TEST_CASE("Bates European prices agree with the characteristic function", "[jumps]") {
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    const auto r = run_cpu(kBates, {std::string("run.precision=") + precision});
    const double bates = option::bates_price({100, 105, 0.03, 0.0, 1, 0.04, 2, 0.05, 0.4, -0.6, true},
                                             option::Jumps{0.5, -0.12, 0.1});
    CHECK(reference(r) == Approx(bates));
    // QE's discretisation bias at 100 steps is well below 0.2% of the price.
    CHECK(std::fabs(price(r).value - bates) < 4 * price(r).std_error + 0.002 * bates);
  }
  const auto heston = option::heston_price({100, 105, 0.03, 0.0, 1, 0.04, 2, 0.05, 0.4, -0.6, true});
  const auto r = run_cpu(kBates);
  CHECK(std::fabs(price(r).value - heston) > 8 * price(r).std_error);
}

TEST_CASE("jumps are refused where they do not apply", "[jumps][config]") {
  CHECK(has_line(errors_of(kMerton, {"model.variance_reduction=[control_variate]"}), "control_variate needs process gbm"));
  CHECK(has_line(errors_of(kMerton, {"model.variance_reduction=[sobol]"}), "sobol drives a single GBM asset"));
  CHECK(has_line(errors_of(kMerton, {"model.instrument={type: american, option: put, strike: 90, maturity: 1}"}),
                 "under gbm with jumps mcsim prices european"));
  CHECK(has_line(errors_of(kMerton, {"model.instrument={type: barrier, option: call, strike: 90, maturity: 1, "
                                     "barrier: 80, kind: down-and-out, monitoring: continuous}"}),
                 "continuous monitoring needs GBM's Brownian bridge"));
  CHECK(has_line(errors_of(kMerton, {"model.greeks=[vega]"}), "with jumps"));
  CHECK(has_line(errors_of(kMerton, {"model.process.type=cev", "model.process.sigma=2", "model.process.beta=0.5"}),
                 "jumps join a gbm (Merton) or heston (Bates) process"));
  CHECK(has_line(errors_of(kMerton, {"model.process.jumps.intensity=0"}), "model.process.jumps.intensity"));
}

TEST_CASE("a Merton delta by bumping the spot agrees with the series' difference", "[jumps][greeks]") {
  const auto r = run_cpu(kMerton, {"model.greeks=[delta]"});
  const auto& s = r.scenarios.front();
  const auto delta = std::find_if(s.estimates.begin(), s.estimates.end(), [](const auto& e) { return e.name == "delta"; });
  REQUIRE(delta != s.estimates.end());
  // The same central difference of the closed form (a 1% bump of the spot).
  const option::Jumps j{0.8, -0.1, 0.15};
  const double expected = (option::merton_price({101, 90, 0.04, 0.01, 0.18, 1.5, false}, j) -
                           option::merton_price({99, 90, 0.04, 0.01, 0.18, 1.5, false}, j)) / 2;
  CHECK(std::fabs(delta->value - expected) < 4 * delta->std_error);
  CHECK(delta->std_error < 0.05 * std::fabs(expected));
}
