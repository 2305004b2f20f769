// Greeks in the market's inputs: a curve's rho and a term structure's vega as
// parallel shifts, and `buckets`, one Greek per curve pillar, volatility node and
// surface quote. A European's come from its flat equivalents' path Greeks and are
// checked against central differences of the closed form on the moved market; a
// stepped path's against bump and revalue and the parallel shift they add up to.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "greek_checks.hpp"
#include "market_job.hpp"
#include "models/market/curve.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;
using namespace mcsim::test;

namespace {

// Market data (market_job.hpp) on double paths.
std::string job_on(const std::string& instrument, const std::string& vol = "{ times: [0.5, 1], values: [0.3, 0.2] }") {
  return ::market_job(instrument, "", vol, "{ name: t, paths: 400_000, seed: 11, chunk_paths: 16384, precision: double }");
}
const std::string kBuckets = "model.greeks=[delta, gamma, vega, rho, dividend_rho, buckets]";
const std::vector<std::string> kInputs{"vega",   "rho",   "dividend_rho",   "rho_0.5", "rho_1",
                                       "rho_2",  "dividend_rho_1", "dividend_rho_3", "vega_0.5", "vega_1"};

double sum_of(const io::Results& r, const std::vector<std::string>& names) {
  double s = 0;
  for (const auto& n : names) s += estimate(r, n)->value;
  return s;
}

}  // namespace

TEST_CASE("a curve's pillar weights and a term structure's node weights are the derivatives they claim", "[market][greeks]") {
  const market::Curve c({0.5, 1.0, 2.0}, {-0.5 * 0.02, -1.0 * 0.03, -2.0 * 0.045});
  const market::VolTerm v({0.5, 1.0}, {0.3, 0.2});
  const double h = 1e-6;
  for (double t : {0.2, 0.5, 0.7, 1.0, 1.5, 2.0, 3.5}) {
    INFO("t = " << t);
    const auto w = c.pillar_weights(t);
    double sum = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      const double d = (c.shifted(i, -h).log_discount(t) - c.shifted(i, h).log_discount(t)) / (2 * h);
      CHECK(w[i] == Approx(d).epsilon(1e-7).margin(1e-9));
      sum += w[i];
    }
    CHECK(sum == Approx(t).epsilon(1e-14));  // every zero rate moved: -log P(t) moves by t
    const auto n = v.node_weights(t);
    for (std::size_t i = 0; i < n.size(); ++i) {
      const double d = (v.shifted(i, h).variance(0, t) - v.shifted(i, -h).variance(0, t)) / (2 * h);
      CHECK(n[i] == Approx(d).epsilon(1e-7).margin(1e-9));
    }
  }
  CHECK(c.shifted(static_cast<std::size_t>(-1), 0.01).zero_rate(3.0) == Approx(0.055).epsilon(1e-13));
}

TEST_CASE("a European's Greeks in every pillar and node, on the path, agree with the closed form's differences",
          "[market][greeks]") {
  for (const char* instrument : {"type: european, option: call, strike: 100, maturity: 1.5",
                                 "type: european, option: put, strike: 110, maturity: 0.8",
                                 "type: digital, option: call, strike: 105, maturity: 1.5, cash: 10"}) {
    INFO(instrument);
    const auto r = run_cpu(job_on(instrument), {kBuckets});
    check_run_against_references(r, kInputs);
    // Moved pillars past the maturity's interval move nothing: their Greeks are 0 (a
    // test that the pillar and its name go together).
    if (std::string(instrument).find("0.8") != std::string::npos) CHECK(estimate(r, "rho_2")->value == 0);
    CHECK(std::fabs(estimate(r, "rho")->value) > 10 * estimate(r, "rho")->std_error);
  }
}

TEST_CASE("a European's input Greeks on the path agree with bump and revalue", "[market][greeks]") {
  check_job_against_bumps(job_on("type: european, option: call, strike: 100, maturity: 1.5"), kBuckets, kInputs);
}

TEST_CASE("a stepped path's curve rho on the path agrees with bump and revalue, and its buckets add up to it",
          "[market][greeks]") {
  // A flat volatility: the path scores the rates' Greeks, and buckets bump.
  const std::string asian = job_on("type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1", "0.25");
  check_job_against_bumps(asian, "model.greeks=[delta, rho, dividend_rho]", {"delta", "rho", "dividend_rho"});
  const auto r = run_cpu(asian, {"model.greeks=[rho, dividend_rho, buckets]", "model.greek_method=bump"});
  // Central differences on the same paths: the buckets' sum is the parallel shift's to
  // second order in the step, far inside the errors.
  const double rho = estimate(r, "rho")->value, q = estimate(r, "dividend_rho")->value;
  CHECK(sum_of(r, {"rho_0.5", "rho_1", "rho_2"}) == Approx(rho).epsilon(1e-4));
  CHECK(sum_of(r, {"dividend_rho_1", "dividend_rho_3"}) == Approx(q).epsilon(1e-4));
  CHECK(estimate(r, "rho_2")->value == 0);  // no fixing past 1: the pillar at 2 moves nothing
  CHECK(std::fabs(estimate(r, "rho_1")->value) > 10 * estimate(r, "rho_1")->std_error);
  // Under a term structure of volatility the path scores vega, every node moved, and
  // the nodes' buckets (bumped) add up to it.
  const std::string termed = job_on("type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1");
  check_job_against_bumps(termed, "model.greeks=[vega, rho, dividend_rho]", {"vega", "rho", "dividend_rho"});
  const auto v = run_cpu(termed, {"model.greeks=[vega, buckets]", "model.greek_method=bump"});
  CHECK(sum_of(v, {"vega_0.5", "vega_1"}) == Approx(estimate(v, "vega")->value).epsilon(1e-3));
}

TEST_CASE("an average's Greeks in every pillar and node, on the path, agree with bump and revalue", "[market][greeks]") {
  for (const char* instrument : {"type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1.5",
                                 "type: asian, average: geometric, times: [0.25, 0.6, 0.9, 1.2], option: put, strike: 105, "
                                 "maturity: 1.2"}) {
    INFO(instrument);
    const std::string job = job_on(instrument);
    check_job_against_bumps(job, kBuckets, kInputs);
    // One pass: the buckets add up to the parallel shifts they split.
    const auto r = run_cpu(job, {kBuckets});
    for (const auto& g : kInputs) CHECK(!bumped(r, g));
    CHECK(sum_of(r, {"rho_0.5", "rho_1", "rho_2"}) == Approx(estimate(r, "rho")->value).epsilon(1e-9));
    CHECK(sum_of(r, {"dividend_rho_1", "dividend_rho_3"}) == Approx(estimate(r, "dividend_rho")->value).epsilon(1e-9));
    CHECK(sum_of(r, {"vega_0.5", "vega_1"}) == Approx(estimate(r, "vega")->value).epsilon(1e-9));
  }
  // Antithetic pairs, float: the same Greeks within their errors.
  const std::string asian = job_on("type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1.5");
  const auto plain = run_cpu(asian, {kBuckets});
  const auto pairs = run_cpu(asian, {kBuckets, "model.variance_reduction=[antithetic]", "run.precision=float"});
  for (const auto& g : kInputs) {
    INFO(g);
    CHECK(std::fabs(estimate(pairs, g)->value - estimate(plain, g)->value) <=
          4 * std::hypot(estimate(pairs, g)->std_error, estimate(plain, g)->std_error) + 1e-9);
  }
}

TEST_CASE("a lookback's, forward start's and cliquet's Greeks in every pillar and node, on the path, agree with bump and revalue",
          "[market][greeks]") {
  // Their payoff states' tangents in each input: the log spot's where a lookback's
  // extreme was reached, on a forward start's strike date, and a cliquet's returns'.
  const std::string run = "{ name: t, paths: 400_000, seed: 11, chunk_paths: 16384, precision: double }";
  const std::string vol = "{ times: [0.5, 1], values: [0.3, 0.2] }";
  for (const auto& [instrument, steps] : std::vector<std::pair<std::string, std::string>>{
           {"type: lookback, strike_type: fixed, option: call, strike: 100, maturity: 1.5", "  steps: 18\n"},
           {"type: lookback, strike_type: floating, option: put, maturity: 1.2", "  steps: 12\n"},
           {"type: forward_start, option: call, moneyness: 1.05, start: 0.6, maturity: 1.5", ""},
           {"type: cliquet, resets: 6, maturity: 1.5, local_floor: -0.02, local_cap: 0.04, global_floor: 0.01", ""}}) {
    INFO(instrument);
    const std::string job = ::market_job(instrument, steps, vol, run);
    const std::vector<std::string> inputs{"rho_0.5", "rho_1", "rho_2", "dividend_rho_1", "dividend_rho_3", "vega_0.5", "vega_1"};
    check_job_against_bumps(job, "model.greeks=[vega, rho, dividend_rho, buckets]", inputs);
    const auto r = run_cpu(job, {"model.greeks=[vega, rho, dividend_rho, buckets]"});
    for (const auto& g : inputs) CHECK(!bumped(r, g));
    CHECK(sum_of(r, {"rho_0.5", "rho_1", "rho_2"}) == Approx(estimate(r, "rho")->value).epsilon(1e-9));
    CHECK(sum_of(r, {"dividend_rho_1", "dividend_rho_3"}) == Approx(estimate(r, "dividend_rho")->value).epsilon(1e-9));
    CHECK(sum_of(r, {"vega_0.5", "vega_1"}) == Approx(estimate(r, "vega")->value).epsilon(1e-9));
  }
}

TEST_CASE("a barrier's and a continuously watched lookback's Greeks in every pillar and node, on the path, agree with bump and revalue",
          "[market][greeks]") {
  // Watched continuously: the Brownian bridge's survival and extreme have tangents in
  // each input. Watched at the steps: the payoff jumps, so each input's Greek is the
  // value times the steps' scores in it.
  const std::string run = "{ name: t, paths: 400_000, seed: 13, chunk_paths: 16384, precision: double }";
  const std::string vol = "{ times: [0.5, 1], values: [0.3, 0.2] }";
  const std::vector<std::string> inputs{"rho_0.5", "rho_1", "rho_2", "dividend_rho_1", "dividend_rho_3", "vega_0.5", "vega_1"};
  for (const auto& [instrument, steps] : std::vector<std::pair<std::string, std::string>>{
           {"type: barrier, option: call, strike: 100, maturity: 1.5, barrier: 85, kind: down-and-out, monitoring: continuous, "
            "rebate: 2", "  steps: 18\n"},
           {"type: asian, average: arithmetic, fixings: 12, option: put, strike: 105, maturity: 1.2, barrier: 120, "
            "kind: up-and-in, monitoring: continuous", ""},
           {"type: lookback, strike_type: fixed, option: call, strike: 100, maturity: 1.5, monitoring: continuous",
            "  steps: 18\n"},
           {"type: lookback, strike_type: floating, option: put, maturity: 1.2, monitoring: continuous", "  steps: 12\n"},
           {"type: barrier, option: call, strike: 100, maturity: 1.5, barrier: 125, kind: up-and-out, rebate: 1",
            "  steps: 12\n"}}) {
    INFO(instrument);
    const std::string job = ::market_job(instrument, steps, vol, run);
    check_job_against_bumps(job, "model.greeks=[delta, buckets]", inputs);
    const auto r = run_cpu(job, {"model.greeks=[delta, buckets]"});
    for (const auto& g : inputs) CHECK(!bumped(r, g));
    CHECK(std::fabs(estimate(r, "vega_0.5")->value) > 10 * estimate(r, "vega_0.5")->std_error);
    CHECK(std::fabs(estimate(r, "rho_1")->value) > 10 * estimate(r, "rho_1")->std_error);
  }
}

TEST_CASE("a local volatility's quote vegas add up to Black-Scholes' vega on a flat surface", "[market][greeks][local_vol]") {
  const std::string job =
      "run: { name: t, paths: 200_000, seed: 5, chunk_paths: 16384, precision: double }\n"
      "model:\n"
      "  type: option\n"
      "  market:\n"
      "    vol_surface: { expiries: [0.5, 1], strikes: [80, 100, 120], vols: [[0.25, 0.25, 0.25], [0.25, 0.25, 0.25]] }\n"
      "  process: { type: local_vol, spot: 100, rate: 0.03 }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n"
      "  steps: 24\n"
      "  greeks: [buckets]\n";
  const auto r = run_cpu(job);
  std::vector<std::string> quotes;
  for (const char* e : {"0.5", "1"})
    for (const char* k : {"80", "100", "120"}) quotes.push_back(std::string("vega_") + e + "_" + k);
  double sum = 0, var = 0;
  for (const auto& q : quotes) {
    INFO(q);
    REQUIRE(estimate(r, q));
    CHECK(!bumped(r, q));  // scored on the path
    sum += estimate(r, q)->value, var += std::pow(estimate(r, q)->std_error, 2);
  }
  const double vega = option::bsm_vega({100, 100, 0.03, 0, 0.25, 1, true});
  // Moving every quote by the same step moves the flat surface, and Dupire's volatility
  // with it; the quotes' errors are correlated, so their sum's error is at most the sum of errors.
  double bound = 0;
  for (const auto& q : quotes) bound += estimate(r, q)->std_error;
  CHECK(std::fabs(sum - vega) <= 4 * bound + 0.02 * vega);
  CHECK(std::fabs(estimate(r, "vega_1_100")->value) > std::fabs(estimate(r, "vega_0.5_80")->value));
}

TEST_CASE("a local volatility's Greeks in every pillar and quote, on the path, agree with bump and revalue",
          "[market][greeks][local_vol]") {
  // The path carries the log spot's tangent in each input through every step: a
  // pillar moves the step's carry (the grid held, as its bumped rerun holds it), a
  // quote Dupire's sigma at the path's spot (the grid refitted, as its rerun refits it).
  const std::string market =
      "run: { name: t, paths: 200_000, seed: 17, chunk_paths: 8192, precision: double }\n"
      "model:\n"
      "  type: option\n"
      "  market:\n"
      "    discount: { times: [0.5, 1, 2], zero_rates: [0.02, 0.03, 0.045] }\n"
      "    dividend_yield: { times: [1, 3], zero_rates: [0.01, 0.015] }\n"
      "    vol_surface: { expiries: [0.5, 1, 2], strikes: [80, 100, 120],\n"
      "                   vols: [[0.3, 0.24, 0.21], [0.28, 0.24, 0.215], [0.27, 0.245, 0.225]] }\n"
      "  process: { type: local_vol, spot: 100 }\n";
  const std::vector<std::string> inputs{"rho_0.5", "rho_1", "dividend_rho_1", "vega_0.5_80", "vega_0.5_100",
                                        "vega_1_100", "vega_1_120", "vega_2_100"};
  for (const auto& [instrument, steps] : std::vector<std::pair<std::string, std::string>>{
           {"type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1.2", ""},
           {"type: asian, average: geometric, fixings: 12, option: put, strike: 105, maturity: 1.2", ""},
           {"type: european, option: put, strike: 90, maturity: 1.2", "  steps: 12\n"},
           {"type: lookback, strike_type: floating, option: call, maturity: 1.2", "  steps: 12\n"},
           {"type: lookback, strike_type: fixed, option: put, strike: 95, maturity: 1.2", "  steps: 12\n"}}) {
    INFO(instrument);
    const std::string job = market + "  instrument: { " + instrument + " }\n" + steps;
    check_job_against_bumps(job, "model.greeks=[delta, buckets]", inputs);
    const auto r = run_cpu(job, {"model.greeks=[delta, buckets]"});
    CHECK(std::fabs(estimate(r, "vega_1_100")->value) > 10 * estimate(r, "vega_1_100")->std_error);
  }
}

TEST_CASE("a local volatility's inputs beyond its kernel's slots are bumped", "[market][greeks][local_vol]") {
  // 5 expiries x 6 strikes, all within the maturity's reach: 30 quotes, more than 24 slots.
  const std::string job =
      "run: { name: t, paths: 20_000, seed: 3, chunk_paths: 4096, precision: double }\n"
      "model:\n"
      "  type: option\n"
      "  market:\n"
      "    vol_surface: { expiries: [0.2, 0.4, 0.6, 0.8, 1], strikes: [80, 90, 100, 110, 120, 130],\n"
      "                   vols: [[0.3, 0.27, 0.25, 0.24, 0.24, 0.25], [0.3, 0.27, 0.25, 0.24, 0.24, 0.25],\n"
      "                          [0.3, 0.27, 0.25, 0.24, 0.24, 0.25], [0.3, 0.27, 0.25, 0.24, 0.24, 0.25],\n"
      "                          [0.3, 0.27, 0.25, 0.24, 0.24, 0.25]] }\n"
      "  process: { type: local_vol, spot: 100, rate: 0.03 }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n"
      "  steps: 5\n"
      "  greeks: [delta, buckets]\n";
  const auto r = run_cpu(job);
  for (const char* q : {"vega_0.2_80", "vega_1_100", "vega_1_130"}) {
    INFO(q);
    REQUIRE(estimate(r, q));
    CHECK(bumped(r, q));
  }
  CHECK(!bumped(r, "delta"));
  CHECK(std::fabs(estimate(r, "vega_1_100")->value) > 3 * estimate(r, "vega_1_100")->std_error);
}

TEST_CASE("buckets need market data to bucket", "[market][greeks][config]") {
  const std::string flat =
      "run: { name: t, paths: 1000, seed: 1 }\nmodel:\n  type: option\n"
      "  process: { type: gbm, spot: 100, rate: 0.03, volatility: 0.2 }\n"
      "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n";
  CHECK(has_line(errors_of(flat, {"model.greeks=[buckets]"}), "buckets are the sensitivities"));
  CHECK(errors_of(job_on("type: european, option: call, strike: 100, maturity: 1"), {kBuckets}).empty());
}
