// The portfolio-risk block: its keys and errors, the portfolio's value and Greeks,
// and the delta-normal and delta-gamma-normal approximations.
#include <catch2/catch.hpp>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"
#include "models/var/delta_var.hpp"
#include "models/var/exact_tail.hpp"
#include "models/var/scenario.hpp"
#include "models/var/tail_figures.hpp"

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
// `quantity` units of a contract of T years today, at spot S.
double value_today(var::Instrument kind, double quantity, double K, double H, double T, double S, double r, double vol) {
  return var::position_value({kind, K, H, T, 0}, quantity, S, {0, S, r, vol});
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
  const auto asian = parse(kModel + "  - { type: asian, average: geometric, fixings: 12, asset: BOLT, option: put, strike: 48, "
                                    "maturity: 1, quantity: 10 }\n");
  INFO(asian.errors);
  REQUIRE(asian.errors.empty());
  CHECK(asian.spec.portfolio[3].instrument == var::Instrument::AsianPut);
  CHECK(asian.spec.portfolio[3].fixings == 12);
  // An exchange takes the factors' correlation of its two assets unless it gives one.
  const std::string exchange = "  - { type: exchange, asset: ACME, other: BOLT, maturity: 1, quantity: 10 }\n";
  const auto pair = parse(kModel + exchange);
  INFO(pair.errors);
  REQUIRE(pair.errors.empty());
  CHECK(pair.spec.portfolio[3].instrument == var::Instrument::Exchange);
  CHECK(pair.spec.portfolio[3].other == 1);
  CHECK(pair.spec.portfolio[3].correlation == 0.4);
  CHECK(parse(kModel + with(exchange, "quantity", "correlation: -0.2, quantity")).spec.portfolio[3].correlation == -0.2);
  // An option may take its implied volatility from a factor (here BOLT, for the test).
  const auto vol = parse(with(kModel, "maturity: 0.5, quantity: -200", "maturity: 0.5, volatility_factor: BOLT, quantity: -200"));
  INFO(vol.errors);
  REQUIRE(vol.errors.empty());
  CHECK(vol.spec.portfolio[1].other == 1);
  CHECK(var::volatility_of(vol.spec, vol.spec.portfolio[1]) == 50);  // BOLT's level today
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
  const std::string asian = "  - { type: asian, average: arithmetic, fixings: 12, asset: BOLT, option: put, strike: 48, "
                            "maturity: 1, quantity: 10 }\n";
  has(kModel + asian, "v.yaml:15:29: model.portfolio[3].average: an arithmetic average has no closed form");
  has(kModel + with(asian, "fixings: 12", "fixings: 0"), "model.portfolio[3].fixings: must be");
  has(kModel + with(asian, "fixings: 12, ", ""), "model.portfolio[3]: missing required key 'fixings'");
  const std::string exchange = "  - { type: exchange, asset: ACME, other: BOLT, maturity: 1, quantity: 10 }\n";
  has(kModel + with(exchange, "other: BOLT", "other: ACME"), "model.portfolio[3].other: an exchange gives one asset for another");
  has(kModel + with(exchange, "other: BOLT", "other: BOLD"), "no risk factor named 'BOLD' (did you mean 'BOLT'?)");
  has(kModel + with(exchange, "maturity", "strike: 3, maturity"), "unknown key 'model.portfolio[3].strike' (allowed: asset, correlation, maturity, name, other, quantity, type)");
  has(kModel + with(exchange, "quantity", "correlation: 1.5, quantity"), "model.portfolio[3].correlation: must be in [-1, 1]");
  // A matrix that does not read leaves the exchange's default correlation to nothing.
  has(with(kModel, "[[1, 0.4], [0.4, 1]]", "[[1, 0.4], [0.4, z1]]") + exchange, "model.factors.correlation");
  has(with(kModel, "maturity: 0.5, quantity", "maturity: 0.5, volatility_factor: ACME, quantity"),
      "model.portfolio[1].volatility_factor: names the option's own asset");
  has(with(kModel, "type: forward, asset: BOLT,", "type: forward, asset: BOLT, volatility_factor: ACME,"),
      "unknown key 'model.portfolio[2].volatility_factor'");
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

TEST_CASE("a digital revalues at the closed form, with parity and its Greeks' slopes", "[var]") {
  using I = var::Instrument;
  const double S = 104, K = 100, T = 0.6, r = 0.03, vol = 0.25;
  const double call = value_today(I::DigitalCall, 7, K, 0, T, S, r, vol);
  CHECK(call == Approx(7 * option::digital_price({S, K, r, 0, vol, T, true}, 1)).epsilon(1e-13));
  // A digital call and put at one strike pay one unit whatever happens.
  CHECK(call / 7 + value_today(I::DigitalPut, 1, K, 0, T, S, r, vol) == Approx(std::exp(-r * T)).epsilon(1e-13));
  // The delta-normal Greeks: the slopes of the revaluation itself.
  auto p = parse(kModel).spec;
  p.portfolio = {{I::DigitalPut, 0, -50, 95, 0.75}};
  const double s0 = p.assets[0].spot, dS = 1e-4 * s0, v0 = p.assets[0].volatility;
  const auto value = [&](double spot) { return value_today(I::DigitalPut, -50, 95, 0, 0.75, spot, p.rate, v0); };
  const auto g = var::portfolio_greeks(p);
  CHECK(g.value == Approx(value(s0)).epsilon(1e-14));
  CHECK(g.delta[0] == Approx((value(s0 + dS) - value(s0 - dS)) / (2 * dS)).epsilon(1e-7));
  CHECK(g.gamma[0] == Approx((value(s0 + dS) - 2 * value(s0) + value(s0 - dS)) / (dS * dS)).epsilon(1e-5));
}

TEST_CASE("a barrier revalues at the closed form, knocked past its level at the horizon", "[var]") {
  using I = var::Instrument;
  using option::BarrierKind;
  const double S = 100, T = 0.7, r = 0.04, vol = 0.3;
  for (const BarrierKind kind : {BarrierKind::DownOut, BarrierKind::UpOut, BarrierKind::DownIn, BarrierKind::UpIn})
    for (const bool call : {true, false})
      for (const double K : {90.0, 110.0}) {
        const double H = option::is_down(kind) ? 95 : 105;
        const I inst = var::barrier_instrument(kind, call);
        INFO(option::kBarrierKindNames[static_cast<int>(kind)] << (call ? " call" : " put") << " K " << K);
        CHECK(var::is_call(inst) == call);
        CHECK(var::barrier_of(inst) == kind);
        const option::BsmInput in{S, K, r, 0, vol, T, call};
        const double reference = option::barrier_price(in, kind, H, 0, option::RebateTime::AtExpiry);
        CHECK(value_today(inst, 3, K, H, T, S, r, vol) == Approx(3 * reference).epsilon(1e-12).margin(1e-12));
        // Past the barrier: an out-option is worth nothing, an in-option the vanilla.
        const double past = option::is_down(kind) ? 90 : 112;
        const double vanilla = option::bsm_price({past, K, r, 0, vol, T, call});
        CHECK(value_today(inst, 1, K, H, T, past, r, vol) ==
              Approx(option::is_out(kind) ? 0.0 : vanilla).epsilon(1e-12).margin(1e-14));
      }
}

TEST_CASE("a geometric Asian revalues at the closed form today, and at the horizon as its later value's expectation", "[var]") {
  using I = var::Instrument;
  const double S = 100, T = 0.8, r = 0.04, vol = 0.3;
  for (const int n : {1, 12, 52})
    for (const bool call : {true, false})
      for (const double K : {90.0, 110.0}) {
        INFO(n << " fixings, " << (call ? "call" : "put") << " K " << K);
        const var::Contract c{call ? I::AsianCall : I::AsianPut, K, 0, T, n};
        std::vector<double> times;
        for (int k = 1; k <= n; ++k) times.push_back(T * k / n);
        const option::BsmInput in{S, K, r, 0, vol, T, call};
        const double today = var::position_value(c, 3, S, {0, S, r, vol});
        CHECK(today == Approx(3 * option::geometric_asian_price(in, times)).epsilon(1e-12));
        if (n == 1) CHECK(today == Approx(3 * option::bsm_price(in)).epsilon(1e-12));
        // Today's value is the discounted expectation of the value e years on, over
        // the risk-neutral spot then; e before, at and after fixings, its fixings up
        // to e taken given both ends.
        for (const double e : {0.01, 0.2, T * 5 / 13, 0.75}) {
          INFO("valued " << e << " years on");
          const double sd = vol * std::sqrt(e), drift = (r - 0.5 * vol * vol) * e;
          const double later = option::integrate(-12, 12, 96, [&](double z) {
            const double spot = S * std::exp(drift + sd * z);
            return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI) * var::position_value(c, 3, spot, {e, S, r, vol});
          });
          CHECK(std::exp(-r * e) * later == Approx(today).epsilon(1e-10));
        }
      }
  // Fixings all before e: the average is the bridge's alone (sd of its log > 0).
  const var::UnitTerms u = var::unit_terms({I::AsianCall, 100, 0, 1, 4}, {0.99, S, r, vol});
  CHECK(u.u[2] > 0);
  CHECK(u.u[6] == Approx(1 / u.u[2]).epsilon(1e-15));
}

TEST_CASE("an exchange revalues at Margrabe's value, its Greeks on both assets the closed form's slopes", "[var]") {
  auto p = parse(kModel).spec;
  const double S = p.assets[0].spot, So = p.assets[1].spot, v = p.assets[0].volatility, vo = p.assets[1].volatility;
  const double rho = 0.4, T = 0.7, q = -25;
  const auto margrabe = [&](double s1, double s2) { return q * option::margrabe_price(s1, s2, 0, 0, v, vo, rho, T); };
  var::Position x{var::Instrument::Exchange, 0, q, 0, T};
  x.other = 1, x.correlation = rho;
  p.portfolio = {x};
  const auto g = var::portfolio_greeks(p);
  CHECK(g.value == Approx(margrabe(S, So)).epsilon(1e-12));
  CHECK(var::value_of(x, 0, S, S, p.rate, var::volatility_of(p, x), So) == Approx(margrabe(S, So)).epsilon(1e-12));
  // Slopes by central differences of the closed form (steps of 1e-4 of each spot).
  const double h = 1e-4 * S, ho = 1e-4 * So;
  CHECK(g.delta[0] == Approx((margrabe(S + h, So) - margrabe(S - h, So)) / (2 * h)).epsilon(1e-7));
  CHECK(g.delta[1] == Approx((margrabe(S, So + ho) - margrabe(S, So - ho)) / (2 * ho)).epsilon(1e-7));
  CHECK(g.gamma[0] == Approx((margrabe(S + h, So) - 2 * margrabe(S, So) + margrabe(S - h, So)) / (h * h)).epsilon(1e-4));
  CHECK(g.gamma[1] == Approx((margrabe(S, So + ho) - 2 * margrabe(S, So) + margrabe(S, So - ho)) / (ho * ho)).epsilon(1e-4));
  REQUIRE(g.cross.size() == 1);
  CHECK(g.cross[0].i == 0);
  CHECK(g.cross[0].j == 1);
  CHECK(g.cross[0].gamma == Approx((margrabe(S + h, So + ho) - margrabe(S + h, So - ho) - margrabe(S - h, So + ho) +
                                    margrabe(S - h, So - ho)) / (4 * h * ho)).epsilon(1e-4));
  // No volatility of S / S' (equal volatilities, correlation 1): the intrinsic value.
  CHECK(var::pair_volatility(0.3, 0.3, 1) == 0);
  CHECK(var::value_of(x, 0, 120, 120, p.rate, 0, 100) == Approx(q * 20).epsilon(1e-15));
  CHECK(var::value_of(x, 0, 90, 90, p.rate, 0, 100) == 0);
}

TEST_CASE("an option on a volatility factor has vega, volga and vanna on it, and revalues at the factor's level", "[var]") {
  auto p = parse(kModel).spec;
  p.assets[1].spot = 0.25;  // BOLT stands for ACME's implied volatility
  const double S = p.assets[0].spot, sigma = 0.25, K = 95, T = 0.6, r = p.rate, q = 40;
  var::Position put{var::Instrument::Put, 0, q, K, T};
  put.other = 1;
  p.portfolio = {put};
  const auto g = var::portfolio_greeks(p);
  const option::BsmInput in{S, K, r, 0, sigma, T, false};
  const double sd = sigma * std::sqrt(T), d1 = (std::log(S / K) + (r + 0.5 * sigma * sigma) * T) / sd, d2 = d1 - sd;
  const double vega = S * option::normal_pdf(d1) * std::sqrt(T);
  CHECK(g.value == Approx(q * option::bsm_price(in)).epsilon(1e-12));
  CHECK(g.delta[0] == Approx(q * option::bsm_delta(in)).epsilon(1e-6));
  CHECK(g.gamma[0] == Approx(q * option::bsm_gamma(in)).epsilon(1e-4));
  CHECK(g.delta[1] == Approx(q * vega).epsilon(1e-6));
  CHECK(g.gamma[1] == Approx(q * vega * d1 * d2 / sigma).epsilon(1e-4));  // volga
  REQUIRE(g.cross.size() == 1);
  CHECK(g.cross[0].gamma == Approx(-q * option::normal_pdf(d1) * d2 / sigma).epsilon(1e-4));  // vanna
  // The scenario's revaluation: terms at volatility 1, scaled by the factor's level.
  const auto arrays = var::portfolio_arrays<double>(p);
  const auto pf = arrays.host_view();
  REQUIRE(pf.other_of[0] == 1);
  for (const double level : {0.15, 0.25, 0.6}) {
    const double x[2] = {std::log(104.0), std::log(level)};
    const double left = T - p.horizon();
    const double expected = q * (option::bsm_price(in) - option::bsm_price({104, K, r, 0, level, left, false}));
    CHECK(var::position_loss_at(pf, 0, x, 1) == Approx(expected).epsilon(1e-12));
  }
}

TEST_CASE("VaR shares move with the VaR along each unit's own slope", "[var]") {
  // Three units in a band whose mean loss is 100, a tail whose mean (the ES) is 150.
  const double band_mean = 100, es = 150;
  const double band[] = {60, 40, 0}, tail[] = {90, 60, 0};  // the third is flat in the tail
  double total = 0;
  for (int u = 0; u < 3; ++u) total += var::share_slope(band[u], tail[u], band_mean, es);
  CHECK(total == Approx(1.0).epsilon(1e-15));  // so the moved shares still add up to the VaR
  CHECK(var::share_slope(band[0], tail[0], band_mean, es) == Approx(0.6));
  CHECK(var::share_slope(band[2], tail[2], band_mean, es) == 0);
  // Without a spread between band and tail, in proportion to the band mean.
  CHECK(var::share_slope(60, 60, 100, 100) == Approx(0.6));
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
  auto p = parse(kModel + "  - { type: exchange, asset: BOLT, other: ACME, maturity: 0.5, quantity: -300 }\n").spec;
  for (auto& a : p.assets) a.drift = 0;
  const auto g = var::portfolio_greeks(p);
  REQUIRE(g.cross.size() == 1);  // the exchange's cross gamma, in the loss below
  const double h = p.horizon();
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  double sum = 0, sum_sq = 0;
  const int n = 2'000'000;
  for (int k = 0; k < n; ++k) {
    const double z0 = normal(rng), z1 = 0.4 * z0 + std::sqrt(1 - 0.16) * normal(rng);
    double loss = 0;
    const double z[2] = {z0, z1};
    double ds[2];
    for (int i = 0; i < 2; ++i) {
      ds[i] = p.assets[i].spot * p.assets[i].volatility * std::sqrt(h) * z[i];
      loss -= g.delta[i] * ds[i] + 0.5 * g.gamma[i] * ds[i] * ds[i];
    }
    loss -= g.cross[0].gamma * ds[g.cross[0].i] * ds[g.cross[0].j];
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

namespace {
var::VarSpec one_asset(std::vector<var::Position> portfolio) {
  var::VarSpec s;
  s.horizon_days = 10;
  s.assets = {{"ACME", 100, 0.3, 0.05}};
  s.correlation = {{1}};
  s.cholesky = {1};
  s.rate = 0.03;
  s.portfolio = std::move(portfolio);
  return s;
}
// Empirical VaR and ES of the loss over sampled shocks (the reference's check).
var::TailRisk sampled(const var::VarSpec& s, double alpha, int n) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  std::student_t_distribution<double> t(s.student_t ? s.dof : 3);
  std::vector<double> loss(static_cast<std::size_t>(n));
  for (auto& l : loss)
    l = var::loss_at_shock(s, s.student_t ? std::sqrt((s.dof - 2) / s.dof) * t(rng) : normal(rng));
  std::sort(loss.begin(), loss.end());
  const auto k = static_cast<std::size_t>(std::ceil(alpha * n));
  double tail = 0;
  for (std::size_t i = k; i < loss.size(); ++i) tail += loss[i];
  return {loss[k - 1], (tail + (k - alpha * n) * loss[k - 1]) / ((1 - alpha) * n)};
}
}  // namespace

TEST_CASE("a single stock's exact VaR and ES are the lognormal's", "[var][exact]") {
  const auto s = one_asset({{var::Instrument::Stock, 0, 1000, 0, 0}});
  const double h = 10.0 / 252, sd = 0.3 * std::sqrt(h), zp = -2.326347874;
  const auto r = var::exact_single_asset_tail(s, 0.99);
  CHECK(r.var == Approx(1000 * 100 * (1 - std::exp((0.05 - 0.045) * h + sd * zp))).epsilon(1e-9));
  // E[S_h; z < z_p] = S0 e^{mu h} N(z_p - sd).
  const double es = 1000 * (100 - 100 * std::exp(0.05 * h) * option::normal_cdf(zp - sd) / 0.01);
  CHECK(r.es == Approx(es).epsilon(1e-9));
}

TEST_CASE("exact VaR and ES of options on one asset match sampled losses", "[var][exact]") {
  using I = var::Instrument;
  for (const bool t : {false, true}) {
    // Short puts and a long forward: the value rises with the spot. A short call
    // alone: it falls (the tail is on the high shocks).
    for (const auto& book : {std::vector<var::Position>{{I::Put, 0, -200, 90, 0.5}, {I::Forward, 0, 50, 100, 1}},
                             std::vector<var::Position>{{I::Call, 0, -100, 110, 0.25}},
                             std::vector<var::Position>{{I::AsianPut, 0, -300, 95, 0.3, 0, "", {}, 40}}}) {
      auto s = one_asset(book);
      s.student_t = t, s.dof = 4;
      const auto exact = var::exact_single_asset_tail(s, 0.99);
      const auto mc = sampled(s, 0.99, 2'000'000);
      INFO((t ? "student-t" : "normal") << ": VaR " << exact.var << " vs " << mc.var << ", ES " << exact.es << " vs " << mc.es);
      CHECK(exact.var == Approx(mc.var).epsilon(0.01));
      // A Student-t log shock gives S_h no mean, so a loss that grows with the
      // spot has no expected shortfall; the sampled one is finite but meaningless.
      if (t && book.front().instrument == I::Call)
        CHECK(std::isinf(exact.es));
      else
        CHECK(exact.es == Approx(mc.es).epsilon(0.015));
    }
  }
  // A long straddle gains on both sides: its loss is not monotone in the shock.
  CHECK_THROWS_WITH(var::exact_single_asset_tail(one_asset({{I::Call, 0, 1, 100, 0.5}, {I::Put, 0, 1, 100, 0.5}}), 0.99),
                    Catch::Contains("not monotone"));
}

TEST_CASE("delta-normal contributions add up to the total and follow the exposures", "[var]") {
  for (const bool t : {false, true}) {
    auto p = parse(kModel).spec;
    p.student_t = t, p.dof = 6;
    for (double alpha : {0.95, 0.999}) {
      const auto total = var::delta_normal(p, alpha);
      const auto parts = var::delta_normal_contributions(p, alpha);
      REQUIRE(parts.size() == p.portfolio.size());
      double v = 0, e = 0;
      for (const auto& c : parts) v += c.var, e += c.es;
      CHECK(v == Approx(total.var).epsilon(1e-12));
      CHECK(e == Approx(total.es).epsilon(1e-12));
    }
  }
  // Two stock positions on one asset share its VaR in proportion to their sizes,
  // and a hedge (a position against the rest) contributes a negative amount.
  auto p = parse(kModel).spec;
  p.portfolio = {{var::Instrument::Stock, 0, 300, 0, 0}, {var::Instrument::Stock, 0, 100, 0, 0},
                 {var::Instrument::Stock, 1, -50, 0, 0}};
  for (auto& a : p.assets) a.drift = 0;
  const auto parts = var::delta_normal_contributions(p, 0.99);
  CHECK(parts[0].var == Approx(3 * parts[1].var).epsilon(1e-12));
  CHECK(parts[2].var < 0);  // short BOLT against long ACME, correlation 0.4
}

TEMPLATE_TEST_CASE("a warp's rows at once give each asset's log spot to the bit", "[var]", float, double) {
  // Seven correlated assets: rows taken four at a time from any first row, against
  // log_spot_at one row at a time (the CPU's), on the same shocks.
  std::string assets, correlation;
  for (int i = 0; i < 7; ++i) {
    assets += "    - { name: A" + std::to_string(i) + ", spot: " + std::to_string(50 + 10 * i) + ", volatility: 0." +
              std::to_string(2 + i) + " }\n";
    std::string row;
    for (int j = 0; j < 7; ++j) row += std::string(j ? ", " : "") + (i == j ? "1" : "0.3");
    correlation += std::string(i ? ", " : "") + "[" + row + "]";
  }
  const auto p = parse("type: var\nhorizon_days: 10\nfactors:\n  assets:\n" + assets + "  correlation: [" + correlation +
                       "]\nrate: 0.03\nportfolio:\n  - { type: stock, asset: A0, quantity: 1 }\n");
  INFO(p.errors);
  REQUIRE(p.errors.empty());
  const auto arrays = var::portfolio_arrays<TestType>(p.spec);
  const auto pf = arrays.view(arrays.reals.data(), arrays.ints.data());
  std::mt19937 gen(3);
  std::normal_distribution<TestType> normal;
  std::vector<TestType> eps(7 * 3);  // stride 3, as a tile's column
  for (auto& e : eps) e = normal(gen);
  const TestType scale = TestType(1.25);
  for (int i0 = 0; i0 + 4 <= 7; ++i0) {
    TestType x[4];
    var::log_spots_at<4>(pf, i0, eps.data(), 3, scale, x);
    for (int r = 0; r < 4; ++r) {
      INFO(i0 << " " << r);
      const TestType one = var::log_spot_at(pf, i0 + r, var::cholesky_row(pf, i0 + r), eps.data(), 3, scale);
      CHECK(std::memcmp(&x[r], &one, sizeof one) == 0);
      CHECK(std::isfinite(one));
    }
  }
}
