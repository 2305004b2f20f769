// Greeks that a local volatility's paths (Dupire's grid, CEV) score in the pass that
// prices them, sigma(t, S) held, on the CPU backend: against differences of CEV's
// noncentral chi-square price and of Black-Scholes' (a flat implied surface), and
// against bump and revalue on the same random numbers, whose reruns walk the job's
// own grid; and which payoffs and inputs leave their Greeks to bump and revalue.
#include <catch2/catch.hpp>

#include "cpu_run.hpp"
#include "greek_checks.hpp"

using namespace mcsim;
using namespace mcsim::test;

namespace {
const std::string kRun = "run: { name: t, paths: 200_000, seed: 43, chunk_paths: 16384, precision: double }\n";
const std::string kCev = kRun +
    "model:\n  type: option\n  process: { type: cev, spot: 100, rate: 0.05, dividend: 0.02, sigma: 2.5, beta: 0.5 }\n";
// A skew: the volatility rises as the strike falls, and with expiry below the money.
std::string dupire(const std::string& vols) {
  return kRun +
         "model:\n  type: option\n  market:\n    vol_surface:\n      expiries: [0.5, 1, 2]\n"
         "      strikes: [70, 85, 100, 115, 130]\n      vols: " + vols + "\n"
         "  process: { type: local_vol, spot: 100, rate: 0.03, dividend: 0.01 }\n";
}
const std::string kSkew = dupire("[[0.32, 0.27, 0.23, 0.21, 0.205], [0.30, 0.26, 0.23, 0.215, 0.21], [0.29, 0.26, 0.235, 0.22, 0.215]]");
const std::string kFlat = dupire("[[0.25, 0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25, 0.25]]");
const std::string kGreeks = "model.greeks=[delta, gamma, rho, dividend_rho]";
}  // namespace

TEST_CASE("CEV path Greeks agree with differences of the noncentral chi-square price", "[greeks][local]") {
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"})
      for (const char* instrument : {"{ type: european, option: put, strike: 90, maturity: 1 }",
                                     "{ type: european, option: call, strike: 105, maturity: 1 }"}) {
        INFO(precision << " " << vr << " " << instrument);
        const auto r = run_cpu(kCev + "  instrument: " + instrument + "\n  steps: 100\n",
                               {kGreeks, std::string("run.precision=") + precision, std::string("model.variance_reduction=") + vr});
        check_run_against_references(r, {"delta", "gamma", "rho", "dividend_rho"});
      }
}

TEST_CASE("a flat implied surface's local volatility Greeks on the path are Black-Scholes'", "[greeks][local]") {
  const auto r = run_cpu(kFlat + "  instrument: { type: european, option: call, strike: 110, maturity: 1.5 }\n  steps: 50\n", {kGreeks});
  check_run_against_references(r, {"delta", "gamma", "rho", "dividend_rho"}, {"gamma"});
}

TEST_CASE("local volatility path Greeks agree with bump and revalue holding sigma(t, S)", "[greeks][local]") {
  for (const char* instrument :
       {"{ type: european, option: put, strike: 95, maturity: 1.5 }\n  steps: 50",
        "{ type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }",
        "{ type: asian, average: geometric, fixings: 6, option: put, strike: 95, maturity: 1 }"})
    check_job_against_bumps(kSkew + "  instrument: " + instrument + "\n", kGreeks, {"delta", "rho", "dividend_rho"});
  // A discrete lookback's extreme starts at the spot: its gamma bumps. Fixed and
  // floating (struck at the extreme), on Dupire's grid and CEV's power.
  for (const std::string& job : {kSkew, kCev})
    for (const char* instrument : {"{ type: lookback, strike_type: fixed, option: call, strike: 110, maturity: 1 }",
                                   "{ type: lookback, strike_type: floating, option: put, maturity: 1 }"})
      check_job_against_bumps(job + "  instrument: " + instrument + "\n  steps: 24\n", "model.greeks=[delta, rho, dividend_rho]",
                              {"delta", "rho", "dividend_rho"});
}

TEST_CASE("a local volatility's jumping payoffs, and rates beside discrete dividends, leave their Greeks to bump and revalue",
          "[greeks][local]") {
  for (const char* instrument : {"{ type: digital, option: call, strike: 100, maturity: 1 }",
                                 "{ type: barrier, option: call, strike: 100, maturity: 1, barrier: 85, kind: down-and-out }"}) {
    INFO(instrument);
    const auto r = run_cpu(kSkew + "  instrument: " + instrument + "\n  steps: 50\n", {"model.greeks=[delta, rho]", "run.paths=32768"});
    CHECK(bumped(r, "delta"));
    CHECK(bumped(r, "rho"));
  }
  // A proportional dividend is no yield: the path's rate tangents leave it out.
  const auto r = run_cpu(kSkew + "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n  steps: 50\n",
                         {"model.greeks=[delta, rho]", "run.paths=32768", "model.market.dividends=[{ time: 0.5, proportional: 0.02 }]"});
  CHECK(!bumped(r, "delta"));
  CHECK(bumped(r, "rho"));
}
