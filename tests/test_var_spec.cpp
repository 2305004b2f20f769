// The portfolio-risk block: its keys and errors, the portfolio's value and Greeks,
// and the delta-normal and delta-gamma-normal approximations.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "models/option/analytic.hpp"
#include "models/var/delta_var.hpp"

using namespace mcsim;

namespace {

const std::string kModel = R"(type: var
horizon_days: 10
confidence: [0.95, 0.99]
factors:
  distribution: normal
  assets:
    - { name: ACME, spot: 100, volatility: 0.3, drift: 0.05 }
    - { name: BOLT, spot: 50, volatility: 0.2 }
  correlation: [[1, 0.4], [0.4, 1]]
rate: 0.03
portfolio:
  - { type: stock, asset: ACME, quantity: 1000 }
  - { type: option, asset: ACME, option: put, strike: 90, maturity: 0.5, quantity: -200 }
  - { type: forward, asset: BOLT, strike: 52, maturity: 1, quantity: 300 }
)";

struct Parsed {
  var::VarSpec spec;
  std::string errors;
};
Parsed parse(const std::string& text) {
  io::Diagnostics diag("v.yaml");
  io::Block model(YAML::Load(text), "model", diag);
  Parsed out;
  model.choice("type", {"var"}, std::nullopt);  // read by the job loader
  var::parse_var_spec(model, out.spec);
  model.finish();
  out.errors = diag.report();
  return out;
}
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a portfolio-risk block reads into typed values", "[var][config]") {
  const auto p = parse(kModel);
  INFO(p.errors);
  REQUIRE(p.errors.empty());
  CHECK(p.spec.horizon() == Approx(10.0 / 252));
  CHECK(p.spec.confidence == std::vector<double>{0.95, 0.99});
  CHECK(p.spec.assets[1].drift == 0.0);
  REQUIRE(p.spec.portfolio.size() == 3);
  CHECK(p.spec.portfolio[1].instrument == var::Instrument::Put);
  CHECK(p.spec.portfolio[1].quantity == -200);
  CHECK(p.spec.portfolio[2].asset == 1);
  CHECK(p.spec.cholesky[3] == Approx(std::sqrt(1 - 0.16)));
}

TEST_CASE("portfolio-risk mistakes name their key and line", "[var][config]") {
  const auto has = [](const std::string& text, const std::string& expect) {
    const std::string e = parse(text).errors;
    INFO(e);
    CHECK(e.find(expect) != std::string::npos);
  };
  has(with(kModel, "asset: BOLT, strike", "asset: BOLTT, strike"),
      "v.yaml:14:29: model.portfolio[2].asset: no risk factor named 'BOLTT' (did you mean 'BOLT'?)");
  has(with(kModel, "horizon_days: 10", "horizon_days: 200"),
      "model.portfolio[1].maturity: 0.5 years ends before the horizon of 200 days");
  has(with(kModel, "[[1, 0.4], [0.4, 1]]", "[[1, 0.4], [0.3, 1]]"), "model.factors.correlation: must be symmetric");
  has(with(kModel, "distribution: normal", "distribution: student_t\n  dof: 2"), "model.factors.dof: must be in (2, ");
  has(with(kModel, "distribution: normal", "distribution: normal\n  dof: 5"), "degrees of freedom belong to distribution: student_t");
  has(with(kModel, "name: BOLT", "name: ACME"), "asset 'ACME' is listed twice");
  has(with(kModel, "confidence: [0.95, 0.99]", "confidence: [0.95, 1]"), "model.confidence");
  has(with(kModel, "type: forward", "type: swap"), "'swap' is not one of: stock, forward, option");
}

TEST_CASE("the portfolio's value and Greeks keep put-call parity", "[var]") {
  // A long call and a short put at one strike are a long forward at that price.
  auto p = parse(kModel).spec;
  p.portfolio = {{var::Instrument::Call, 0, 10, 95, 0.75}, {var::Instrument::Put, 0, -10, 95, 0.75}};
  const auto options = var::portfolio_greeks(p);
  p.portfolio = {{var::Instrument::Forward, 0, 10, 95, 0.75}};
  const auto forward = var::portfolio_greeks(p);
  CHECK(options.value == Approx(forward.value).epsilon(1e-12));
  CHECK(options.delta[0] == Approx(10).epsilon(1e-12));
  CHECK(std::fabs(options.gamma[0]) < 1e-12);
  CHECK(forward.gamma[0] == 0);
}

TEST_CASE("delta-normal VaR of stocks is the normal quantile of the linear loss", "[var]") {
  auto p = parse(kModel).spec;
  p.portfolio = {{var::Instrument::Stock, 0, 1000, 0, 0}, {var::Instrument::Stock, 1, -400, 0, 0}};
  const double h = 10.0 / 252, b0 = 1000 * 100 * 0.3 * std::sqrt(h), b1 = -400 * 50 * 0.2 * std::sqrt(h);
  const double sd = std::sqrt(b0 * b0 + b1 * b1 + 2 * 0.4 * b0 * b1), mean = -1000 * 100 * 0.05 * h;
  const auto r = var::delta_normal(p, 0.99);
  CHECK(r.var == Approx(mean + 2.326347874 * sd).epsilon(1e-9));
  CHECK(var::delta_gamma_normal(p, 0.99).var == Approx(r.var).epsilon(1e-12));  // no gamma
  p.student_t = true, p.dof = 5;
  CHECK(var::delta_normal(p, 0.99).var == Approx(mean + sd * std::sqrt(0.6) * 3.364929997).epsilon(1e-9));
}

TEST_CASE("delta-gamma-normal matches the mean and variance of the quadratic loss", "[var]") {
  // Sample the second-order loss -(delta dS + gamma dS^2 / 2) on correlated normal
  // shocks and compare its moments with the formula's (through VaR at two levels).
  auto p = parse(kModel).spec;
  for (auto& a : p.assets) a.drift = 0;
  const auto g = var::portfolio_greeks(p);
  const double h = p.horizon();
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  double sum = 0, sum_sq = 0;
  const int n = 2'000'000;
  for (int k = 0; k < n; ++k) {
    const double z0 = normal(rng), z1 = 0.4 * z0 + std::sqrt(1 - 0.16) * normal(rng);
    double loss = 0;
    const double z[2] = {z0, z1};
    for (int i = 0; i < 2; ++i) {
      const double ds = p.assets[i].spot * p.assets[i].volatility * std::sqrt(h) * z[i];
      loss -= g.delta[i] * ds + 0.5 * g.gamma[i] * ds * ds;
    }
    sum += loss, sum_sq += loss * loss;
  }
  const double mean = sum / n, sd = std::sqrt(sum_sq / n - mean * mean);
  const auto a = var::delta_gamma_normal(p, 0.95), b = var::delta_gamma_normal(p, 0.99);
  // Two levels give the normal's mean and sd back.
  const double fitted_sd = (b.var - a.var) / (2.326347874 - 1.644853627), fitted_mean = a.var - 1.644853627 * fitted_sd;
  CHECK(fitted_sd == Approx(sd).epsilon(2e-3));
  CHECK(std::fabs(fitted_mean - mean) < 4 * sd / std::sqrt(n) + 1e-9 * sd);
  CHECK(std::fabs(g.gamma[0]) > 0);  // the short put brings gamma
}
