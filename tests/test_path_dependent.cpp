// Path-dependent options on the CPU backend: identities that hold path by path on
// the same random numbers, and the config checks of their keys. (Prices against
// closed forms: validation/path-dependent.yaml.)
#include <catch2/catch.hpp>

#include <cmath>

#include "app/run/runner.hpp"
#include "io/diagnostics.hpp"

using namespace mcsim;

namespace {
const std::string kBase =
    "run: { name: t, paths: 100_000, seed: 31, precision: double }\n"
    "model:\n  type: option\n  process: { type: gbm, spot: 100, rate: 0.03, dividend: 0.01, volatility: 0.3 }\n";
const std::string kSteps = "  steps: 40\n";
double price(const std::string& instrument, const std::string& extra = "") {
  const io::Job job = io::load_job_text(kBase + "  instrument: " + instrument + "\n" + extra, "t.yaml");
  return run_job(job, RunOptions{io::BackendChoice::Cpu, false, "test"}).scenarios.front().estimates.front().value;
}
std::string errors(const std::string& instrument, const std::string& extra = "") {
  try {
    io::load_job_text(kBase + "  instrument: " + instrument + "\n" + extra, "t.yaml");
  } catch (const io::ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("knock-out plus knock-in is the vanilla on the same paths", "[option][path]") {
  for (const char* monitoring : {"discrete", "continuous"})
    for (const char* kinds : {"down", "up"}) {
      const std::string dir = kinds, h = dir == "down" ? "85" : "115";
      const std::string common = "option: put, strike: 100, maturity: 1, barrier: " + h + ", monitoring: " + monitoring;
      const double out = price("{ type: barrier, kind: " + dir + "-and-out, " + common + " }", kSteps);
      const double in = price("{ type: barrier, kind: " + dir + "-and-in, " + common + " }", kSteps);
      // The vanilla on the same 40-step paths: an out-barrier no path reaches.
      const std::string far = dir == "down" ? "1e-9" : "1e9";
      const double vanilla = price("{ type: barrier, kind: " + dir + "-and-out, option: put, strike: 100, maturity: 1, "
                                   "barrier: " + far + " }", kSteps);
      INFO(monitoring << " " << dir);
      CHECK(out + in == Approx(vanilla).epsilon(1e-12));
      CHECK(out > 0);
      CHECK(in > 0);
    }
}

TEST_CASE("an Asian with an unreachable barrier is the plain Asian, and a rebate adds its discounted value", "[option][path]") {
  const std::string asian = "type: asian, average: arithmetic, fixings: 24, option: call, strike: 100, maturity: 1";
  const double plain = price("{ " + asian + " }", "");
  // Steps come from the fixings; a far barrier never knocks.
  CHECK(price("{ " + asian + ", barrier: 1, kind: down-and-out }") == Approx(plain).epsilon(1e-14));
  CHECK(price("{ " + asian + ", barrier: 1, kind: down-and-in }") == 0.0);
  CHECK(price("{ " + asian + ", barrier: 1, kind: down-and-in, rebate: 4 }") == Approx(4 * std::exp(-0.03)).epsilon(1e-12));
}

TEST_CASE("path-dependent keys are checked", "[config][path]") {
  CHECK(errors("{ type: barrier, option: call, strike: 100, maturity: 1, barrier: 105, kind: down-and-out }")
            .find("already at or below the down barrier 105") != std::string::npos);
  CHECK(errors("{ type: asian, option: call, strike: 100, maturity: 1, times: [0.5, 0.2] }")
            .find("fixing times must increase") != std::string::npos);
  CHECK(errors("{ type: asian, option: call, strike: 100, maturity: 1, times: [0.5, 1.5] }")
            .find("after the maturity") != std::string::npos);
  CHECK(errors("{ type: asian, option: call, strike: 100, maturity: 1, fixings: 12 }", kSteps)
            .find("steps at its fixings") != std::string::npos);
  CHECK(errors("{ type: lookback, strike_type: floating, option: call, strike: 100, maturity: 1 }")
            .find("has no strike") != std::string::npos);
  CHECK(errors("{ type: lookback, option: call, strike: 100, maturity: 1, barrier: 90, kind: down-and-out }")
            .find("only a barrier or an Asian option has a barrier") != std::string::npos);
  CHECK(errors("{ type: barrier, option: call, strike: 100, maturity: 1, barrier: 90, kind: sideways }")
            .find("'sideways' is not one of") != std::string::npos);
}

TEST_CASE("a control variate keeps the price and cuts its error by the factor it reports", "[option][path][cv]") {
  const auto run = [](const std::string& instrument, const std::string& vr) {
    const io::Job job = io::load_job_text(kBase + "  instrument: " + instrument + "\n" + vr, "t.yaml");
    return run_job(job, RunOptions{io::BackendChoice::Cpu, false, "test"}).scenarios.front();
  };
  // Continuous down-and-out call, European control: against the exact price.
  const std::string barrier = "{ type: barrier, option: call, strike: 100, maturity: 1, barrier: 85, kind: down-and-out, "
                              "monitoring: continuous }";
  const auto b = run(barrier, kSteps + "  variance_reduction: [control_variate]\n");
  REQUIRE(b.estimates.size() == 3);
  const auto& cv = b.estimates[0];
  const auto& plain = b.estimates[1];
  CHECK(cv.name == "price");
  CHECK(plain.name == "price_without_control");
  double exact = 0, factor = 0;
  for (const auto& r : b.references)
    if (r.name == "price") exact = r.value;
  for (const auto& [name, value] : b.diagnostics)
    if (name == "variance_reduction_factor") factor = value;
  CHECK(std::fabs(cv.value - exact) < 4 * cv.std_error);
  CHECK(factor > 2);
  // The reported factor is the ratio of the variances behind the two errors.
  CHECK(plain.std_error * plain.std_error / (cv.std_error * cv.std_error) == Approx(factor).epsilon(0.01));
  // Arithmetic Asian, geometric control: no closed form, but the same price as without it.
  const std::string asian = "{ type: asian, average: arithmetic, fixings: 12, option: call, strike: 100, maturity: 1 }";
  const auto a = run(asian, "  variance_reduction: [control_variate]\n");
  const auto a0 = run(asian, "");
  const double gap = a.estimates[0].value - a0.estimates[0].value;
  CHECK(std::fabs(gap) < 4 * std::hypot(a.estimates[0].std_error, a0.estimates[0].std_error));
  CHECK(a.estimates[0].std_error < a0.estimates[0].std_error / 10);  // geometric tracks arithmetic closely
  CHECK(errors("{ type: european, option: call, strike: 100, maturity: 1 }", "  variance_reduction: [control_variate]\n")
            .find("control_variate needs a path-dependent instrument") != std::string::npos);
}

TEST_CASE("Heston keys are checked", "[config][heston]") {
  const std::string heston = "run: { paths: 1000 }\nmodel:\n  type: option\n"
                             "  process: { type: heston, spot: 100, v0: 0.04, kappa: 2, theta: 0.04, xi: 0.5, rho: -1.5 }\n";
  const auto errs = [&](const std::string& instrument, const std::string& extra = "") {
    try {
      io::load_job_text(heston + "  instrument: " + instrument + "\n" + extra, "h.yaml");
    } catch (const io::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string e = errs("{ type: asian, fixings: 4, option: call, strike: 100, maturity: 1 }");
  CHECK(e.find("model.process.rho: must be") != std::string::npos);
  CHECK(e.find("instrument") == std::string::npos);  // Asians step under Heston
  CHECK(errs("{ type: european, option: call, strike: 100, maturity: 1 }").find("volatility") == std::string::npos);
  CHECK(errs("{ type: barrier, kind: down-and-out, barrier: 90, monitoring: continuous, option: call, strike: 100, "
             "maturity: 1 }").find("model.instrument.monitoring: continuous monitoring needs GBM") != std::string::npos);
  CHECK(errs("{ type: asian, times: [0.5, 1], option: call, strike: 100, maturity: 1 }")
            .find("model.instrument.times: under heston") != std::string::npos);
  CHECK(errs("{ type: asian, fixings: 4, option: call, strike: 100, maturity: 1 }", "  variance_reduction: [control_variate]\n")
            .find("control_variate needs process gbm") != std::string::npos);
  CHECK(errs("{ type: digital, option: call, strike: 100, maturity: 1 }").find("under heston mcsim prices") != std::string::npos);
}

namespace {
// Under Heston, with a given precision of the steps' bias in mind.
reduce::Estimate heston_estimate(const std::string& process, const std::string& instrument, const std::string& extra) {
  const io::Job job = io::load_job_text(
      "run: { name: t, paths: 200_000, seed: 5, precision: double }\nmodel:\n  type: option\n  process: " + process +
          "\n  instrument: " + instrument + "\n" + extra, "t.yaml");
  return run_job(job, RunOptions{io::BackendChoice::Cpu, false, "test"}).scenarios.front().estimates.front();
}
}  // namespace

TEST_CASE("Heston with a still variance prices path-dependent payoffs as GBM does", "[option][heston][path]") {
  // v0 = theta and a vanishing xi: the variance stays at theta, so the geometric
  // Asian is Kemna-Vorst's at sigma = sqrt(theta) = 0.3 (checked here against
  // validation/path-dependent.yaml's method, by mcsim's closed form on GBM).
  const std::string still = "{ type: heston, spot: 100, rate: 0.03, dividend: 0.01, v0: 0.09, kappa: 1, theta: 0.09, "
                            "xi: 0.0001, rho: -0.7 }";
  const std::string asian = "{ type: asian, average: geometric, fixings: 12, option: call, strike: 100, maturity: 1 }";
  for (const char* scheme : {"qe", "euler"}) {
    const std::string process = std::string(still).replace(still.size() - 2, 0, ", scheme: " + std::string(scheme));
    const auto h = heston_estimate(process, asian, "");
    const io::Job gbm = io::load_job_text(kBase + "  instrument: " + asian + "\n", "t.yaml");
    const double exact = gbm.model->references().front().value;
    INFO(scheme << ": " << h.value << " +- " << h.std_error << " against " << exact);
    CHECK(std::fabs(h.value - exact) < 4 * h.std_error);
  }
}

TEST_CASE("Heston knock-out plus knock-in is the Heston European, which matches its characteristic function", "[option][heston][path]") {
  const std::string process = "{ type: heston, spot: 100, rate: 0.01, dividend: 0.02, v0: 0.04, kappa: 4, theta: 0.25, "
                              "xi: 1, rho: -0.5 }";
  const std::string common = "option: put, strike: 100, maturity: 1, barrier: 80";
  const auto out = heston_estimate(process, "{ type: barrier, kind: down-and-out, " + common + " }", "  steps: 50\n");
  const auto in = heston_estimate(process, "{ type: barrier, kind: down-and-in, " + common + " }", "  steps: 50\n");
  const auto vanilla = heston_estimate(process, "{ type: european, option: put, strike: 100, maturity: 1 }", "  steps: 50\n");
  CHECK(out.value + in.value == Approx(vanilla.value).epsilon(1e-12));
  CHECK(in.value > 1);  // a fat left tail under rho < 0 reaches 80 often
  // Lewis's put at K = 100 by parity: 16.0701549... + 100 e^{-0.01} - 100 e^{-0.02}.
  const double lewis = 16.070154917028834 + 100 * std::exp(-0.01) - 100 * std::exp(-0.02);
  CHECK(std::fabs(vanilla.value - lewis) < 4 * vanilla.std_error);
}
