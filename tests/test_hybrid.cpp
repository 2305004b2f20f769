// A stock beside a Hull-White rate (HybridPath) on the CPU backend: Europeans
// against the Black-Scholes-Hull-White closed form (and Heston's as the rate's
// volatility vanishes), autocallables in limits with known values (a zero-coupon
// bond, the discounted stock), the rate's correlation moving the price by many
// standard errors, and the refusals.
#include <catch2/catch.hpp>

#include <cmath>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;

namespace {
const std::string kBsHw =
    "run: { name: t, paths: 400_000, seed: 31, chunk_paths: 16384 }\nmodel:\n  type: option\n"
    "  market: { discount: { times: [0.5, 1, 2, 5], zero_rates: [0.02, 0.03, 0.04, 0.045] } }\n"
    "  process: { type: gbm, spot: 100, dividend: 0.01, volatility: 0.2,\n"
    "             short_rate: { a: 0.05, sigma: 0.015, correlation: 0.4 } }\n"
    "  instrument: { type: european, option: call, strike: 105, maturity: 4 }\n";
// Never called, no coupon and no put: it pays 1 at maturity, a zero-coupon bond.
const std::string kAutocall =
    "run: { name: t, paths: 200_000, seed: 33, chunk_paths: 8192 }\nmodel:\n  type: option\n"
    "  process: { type: gbm, spot: 100, rate: 0.03, dividend: 0.02, volatility: 0.25,\n"
    "             short_rate: { a: 0.1, sigma: 0.02, correlation: -0.5 } }\n"
    "  instrument: { type: autocallable, initial_spot: 100, maturity: 3, observations: 6, coupon: 0, autocall_barrier: 100, knock_in: 0 }\n";
const std::string kHestonHw =
    "run: { name: t, paths: 200_000, seed: 35, chunk_paths: 8192 }\nmodel:\n  type: option\n"
    "  process: { type: heston, spot: 100, rate: 0.03, v0: 0.04, kappa: 2, theta: 0.05, xi: 0.4, rho: -0.6,\n"
    "             short_rate: { a: 0.1, sigma: 1e-7, correlation: 0.3 } }\n"
    "  instrument: { type: european, option: put, strike: 95, maturity: 1 }\n  steps: 100\n";
}  // namespace

TEST_CASE("Black-Scholes-Hull-White Europeans agree with the closed form in one exact step", "[hybrid]") {
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"})
      for (const char* option : {"call", "put"}) {
        INFO(precision << " " << vr << " " << option);
        const auto r = run_cpu(kBsHw, {std::string("run.precision=") + precision,
                                       std::string("model.variance_reduction=") + vr,
                                       std::string("model.instrument.option=") + option});
        CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
      }
  // Many steps are the same law.
  const auto stepped = run_cpu(kBsHw, {"model.steps=24"});
  CHECK(std::fabs(price(stepped).value - reference(stepped)) < 4 * price(stepped).std_error);
  // The correlation matters: the same paths at -0.4 are far from +0.4's closed form.
  const auto anti = run_cpu(kBsHw, {"model.process.short_rate.correlation=-0.4"});
  CHECK(std::fabs(price(anti).value - reference(stepped)) > 10 * price(anti).std_error);
  CHECK(std::fabs(price(anti).value - reference(anti)) < 4 * price(anti).std_error);
}

TEST_CASE("Heston-Hull-White with a vanishing rate volatility is Heston", "[hybrid]") {
  const option::HestonInput h{100, 95, 0.03, 0.0, 1, 0.04, 2, 0.05, 0.4, -0.6, false};
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    const auto r = run_cpu(kHestonHw, {std::string("run.precision=") + precision});
    CHECK(std::fabs(price(r).value - option::heston_price(h)) < 4 * price(r).std_error + 0.01);  // QE bias at 100 steps
  }
}

TEST_CASE("an autocallable never called pays the zero-coupon bond and below every knock-in the discounted stock",
          "[hybrid]") {
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    // E[exp(-int r)] = P(0, 3) = exp(-0.09): the path's discounting is the curve's.
    const auto bond = run_cpu(kAutocall, {std::string("run.precision=") + precision});
    CHECK(std::fabs(price(bond).value - std::exp(-0.09)) < 4 * price(bond).std_error);
    CHECK(price(bond).std_error > 1e-4);  // the rate is random: not a constant
    // Knocked in always: S_T / S0 discounted, whose mean is exp(-q T) under any correlation.
    const auto stock = run_cpu(kAutocall, {std::string("run.precision=") + precision, "model.instrument.knock_in=10"});
    CHECK(std::fabs(price(stock).value - std::exp(-0.06)) < 4 * price(stock).std_error);
    // Against an initial fixing of 80 the stock pays S_T / 80: exp(-q T) 100 / 80, and a
    // delta of exp(-q T) / 80 (bumping the spot leaves the fixing).
    const auto moved = run_cpu(kAutocall, {std::string("run.precision=") + precision, "model.instrument.knock_in=10",
                                           "model.instrument.initial_spot=80", "model.greeks=[delta]"});
    CHECK(std::fabs(price(moved).value - std::exp(-0.06) * 1.25) < 4 * price(moved).std_error);
    const auto& delta = moved.scenarios.front().estimates.at(1);
    REQUIRE(delta.name == "delta");
    CHECK(std::fabs(delta.value - std::exp(-0.06) / 80) < 4 * delta.std_error + 1e-4);
    // Heston's stock too (QE is a martingale within its bias).
    const auto heston = run_cpu(kAutocall, {std::string("run.precision=") + precision, "model.instrument.knock_in=10",
                                            "model.process={type: heston, spot: 100, rate: 0.03, dividend: 0.02, "
                                            "v0: 0.04, kappa: 2, theta: 0.05, xi: 0.4, rho: -0.6, short_rate: "
                                            "{a: 0.1, sigma: 0.02, correlation: -0.5}}",
                                            "model.steps=60"});
    CHECK(std::fabs(price(heston).value - std::exp(-0.06)) < 4 * price(heston).std_error + 1e-3);
  }
}

TEST_CASE("an autocallable's coupons, calls and memory each move its price", "[hybrid]") {
  const std::string text = kAutocall + "  variance_reduction: [antithetic]\n";
  const std::vector<std::string> real{"model.instrument.autocall_barrier=1", "model.instrument.coupon=0.02",
                                      "model.instrument.coupon_barrier=0.7", "model.instrument.knock_in=0.6"};
  const auto base = run_cpu(text, real);
  auto with = [&](const std::string& set) {
    auto sets = real;
    sets.push_back(set);
    return run_cpu(text, sets);
  };
  const auto memory = with("model.instrument.memory=true");
  const auto no_put = with("model.instrument.knock_in=0");
  // Called at the first observation with its coupon, whatever the path: 1.02 P(0, 0.5).
  const auto first = with("model.instrument.autocall_barrier=0.01");
  const auto called = run_cpu(text, {"model.instrument.autocall_barrier=0.01", "model.instrument.coupon=0.02",
                                     "model.instrument.coupon_barrier=0.01"});
  const double se = price(base).std_error;
  CHECK(price(memory).value > price(base).value + 5 * se);   // missed coupons come back
  CHECK(price(no_put).value > price(base).value + 5 * se);   // the put is the holder's loss
  CHECK(std::fabs(price(first).value - price(base).value) > 5 * se);
  CHECK(std::fabs(price(called).value - 1.02 * std::exp(-0.015)) < 4 * price(called).std_error);
  CHECK(price(called).std_error > 0);  // antithetic pairs cancel most of the rate's spread
  // Between its bounds: below the bond with every coupon, above the knocked-in stock.
  CHECK(price(base).value < 1 + 6 * 0.02);
  CHECK(price(base).value > std::exp(-0.06) * 0.6);
}

namespace {
const mcsim::reduce::Estimate& estimate(const io::Results& r, const std::string& name) {
  for (const auto& e : r.scenarios.front().estimates)
    if (e.name == name) return e;
  FAIL("no estimate " << name);
  throw;
}
}  // namespace

TEST_CASE("a hybrid's delta and gamma by the first step's likelihood ratio agree with the closed form's differences",
          "[hybrid][greeks]") {
  // The closed form's differences at the spot +- 1 (a run of a few paths gives its reference).
  const auto closed = [](double spot) {
    return reference(run_cpu(kBsHw, {"run.paths=1000", "model.process.spot=" + std::to_string(spot)}));
  };
  const double up = closed(101), mid = closed(100), down = closed(99);
  const double delta = (up - down) / 2, gamma = up - 2 * mid + down;
  for (const char* precision : {"float", "double"})
    for (const char* vr : {"[]", "[antithetic]"}) {
      INFO(precision << " " << vr);
      const auto r = run_cpu(kBsHw, {std::string("run.precision=") + precision, std::string("model.variance_reduction=") + vr,
                                     "model.greeks=[delta, gamma]"});
      const auto& d = estimate(r, "delta");
      const auto& g = estimate(r, "gamma");
      CHECK(std::fabs(d.value - delta) < 4 * d.std_error);
      CHECK(std::fabs(g.value - gamma) < 4 * g.std_error);
      CHECK(g.std_error < 0.1 * gamma);  // an estimate, not noise
    }
}

TEST_CASE("an autocallable's delta and gamma by likelihood ratio agree with bump and revalue", "[hybrid][greeks]") {
  const std::vector<std::string> real{"model.instrument.autocall_barrier=1", "model.instrument.coupon=0.02",
                                      "model.instrument.coupon_barrier=0.7", "model.instrument.knock_in=0.6",
                                      "model.greeks=[delta, gamma]"};
  const std::string heston = "model.process={type: heston, spot: 100, rate: 0.03, dividend: 0.02, v0: 0.04, kappa: 2, "
                             "theta: 0.05, xi: 0.4, rho: -0.6, short_rate: {a: 0.1, sigma: 0.02, correlation: -0.5}}";
  for (const std::string& process : {std::string(), heston})
    for (const char* precision : {"float", "double"}) {
      INFO((process.empty() ? "gbm" : "heston") << " " << precision);
      auto sets = real;
      sets.push_back(std::string("run.precision=") + precision);
      if (!process.empty()) sets.insert(sets.end(), {process, "model.steps=12"});
      const auto path = run_cpu(kAutocall, sets);
      sets.push_back("model.greek_method=bump");
      const auto bump = run_cpu(kAutocall, sets);
      for (const char* g : {"delta", "gamma"}) {
        INFO(g);
        const auto& p = estimate(path, g);
        const auto& b = estimate(bump, g);
        CHECK(std::fabs(p.value - b.value) < 4 * std::hypot(p.std_error, b.std_error));
        if (g == std::string("delta")) CHECK(std::fabs(p.value) > 4 * p.std_error);  // the put moves it: not zero
      }
      CHECK(price(path).value == Approx(price(bump).value).epsilon(1e-6));  // the same paths
    }
}

TEST_CASE("hybrid and autocallable jobs refuse what they do not combine with", "[hybrid][config]") {
  CHECK(has_line(errors_of(kBsHw, {"model.instrument={type: asian, option: call, strike: 100, maturity: 1, fixings: 12}"}),
                 "with process.short_rate mcsim prices european options and autocallables"));
  CHECK(has_line(errors_of(kBsHw, {"model.variance_reduction=[control_variate]"}), "antithetic pairs only"));
  CHECK(has_line(errors_of(kHestonHw, {"model.process.short_rate.correlation=0.9"}),
                 "model.process.short_rate.correlation"));
  CHECK(has_line(errors_of(kAutocall, {"model.instrument.strike=100"}), "it has no strike"));
  CHECK(has_line(errors_of(kAutocall, {"model.instrument.times=[1, 2]"}), "give observations or times, not both"));
  CHECK(has_line(errors_of(kAutocall, {"model.instrument.observations=null", "model.instrument.times=[1, 2]"}),
                 "the last observation is at the maturity"));
  CHECK(has_line(errors_of(kAutocall, {"model.process.jumps={intensity: 1, mean: -0.1, vol: 0.1}"}),
                 "a Hull-White rate joins a single gbm or heston stock without jumps"));
  CHECK(has_line(errors_of(kAutocall, {"model.process.short_rate.sigma=0"}), "model.process.short_rate.sigma"));
  // Without a short rate an autocallable is priced on the curve's deterministic rates.
  CHECK(errors_of(kAutocall, {"model.process.short_rate=null"}).empty());
}
