// Forward-start options and cliquets on the CPU backend: against Rubinstein's
// formula and the local cliquet's sum of call spreads, in float and double, with
// antithetic copies and on market curves; a global bound's effect is seen; and the
// refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "app/run/runner.hpp"
#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;

namespace {
const std::string kGbm =
    "run: { name: t, paths: 400_000, seed: 31, chunk_paths: 16384 }\nmodel:\n  type: option\n"
    "  process: { type: gbm, spot: 100, rate: 0.03, dividend: 0.01, volatility: 0.25 }\n";
const std::string kForward = kGbm + "  instrument: { type: forward_start, option: call, moneyness: 1.05, start: 0.5, maturity: 1.5 }\n";
const std::string kCliquet =
    kGbm + "  instrument: { type: cliquet, resets: 4, maturity: 2, local_floor: -0.03, local_cap: 0.05 }\n";
}  // namespace

TEST_CASE("forward-start options agree with Rubinstein's formula", "[periodic]") {
  CHECK(option::forward_start_price({100, 1.05, 0.03, 0.01, 0.25, 1.5, true}, 0.5) ==
        Approx(reference(run_cpu(kForward, {"run.paths=16384"}))));
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"}) {
      INFO(precision << " " << vr);
      const auto r = run_cpu(kForward, {std::string("run.precision=") + precision,
                                        std::string("model.variance_reduction=") + vr, "model.instrument.option=put"});
      CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
    }
  // Struck at the spot today instead of at the start: a different price, and seen.
  const auto today = run_cpu(kForward, {"model.instrument.start=1e-6"});
  CHECK(std::fabs(price(today).value - reference(run_cpu(kForward, {"run.paths=16384"}))) > 8 * price(today).std_error);
}

TEST_CASE("cliquets with local bounds agree with their call spreads and global bounds are seen", "[periodic]") {
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"}) {
      INFO(precision << " " << vr);
      const auto r = run_cpu(kCliquet, {std::string("run.precision=") + precision,
                                        std::string("model.variance_reduction=") + vr});
      CHECK(reference(r) == Approx(option::cliquet_price({100, 0, 0.03, 0.01, 0.25, 2, true}, {0.5, 1, 1.5, 2}, -0.03, 0.05)));
      CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
    }
  // Given reset times, unequal.
  const auto times = run_cpu(kCliquet, {"model.instrument={type: cliquet, times: [0.25, 1, 2], maturity: 2, local_cap: 0.1}"});
  CHECK(reference(times) == Approx(option::cliquet_price({100, 0, 0.03, 0.01, 0.25, 2, true}, {0.25, 1, 2}, -1, 0.1)));
  CHECK(std::fabs(price(times).value - reference(times)) < 4 * price(times).std_error);
  // A global floor of zero pays at least nothing: dearer by many standard errors, and no closed form.
  const auto floored = run_cpu(kCliquet, {"model.instrument.global_floor=0"});
  CHECK(floored.scenarios.front().references.empty());
  const auto plain = run_cpu(kCliquet);
  CHECK(price(floored).value - price(plain).value > 8 * price(floored).std_error);
  // Struck on market curves, the periods step on the curves' forwards.
  const auto curves = run_cpu(
      "run: { name: t, paths: 100_000, seed: 3, chunk_paths: 16384 }\nmodel:\n  type: option\n"
      "  market: { discount: { times: [1, 2], zero_rates: [0.02, 0.04] } }\n"
      "  process: { type: gbm, spot: 100, volatility: 0.25 }\n"
      "  instrument: { type: cliquet, resets: 4, maturity: 2, local_floor: -0.03, local_cap: 0.05 }\n");
  CHECK(price(curves).value > 0);
}

TEST_CASE("forward starts and cliquets are refused where they do not apply", "[periodic][config]") {
  CHECK(has_line(errors_of(kCliquet, {"model.instrument.option=call"}), "a cliquet pays its bounded returns"));
  CHECK(has_line(errors_of(kForward, {"model.instrument.start=2"}), "the strike is set before the maturity"));
  CHECK(has_line(errors_of(kCliquet, {"model.steps=10"}), "a cliquet to its resets"));
  CHECK(has_line(errors_of(kCliquet, {"model.instrument.local_cap=-0.05"}), "below local_floor"));
  CHECK(has_line(errors_of(kCliquet, {"model.instrument.times=[0.5, 1]"}), "give resets or times"));
  CHECK(has_line(errors_of(kCliquet, {"model.variance_reduction=[sobol]"}), "sobol drives"));
  CHECK(has_line(errors_of(kForward, {"model.variance_reduction=[control_variate]"}), "control_variate needs"));
  CHECK(has_line(errors_of(kGbm + "  instrument: { type: cliquet, resets: 4, maturity: 2 }\n",
                           {"model.process={type: heston, spot: 100, v0: 0.04, kappa: 2, theta: 0.04, xi: 0.3, rho: -0.5}"}),
                 "under heston mcsim prices european"));
}

TEST_CASE("a forward start's bumped delta is its price over the spot", "[periodic][greeks]") {
  // Rubinstein's price is linear in the spot: delta = price / S.
  const auto r = run_cpu(kForward, {"model.greeks=[delta]"});
  const auto& s = r.scenarios.front();
  const auto delta = std::find_if(s.estimates.begin(), s.estimates.end(), [](const auto& e) { return e.name == "delta"; });
  REQUIRE(delta != s.estimates.end());
  const double expected = option::forward_start_price({100, 1.05, 0.03, 0.01, 0.25, 1.5, true}, 0.5) / 100;
  CHECK(std::fabs(delta->value - expected) < 4 * delta->std_error + 1e-9);
}
