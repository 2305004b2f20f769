// Cash dividends on the CPU backend: the quadrature reference against Black's
// formula where it must be, put-call parity on the cash-adjusted forward, Monte
// Carlo against the reference in float and double, the ex-dates that are not
// fixings kept out of an average, dividends from a CSV file, and the refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;
using option::CashLeg;

namespace {
const std::string kJob =
    "run: { name: t, paths: 400_000, seed: 41, chunk_paths: 16384 }\nmodel:\n  type: option\n"
    "  market:\n    dividends: [{ time: 0.3, cash: 2 }, { time: 0.8, cash: 2 }]\n"
    "  process: { type: gbm, spot: 100, rate: 0.03, dividend: 0.01, volatility: 0.25 }\n"
    "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n";

// Flat rate r, yield q and volatility v on legs ending at `ends` (the last at maturity).
std::vector<CashLeg> flat_legs(const std::vector<double>& ends, const std::vector<double>& cash, double r, double q,
                               double v) {
  std::vector<CashLeg> legs;
  double t0 = 0;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const double dt = ends[i] - t0;
    legs.push_back({(r - q) * dt, v * v * dt, std::exp(-r * dt), cash[i]});
    t0 = ends[i];
  }
  return legs;
}
}  // namespace

TEST_CASE("the cash-dividend quadrature is Black-Scholes without dividends and keeps put-call parity", "[dividends]") {
  const option::BsmInput in{100, 95, 0.03, 0.01, 0.25, 1, true};
  // Dividends of nothing on three legs: the quadrature integrates Black-Scholes back to itself.
  const auto none = flat_legs({0.2, 0.6, 1}, {0, 0, 0}, 0.03, 0.01, 0.25);
  CHECK(option::cash_dividend_price(100, 95, true, none) == Approx(option::bsm_price(in)).epsilon(1e-10));
  CHECK(option::cash_dividend_price(100, 95, true, none, true, 7) == Approx(option::digital_price(in, 7)).epsilon(1e-10));
  // Paid at maturity: a call struck at K + D.
  option::BsmInput shifted = in;
  shifted.strike = 98;
  CHECK(option::cash_dividend_price(100, 95, true, flat_legs({1}, {3}, 0.03, 0.01, 0.25)) ==
        Approx(option::bsm_price(shifted)).epsilon(1e-12));
  // C - P = P(T) (E[S_T] - K), E[S_T] = S0 G(T) - sum D_i G(T) / G(t_i), the floor at
  // zero out of reach of these small dividends.
  const auto legs = flat_legs({0.25, 0.5, 0.75, 1}, {1.5, 1, 2, 0}, 0.03, 0.01, 0.25);
  const double call = option::cash_dividend_price(100, 95, true, legs), put = option::cash_dividend_price(100, 95, false, legs);
  const double forward = 100 * std::exp(0.02) - 1.5 * std::exp(0.02 * 0.75) - 1 * std::exp(0.02 * 0.5) - 2 * std::exp(0.02 * 0.25);
  CHECK(call - put == Approx(std::exp(-0.03) * (forward - 95)).epsilon(1e-10));
  // The dividends lower a call by more than their present value's worth of nothing: it is cheaper.
  CHECK(call < option::bsm_price(in) - 1);
}

TEST_CASE("cash-dividend paths agree with the quadrature in float and double", "[dividends]") {
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"})
      for (const char* option : {"call", "put"}) {
        INFO(precision << " " << vr << " " << option);
        const auto r = run_cpu(kJob, {std::string("run.precision=") + precision,
                                      std::string("model.variance_reduction=") + vr,
                                      std::string("model.instrument.option=") + option});
        CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
      }
  // The same dividends as a yield would be a different price, and it is seen.
  const auto r = run_cpu(kJob);
  const double as_yield = option::bsm_price({100, 100, 0.03, 0.01, 0.25, 1, true});
  CHECK(as_yield - price(r).value > 20 * price(r).std_error);
  // Delta and gamma by bumps agree with the quadrature's differences.
  const auto g = run_cpu(kJob, {"model.greeks=[delta, gamma]"});
  for (const auto& e : g.scenarios.front().estimates) {
    if (e.name == "price") continue;
    INFO(e.name);
    const auto& refs = g.scenarios.front().references;
    const auto ref = std::find_if(refs.begin(), refs.end(), [&](const auto& x) { return x.name == e.name; });
    REQUIRE(ref != refs.end());
    CHECK(std::fabs(e.value - ref->value) < 4 * e.std_error + ref->tolerance);
  }
}

TEST_CASE("an ex-date between fixings moves the spot but is no fixing", "[dividends]") {
  // An Asian whose 4 fixings miss the ex-date: its average is of 4 spots, not 5. Its
  // price with a tiny dividend is the plain Asian's within error; an average over 5
  // points (the ex-date counted) would be a different price.
  const std::string asian = "  instrument: { type: asian, average: arithmetic, fixings: 4, option: call, strike: 100, maturity: 1 }\n";
  const std::string base = kJob.substr(0, kJob.find("  instrument"));
  const auto tiny = run_cpu(base + asian, {"model.market.dividends=[{time: 0.3, cash: 1e-9}]"});
  const auto plain = run_cpu(base + asian, {"model.market={}"});
  CHECK(std::fabs(price(tiny).value - price(plain).value) < 4 * price(plain).std_error);
  const auto five = run_cpu(base + asian, {"model.market={}", "model.instrument={type: asian, average: arithmetic, "
                                                              "times: [0.25, 0.3, 0.5, 0.75, 1], option: call, strike: 100, maturity: 1}"});
  CHECK(std::fabs(price(five).value - price(plain).value) > 4 * price(plain).std_error);
}

TEST_CASE("cash dividends are refused where they are not paid", "[dividends][config]") {
  CHECK(has_line(errors_of(kJob, {"model.market.dividends=[{time: 0.3, cash: 2, proportional: 0.01}]"}),
                 "give one of cash, proportional"));
  CHECK(has_line(errors_of(kJob, {"model.market.dividends=[{time: 0.3, cash: 0}]"}), "cash"));
  CHECK(has_line(errors_of(kJob, {"model.process={type: cev, spot: 100, rate: 0.03, sigma: 2.5, beta: 0.5}"}),
                 "cash dividends are paid on gbm paths without jumps"));
  CHECK(has_line(errors_of(kJob, {"model.process.jumps={intensity: 1, mean: -0.1, vol: 0.1}"}), "not under gbm with jumps"));
  CHECK(has_line(errors_of(kJob, {"model.process.short_rate={a: 0.1, sigma: 0.01, correlation: 0}"}), "beside a short rate"));
  CHECK(has_line(errors_of(kJob, {"model.variance_reduction=[sobol]"}), "sobol's Brownian bridge"));
  CHECK(has_line(errors_of(kJob, {"model.instrument={type: american, option: put, strike: 100, maturity: 1}"}),
                 "market curves, dividends"));
}

TEST_CASE("dividends from a CSV file are the inline list, and bad rows are errors at FILE:LINE:COLUMN", "[dividends][config]") {
  const auto write = [](const std::string& name, const std::string& text) {
    const std::string path = "/tmp/mcsim_test_dividends_" + name;
    std::ofstream(path) << text;
    return path;
  };
  const std::string file = write("good.csv", "time,cash,proportional\n0.3,2,\n# a comment\n0.5,,0.01\n0.8,2,\n");
  const std::string inline_list =
      "model.market.dividends=[{time: 0.3, cash: 2}, {time: 0.5, proportional: 0.01}, {time: 0.8, cash: 2}]";
  const io::Job job = io::load_job_text(kJob, "test.yaml", {"model.market.dividends={file: " + file + "}"});
  CHECK(job.yaml.find(file + ":5") != std::string::npos);  // each item says where it came from
  std::remove(file.c_str());
  const auto a = run_job(job, RunOptions{io::BackendChoice::Cpu, false, "t"});
  const auto again = run_job(io::load_job_text(job.yaml, "again.yaml"), RunOptions{io::BackendChoice::Cpu, false, "t"});
  const auto b = run_cpu(kJob, {inline_list});
  CHECK(price(a).value == price(b).value);
  CHECK(price(again).value == price(b).value);
  CHECK(reference(a) == reference(b));

  const auto errors = [&](const std::string& name, const std::string& text) {
    return errors_of(kJob, {"model.market.dividends={file: " + write(name, text) + "}"});
  };
  const std::string both = "/tmp/mcsim_test_dividends_both.csv", bad = "/tmp/mcsim_test_dividends_bad.csv",
                    order = "/tmp/mcsim_test_dividends_order.csv", none = "/tmp/mcsim_test_dividends_none.csv";
  CHECK(has_line(errors("both.csv", "time,cash,proportional\n0.3,2,0.01\n"), both + ":2:1: a dividend is paid in cash"));
  CHECK(has_line(errors("bad.csv", "time,cash\n0.3,two\n"), bad + ":2:5: expected a number in column 'cash', got 'two'"));
  CHECK(has_line(errors("order.csv", "time,cash\n0.8,2\n0.3,2\n"), order + ":3:1: dividend times must increase: 0.3 after 0.8"));
  CHECK(has_line(errors("none.csv", "time,amount\n0.3,2\n"), none + ":1:1: the header needs a column cash or proportional"));
  CHECK(has_line(errors("neg.csv", "time,proportional\n0.3,1.5\n"), "in [0, 1)"));
  CHECK(has_line(errors_of(kJob, {"model.market.dividends={file: " + file + ", extra: 1}"}), "extra"));
  std::string many = "time,proportional\n";  // more dividends than paths may step to
  for (int i = 1; i <= 10001; ++i) many += std::to_string(i * 0.009) + ",0.0001\n";
  CHECK(has_line(errors("many.csv", many), "at most 10000 dividends"));
}
