// Walked baskets (BasketExercisePath): Heston assets and early exercise on several
// assets, on the CPU backend. Their prices against the closed forms and trees of the
// cases that have one (one asset; a European on two GBM assets), their path Greeks
// against the two-asset closed form's differences and against bump and revalue on
// the same random numbers, and the keys that choose them.
#include <catch2/catch.hpp>

#include <cmath>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "greek_checks.hpp"

using namespace mcsim;
using namespace mcsim::test;

namespace {
std::string walked_job(const std::string& process, const std::string& assets, const std::string& correlation,
                       const std::string& instrument, const std::string& paths = "400_000") {
  return "run: { name: t, paths: " + paths + ", seed: 53, chunk_paths: 16384, precision: double }\nmodel:\n  type: option\n"
         "  process:\n    type: " + process + "\n    rate: 0.03\n    assets: " + assets + "\n    correlation: " +
         correlation + "\n  instrument: " + instrument + "\n";
}
const std::string kHestonA = "{ name: A, spot: 100, dividend: 0.01, v0: 0.04, kappa: 1.5, theta: 0.05, xi: 0.5, rho: -0.6 }";
const std::string kHestonB = "{ name: B, spot: 95, v0: 0.06, kappa: 2, theta: 0.04, xi: 0.4, rho: -0.4 }";
const std::string kHestonC = "{ name: C, spot: 105, dividend: 0.02, v0: 0.03, kappa: 1, theta: 0.04, xi: 0.3, rho: -0.7 }";
const std::string kThreeHeston = "[" + kHestonA + ", " + kHestonB + ", " + kHestonC + "]";
const std::string kThreeCorrelations = "[[1, 0.5, 0.3], [0.5, 1, 0.4], [0.3, 0.4, 1]]";
const std::string kTwoGbm = "[{ name: A, spot: 100, volatility: 0.3, dividend: 0.02 }, { name: B, spot: 90, volatility: 0.2 }]";

bool within(const io::Results& r, double sigmas = 4) {
  const auto& ref = r.scenarios.front().references.front();
  INFO("price " << price(r).value << " +- " << price(r).std_error << ", reference " << ref.value << " +- " << ref.tolerance);
  return std::fabs(price(r).value - ref.value) <= sigmas * price(r).std_error + ref.tolerance;
}
}  // namespace

TEST_CASE("a walked basket of one asset prices as that asset's option", "[basket-steps]") {
  // Heston: the characteristic-function price of the call on w S; QE's bias at 100
  // steps a year is well inside these errors (validation/heston.yaml).
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    const auto heston = run_cpu(walked_job("heston", "[" + kHestonA + "]", "[[1]]",
                                           "{ type: basket, payoff: average, weights: [2], option: call, strike: 210, maturity: 1 }"),
                                {std::string("run.precision=") + precision});
    REQUIRE(!heston.scenarios.front().references.empty());
    CHECK(within(heston));
  }
  // GBM with early exercise: the binomial tree on the same dates (LSM's low bias in its tolerance).
  const auto bermudan = run_cpu(walked_job("gbm", "[{ name: A, spot: 100, volatility: 0.3, dividend: 0.01 }]", "[[1]]",
                                           "{ type: bermudan, exercise_dates: 10, payoff: average, option: put, strike: 105, maturity: 1 }"));
  REQUIRE(!bermudan.scenarios.front().references.empty());
  CHECK(within(bermudan));
  // Exercise must be worth something here: well above the European put (13.48).
  CHECK(price(bermudan).value > 13.6);
}

TEST_CASE("a walked European on two GBM assets agrees with the two-asset closed form, Greeks included",
          "[basket-steps][greeks]") {
  // One exercise date: a European, walked in 8 steps (exact GBM steps), its
  // correlation pathwise through the spots' shocks summed over them.
  for (const char* instrument :
       {"{ type: bermudan, exercise_dates: 1, payoff: exchange, option: call, maturity: 1 }",
        "{ type: bermudan, exercise_dates: 1, payoff: max, option: call, strike: 100, maturity: 1 }"})
    for (const char* precision : {"float", "double"}) {
      INFO(instrument << " " << precision);
      const auto r = run_cpu(walked_job("gbm", kTwoGbm, "[[1, 0.6], [0.6, 1]]", instrument) + "  steps: 8\n",
                             {"model.greeks=[delta, gamma, vega, rho, dividend_rho, correlation]",
                              std::string("run.precision=") + precision});
      CHECK(within(r));
      check_run_against_references(r, {"delta_A", "delta_B", "gamma_A", "gamma_B", "rho", "dividend_rho_A",
                                       "dividend_rho_B", "correlation_A_B", "vega_A", "vega_B"});
    }
}

TEST_CASE("a Heston basket's path Greeks agree with bump and revalue on the same random numbers", "[basket-steps][greeks]") {
  const std::vector<std::string> greeks{"delta_A", "delta_B", "delta_C", "gamma_A", "gamma_B", "gamma_C",
                                        "vega_A", "vega_B", "vega_C", "rho", "dividend_rho_A", "dividend_rho_C",
                                        "correlation_A_B", "correlation_A_C", "correlation_B_C"};
  const std::string asked = "model.greeks=[delta, gamma, vega, rho, dividend_rho, correlation]";
  // A European (unbiased on the path) and a Bermudan, whose exercise dates the path
  // holds while the bump refits the rule: equal to first order (smooth pasting).
  // Three assets whose variances' shocks are correlated through their spots' (rho_a
  // rho_b C_ab): a correlation Greek that held the variance paths without their
  // likelihood ratio misses 0.25 of correlation_A_C's 0.92 here.
  check_job_against_bumps(walked_job("heston", kThreeHeston, kThreeCorrelations,
                                     "{ type: basket, payoff: average, option: call, strike: 100, maturity: 1 }", "200_000") +
                              "  steps: 12\n",
                          asked, greeks);
  check_job_against_bumps(walked_job("heston", kThreeHeston, kThreeCorrelations,
                                     "{ type: bermudan, exercise_dates: 4, payoff: min, option: put, strike: 95, maturity: 1 }",
                                     "200_000") + "  steps: 12\n",
                          asked, greeks);
}

TEST_CASE("a Heston basket's vegas are scored on the path, in each asset's initial volatility", "[basket-steps][greeks]") {
  // Under Euler's scheme too (the comparison with bump is QE's above), and a put on
  // the minimum, which gains from any asset's volatility.
  for (const char* scheme : {"qe", "euler"}) {
    INFO(scheme);
    const auto r = run_cpu(walked_job("heston", kThreeHeston, kThreeCorrelations,
                                      "{ type: bermudan, exercise_dates: 4, payoff: min, option: put, strike: 95, maturity: 1 }",
                                      "100_000") +
                               "  steps: 12\n",
                           {"model.greeks=[vega, delta]", std::string("model.process.scheme=") + scheme});
    for (const char* g : {"vega_A", "vega_B", "vega_C"}) {
      INFO(g);
      CHECK(!bumped(r, g));
      CHECK(estimate(r, g)->value > 4 * estimate(r, g)->std_error);
    }
  }
}

TEST_CASE("walked baskets' keys are checked", "[basket-steps][config]") {
  const std::string european = "{ type: basket, payoff: average, option: call, strike: 100, maturity: 1 }";
  const std::string bermudan = "{ type: bermudan, exercise_dates: 4, payoff: average, option: put, strike: 100, maturity: 1 }";
  CHECK(has_line(errors_of(walked_job("heston", "[{ name: A, spot: 100, v0: 0.04, kappa: 1, theta: 0.04, xi: 0.3 }]",
                                      "[[1]]", european)),
                 "rho"));
  CHECK(has_line(errors_of(walked_job("heston", kThreeHeston, kThreeCorrelations, bermudan) + "  steps: 10\n"),
                 "steps must be a multiple"));
  CHECK(has_line(errors_of(walked_job("heston", kThreeHeston, kThreeCorrelations, european),
                           {"model.variance_reduction=[antithetic]"}),
                 "antithetic pairs serve a basket paid at maturity under gbm"));
  CHECK(has_line(errors_of(walked_job("heston", kThreeHeston, kThreeCorrelations, european), {"model.process.v0=0.04"}),
                 "each asset has its own v0"));
  CHECK(has_line(errors_of(walked_job("cev", kTwoGbm, "[[1, 0.2], [0.2, 1]]", european)),
                 "several assets move under gbm or heston"));
  CHECK(has_line(errors_of(walked_job("gbm", kTwoGbm, "[[1, 0.2], [0.2, 1]]",
                                      "{ type: asian, fixings: 4, option: call, strike: 100, maturity: 1 }")),
                 "several assets price a basket"));
}
