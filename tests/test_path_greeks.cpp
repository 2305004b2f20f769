// Greeks that stepped GBM paths, Bermudans and baskets score in the pass that
// prices them (pathwise, or by likelihood ratio where the payoff jumps), on the CPU
// backend: against central differences of the closed forms where there are closed
// forms, and against bump and revalue on the same random numbers elsewhere; and the
// keys that choose them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "greek_checks.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;
using namespace mcsim::test;

namespace {
const std::string kGbm =
    "run: { name: t, paths: 400_000, seed: 41, chunk_paths: 16384, precision: double }\nmodel:\n  type: option\n"
    "  process: { type: gbm, spot: 100, rate: 0.04, dividend: 0.015, volatility: 0.3 }\n";
const std::string kAll = "model.greeks=[delta, gamma, vega, rho, dividend_rho]";

// The same for a GBM instrument, in float and double, plain and antithetic.
void check_against_references(const std::string& instrument, const std::vector<std::string>& greeks,
                              const std::vector<std::string>& by_bump = {}) {
  std::string list;
  for (const auto& g : greeks) list += (list.empty() ? "" : ", ") + g;
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"}) {
      INFO(instrument << " " << precision << " " << vr);
      const auto r = run_cpu(kGbm + instrument, {std::string("run.precision=") + precision,
                                                 std::string("model.variance_reduction=") + vr, "model.greeks=[" + list + "]"});
      for (const auto& g : greeks) CHECK(estimate(r, g)->std_error > 0);
      check_run_against_references(r, greeks, by_bump);
    }
}

void check_against_bumps(const std::string& instrument, const std::vector<std::string>& greeks) {
  check_job_against_bumps(kGbm + instrument, kAll, greeks);
}
}  // namespace

TEST_CASE("path Greeks of Asians, forward starts and cliquets agree with their closed forms", "[greeks]") {
  check_against_references("  instrument: { type: asian, average: geometric, fixings: 12, option: call, strike: 100, maturity: 1 }\n",
                           {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_against_references("  instrument: { type: asian, average: geometric, times: [0.2, 0.7, 1.5], option: put, strike: 95, maturity: 1.5 }\n",
                           {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_against_references("  instrument: { type: forward_start, option: call, moneyness: 1.05, start: 0.5, maturity: 1.5 }\n",
                           {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_against_references("  instrument: { type: cliquet, resets: 4, maturity: 2, local_floor: -0.03, local_cap: 0.05 }\n",
                           {"vega", "rho", "dividend_rho"});
}

TEST_CASE("path Greeks of continuous barriers and lookbacks agree with their closed forms, their gamma bumped",
          "[greeks]") {
  check_against_references(
      "  instrument: { type: barrier, option: call, strike: 100, maturity: 1, barrier: 85, kind: down-and-out, monitoring: continuous, rebate: 2 }\n  steps: 50\n",
      {"delta", "gamma", "vega", "rho", "dividend_rho"}, {"gamma"});
  check_against_references(
      "  instrument: { type: barrier, option: put, strike: 100, maturity: 1, barrier: 115, kind: up-and-in, monitoring: continuous }\n  steps: 50\n",
      {"delta", "vega", "rho", "dividend_rho"});
  check_against_references(
      "  instrument: { type: lookback, strike_type: floating, option: call, maturity: 1, monitoring: continuous }\n  steps: 50\n",
      {"delta", "vega", "rho", "dividend_rho"});
  check_against_references(
      "  instrument: { type: lookback, strike_type: fixed, option: put, strike: 95, maturity: 1, monitoring: continuous }\n  steps: 50\n",
      {"delta", "gamma", "vega", "rho", "dividend_rho"}, {"gamma"});
}

TEST_CASE("a cliquet's path delta is nothing, as its price does not move with the spot", "[greeks]") {
  const auto r = run_cpu(kGbm + "  instrument: { type: cliquet, resets: 4, maturity: 2, local_cap: 0.05 }\n", {kAll});
  CHECK(estimate(r, "delta")->value == 0);
  CHECK(estimate(r, "gamma")->value == 0);
  CHECK(std::fabs(estimate(r, "vega")->value) > 10 * estimate(r, "vega")->std_error);
}

TEST_CASE("path Greeks without a closed form agree with bump and revalue on the same random numbers", "[greeks]") {
  // Pathwise: an arithmetic average, a discrete lookback.
  check_against_bumps("  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 105, maturity: 1 }\n",
                      {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_against_bumps("  instrument: { type: lookback, strike_type: fixed, option: call, strike: 110, maturity: 1 }\n  steps: 12\n",
                      {"delta", "vega", "rho", "dividend_rho"});
  // Struck at the spot, the paths that never rise above it (a sixth here) sit on the
  // kink the price has in S_0: they score the mean of its one-sided slopes, which
  // strikes a hair above and below the spot give (the same paths, up to the few
  // whose extreme falls between).
  for (const char* option : {"call", "put"}) {
    INFO(option);
    const auto delta_at = [&](const char* strike) {
      return estimate(run_cpu(kGbm + "  instrument: { type: lookback, strike_type: fixed, option: " + option + ", strike: " + strike +
                                  ", maturity: 1 }\n  steps: 12\n",
                              {kAll}),
                      "delta")->value;
    };
    const double at = delta_at("100"), above = delta_at("100.0001"), below = delta_at("99.9999");
    CHECK(std::fabs(above - below) > 0.05);  // the kink's jump in slope
    CHECK(at == Approx(0.5 * (above + below)).margin(1e-4));
  }
  // Likelihood ratio: discretely watched barriers, whose payoffs jump.
  check_against_bumps(
      "  instrument: { type: barrier, option: call, strike: 100, maturity: 1, barrier: 120, kind: up-and-out, rebate: 1 }\n  steps: 12\n",
      {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_against_bumps(
      "  instrument: { type: barrier, option: put, strike: 105, maturity: 1, barrier: 90, kind: down-and-in }\n  steps: 24\n",
      {"delta", "gamma", "vega", "rho", "dividend_rho"});
}

TEST_CASE("under a volatility term structure the path scores every Greek pathwise, a likelihood ratio bumps the rates",
          "[greeks]") {
  const std::string job =
      "run: { name: t, paths: 400_000, seed: 43, chunk_paths: 16384, precision: double }\nmodel:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.04, dividend: 0.015, volatility: { times: [0.5, 1], values: [0.3, 0.22] } }\n";
  // Pathwise: each step's length and volatility tangent come from the step table.
  // Without them the rho was -12.47 here against bump's +32.11.
  for (const std::string instrument :
       {"  instrument: { type: asian, fixings: 12, option: call, strike: 100, maturity: 1.5 }\n",
        "  instrument: { type: forward_start, start: 0.4, moneyness: 1, option: call, maturity: 1.5 }\n"})
    check_job_against_bumps(job + instrument, kAll, {"delta", "gamma", "vega", "rho", "dividend_rho"});
  // A discrete barrier's likelihood ratio weighs the one flat sigma.
  const std::string barrier = job +
      "  instrument: { type: barrier, option: call, strike: 100, maturity: 1.5, barrier: 125, kind: up-and-out }\n"
      "  steps: 12\n";
  check_job_against_bumps(barrier, "model.greeks=[delta, gamma]", {"delta", "gamma"});
  const auto r = run_cpu(barrier, {kAll});
  for (const char* g : {"vega", "rho", "dividend_rho"}) {
    INFO(g);
    CHECK(bumped(r, g));
  }
}

TEST_CASE("a European's and a digital's dividend rho on the path agree with the closed form's", "[greeks]") {
  for (const char* instrument : {"  instrument: { type: european, option: put, strike: 105, maturity: 1.5 }\n",
                                 "  instrument: { type: digital, option: call, strike: 110, maturity: 1, cash: 10 }\n"}) {
    INFO(instrument);
    const auto r = run_cpu(kGbm + instrument, {kAll});
    for (const char* g : {"delta", "gamma", "vega", "rho", "dividend_rho"}) {
      INFO(g);
      REQUIRE(reference(r, g));
      CHECK(!bumped(r, g));
      CHECK(std::fabs(estimate(r, g)->value - reference(r, g)->value) <= 4 * estimate(r, g)->std_error + reference(r, g)->tolerance);
    }
  }
}

TEST_CASE("greek_method and buckets are checked", "[greeks][config]") {
  const std::string asian = kGbm + "  instrument: { type: asian, fixings: 12, option: call, strike: 100, maturity: 1 }\n";
  CHECK(has_line(errors_of(asian, {"model.greek_method=adjoint"}), "greek_method"));
  CHECK(has_line(errors_of(asian, {"model.greeks=[buckets]"}), "buckets are the sensitivities"));
  CHECK(errors_of(asian, {"model.greeks=[dividend_rho]", "model.greek_method=bump"}).empty());
}

TEST_CASE("a Bermudan's path Greeks, its exercise dates held, agree with the tree's and with bump and revalue",
          "[greeks][american]") {
  const std::string bermudan = kGbm + "  instrument: { type: bermudan, exercise_dates: 10, option: put, strike: 105, maturity: 1 }\n";
  // The binomial tree on the same exercise dates, its Greeks by central differences.
  const option::BsmInput in{100, 105, 0.04, 0.015, 0.3, 1, false};
  const auto tree = [](option::BsmInput x) { return option::binomial_price(x, 4000, true, 10); };
  const auto moved = [&](double option::BsmInput::*field, double h) {
    option::BsmInput up = in, down = in;
    up.*field += h, down.*field -= h;
    return std::pair<double, double>{tree(up), tree(down)};
  };
  const double mid = tree(in);
  const auto [su, sd] = moved(&option::BsmInput::spot, 1.0);
  const auto [vu, vd] = moved(&option::BsmInput::volatility, 0.01);
  const auto [ru, rd] = moved(&option::BsmInput::rate, 0.001);
  const auto [qu, qd] = moved(&option::BsmInput::dividend, 0.001);
  const std::vector<std::pair<std::string, double>> want{{"delta", (su - sd) / 2},
                                                         {"gamma", su - 2 * mid + sd},
                                                         {"vega", (vu - vd) / 0.02},
                                                         {"rho", (ru - rd) / 0.002},
                                                         {"dividend_rho", (qu - qd) / 0.002}};
  for (const char* vr : {"[]", "[antithetic]"}) {
    const auto r = run_cpu(bermudan, {kAll, std::string("model.variance_reduction=") + vr});
    for (const auto& [g, value] : want) {
      INFO(vr << " " << g << " tree " << value << " path " << estimate(r, g)->value << " +- " << estimate(r, g)->std_error);
      CHECK(!bumped(r, g));
      // The fitted rule's boundary error: up to 2% here (american_path.hpp; this
      // case's worst, rho, is 1.3% off).
      CHECK(std::fabs(estimate(r, g)->value - value) <= 4 * estimate(r, g)->std_error + 0.02 * std::fabs(value));
    }
  }
}

namespace {
// A basket's Greeks, every kind, on the path or by bump and revalue.
const std::string kBasketGreeks = "model.greeks=[delta, gamma, vega, rho, dividend_rho, correlation]";
std::string basket_job(const std::string& assets, const std::string& correlation, const std::string& instrument) {
  return "run: { name: t, paths: 400_000, seed: 43, chunk_paths: 16384, precision: double }\nmodel:\n  type: option\n"
         "  process:\n    rate: 0.04\n    assets: " + assets + "\n    correlation: " + correlation + "\n"
         "  instrument: " + instrument + "\n";
}
const std::string kTwoAssets = "[{ name: A, spot: 100, volatility: 0.3, dividend: 0.02 }, { name: B, spot: 90, volatility: 0.2 }]";
const std::string kFourAssets =
    "[{ name: A, spot: 100, volatility: 0.25, dividend: 0.01 }, { name: B, spot: 95, volatility: 0.3 },"
    " { name: C, spot: 110, volatility: 0.2, dividend: 0.02 }, { name: D, spot: 105, volatility: 0.35 }]";
const std::string kFourCorrelations = "[[1, 0.5, 0.3, 0.2], [0.5, 1, 0.4, 0.1], [0.3, 0.4, 1, 0.25], [0.2, 0.1, 0.25, 1]]";
std::vector<std::string> basket_greek_names(const std::vector<std::string>& assets) {
  std::vector<std::string> out{"rho"};
  for (const char* g : {"delta", "gamma", "vega", "dividend_rho"})
    for (const auto& a : assets) out.push_back(std::string(g) + "_" + a);
  for (std::size_t a = 0; a < assets.size(); ++a)
    for (std::size_t b = a + 1; b < assets.size(); ++b) out.push_back("correlation_" + assets[a] + "_" + assets[b]);
  return out;
}
}  // namespace

TEST_CASE("a two-asset basket's path Greeks agree with differences of its exact price", "[greeks][basket]") {
  const auto names = basket_greek_names({"A", "B"});
  for (const char* instrument : {"{ type: basket, payoff: exchange, option: call, maturity: 1 }",
                                 "{ type: basket, payoff: max, option: call, strike: 100, maturity: 1 }",
                                 "{ type: basket, payoff: average, option: put, strike: 100, maturity: 1.5 }"})
    for (const char* precision : {"float", "double"})
      for (const char* vr : {"[]", "[antithetic]"}) {
        INFO(instrument << " " << precision << " " << vr);
        const auto r = run_cpu(basket_job(kTwoAssets, "[[1, 0.6], [0.6, 1]]", instrument),
                               {kBasketGreeks, std::string("run.precision=") + precision, std::string("model.variance_reduction=") + vr});
        check_run_against_references(r, names);  // the exchange's rho: 0 up to rounding
      }
}

TEST_CASE("a four-asset basket's path Greeks agree with bump and revalue on the same random numbers",
          "[greeks][basket]") {
  const auto names = basket_greek_names({"A", "B", "C", "D"});
  for (const char* instrument : {"{ type: basket, payoff: average, option: call, strike: 100, maturity: 1 }",
                                 "{ type: basket, payoff: max, option: call, strike: 115, maturity: 1 }",
                                 "{ type: basket, payoff: min, option: put, strike: 95, maturity: 2 }"})
    check_job_against_bumps(basket_job(kFourAssets, kFourCorrelations, instrument), kBasketGreeks, names);
}

TEST_CASE("baskets the path cannot differentiate bump, and correlation Greeks are a basket's", "[greeks][basket][config]") {
  // Perfectly correlated assets: no likelihood-ratio weight, so every Greek bumps.
  const auto singular = run_cpu(basket_job(kTwoAssets, "[[1, 1], [1, 1]]", "{ type: basket, payoff: average, option: call, strike: 95, maturity: 1 }"),
                                {"model.greeks=[delta, vega]"});
  CHECK(bumped(singular, "delta_A"));
  CHECK(bumped(singular, "vega_B"));
  // A control variate keeps its kernel; the Greeks bump.
  const auto control = run_cpu(basket_job(kTwoAssets, "[[1, 0.3], [0.3, 1]]", "{ type: basket, payoff: average, option: call, strike: 95, maturity: 1 }"),
                               {"model.greeks=[delta, correlation]", "model.variance_reduction=[control_variate]"});
  CHECK(bumped(control, "delta_A"));
  CHECK(bumped(control, "correlation_A_B"));
  CHECK(estimate(control, "correlation_A_B")->std_error > 0);
  CHECK(has_line(errors_of(kGbm + "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n",
                           {"model.greeks=[correlation]"}),
                 "correlation sensitivities are a basket's"));
}

namespace {
// The paths, then Heston's process: fewer for the comparisons with bump and revalue,
// whose reruns share their random numbers (and so most of their error).
std::string heston_job(const std::string& paths) {
  return "run: { name: t, paths: " + paths + ", seed: 47, chunk_paths: 16384, precision: double }\nmodel:\n  type: option\n"
         "  process: { type: heston, spot: 100, rate: 0.01, dividend: 0.02, v0: 0.04, kappa: 4, theta: 0.25, xi: 1, rho: -0.5 }\n";
}
const std::string kHeston = heston_job("400_000"), kHestonHalf = heston_job("200_000");
const std::string kHestonGreeks = "model.greeks=[delta, gamma, vega, rho, dividend_rho]";
}  // namespace

TEST_CASE("Heston path Greeks agree with differences of the characteristic-function price", "[greeks][heston]") {
  for (const char* scheme : {"qe", "euler"})
    for (const char* vr : {"[]", "[antithetic]"})
      for (const char* instrument : {"{ type: european, option: call, strike: 100, maturity: 1 }",
                                     "{ type: european, option: put, strike: 90, maturity: 1 }"}) {
        INFO(scheme << " " << vr << " " << instrument);
        const auto r = run_cpu(kHeston + "  instrument: " + instrument + "\n  steps: 50\n",
                               {kHestonGreeks, std::string("model.process.scheme=") + scheme,
                                std::string("model.variance_reduction=") + vr});
        // 50 steps a year: the schemes' bias is well inside these errors (validation/heston.yaml).
        // The vega is sqrt(v0)'s: pathwise through the variance's steps.
        check_run_against_references(r, {"delta", "gamma", "vega", "rho", "dividend_rho"});
      }
}

TEST_CASE("Heston path Greeks agree with bump and revalue on the same random numbers, its likelihood ratio weighing the spot only",
          "[greeks][heston]") {
  // Pathwise: an arithmetic average, and the deltas and rates of a discrete lookback.
  check_job_against_bumps(kHestonHalf + "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }\n",
                          kHestonGreeks, {"delta", "gamma", "vega", "rho", "dividend_rho"});
  check_job_against_bumps(kHestonHalf + "  instrument: { type: lookback, strike_type: fixed, option: call, strike: 110, maturity: 1 }\n  steps: 24\n",
                          "model.greeks=[delta, vega, rho, dividend_rho]", {"delta", "vega", "rho", "dividend_rho"});
  // A floating lookback under Euler's scheme: the vega through the spot and the extreme.
  std::string euler = kHestonHalf;
  euler.replace(euler.find("rho: -0.5 }"), 11, "rho: -0.5, scheme: euler }");
  check_job_against_bumps(euler + "  instrument: { type: lookback, strike_type: floating, option: put, maturity: 1 }\n  steps: 24\n",
                          "model.greeks=[vega]", {"vega"});
  // Likelihood ratio: discretely watched barriers, their rates bumped.
  for (const char* instrument :
       {"{ type: barrier, option: call, strike: 100, maturity: 1, barrier: 80, kind: down-and-out, rebate: 1 }",
        "{ type: barrier, option: put, strike: 100, maturity: 1, barrier: 115, kind: up-and-in }"}) {
    const std::string job = kHestonHalf + "  instrument: " + instrument + "\n  steps: 24\n";
    check_job_against_bumps(job, kHestonGreeks, {"delta", "gamma"});
    const auto r = run_cpu(job, {kHestonGreeks});
    CHECK(bumped(r, "vega"));
    CHECK(bumped(r, "rho"));
    CHECK(bumped(r, "dividend_rho"));
  }
}
