// Hull-White closed forms: bonds reprice the curve, parities, Jamshidian's
// swaption and the caplet against an integral over the short-rate factor under the
// forward measure, and the Black-Scholes-Hull-White European's limits; Bermudan
// swaptions' grid against Jamshidian and their Longstaff-Schwartz paths against it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"
#include "models/rates/bermudan.hpp"
#include "models/rates/hull_white.hpp"
#include "models/rates/rate_products.hpp"
#include "reduce/moments.hpp"
#include "rng/stream.hpp"

using namespace mcsim;
using rates::HullWhite;

namespace {
// An upward curve from zero rates 2% at 6 months to 4% at 10 years.
market::Curve upward() {
  const std::vector<double> t{0.5, 1, 2, 5, 10}, z{0.02, 0.024, 0.028, 0.035, 0.04};
  std::vector<double> lp;
  for (std::size_t i = 0; i < t.size(); ++i) lp.push_back(-z[i] * t[i]);
  return market::Curve(t, lp);
}
const HullWhite model{0.08, 0.012, upward()};

// E^T[f(x(T))] P(0, T), by quadrature (to about 1e-8 relative for a payoff with a
// kink, which no panel edge meets): under the T-forward measure x(T) is normal with mean
// -(sigma/a)^2 (1 - e^{-aT}) + sigma^2/(2a^2) (1 - e^{-2aT}) and variance
// sigma^2 (1 - e^{-2aT}) / (2a) (Brigo and Mercurio, 3.41).
template <class F>
double forward_expectation(const HullWhite& m, double t, F&& f) {
  const double s2 = m.sigma * m.sigma, a = m.a;
  const double mean = -s2 / (a * a) * (1 - std::exp(-a * t)) + s2 / (2 * a * a) * (1 - std::exp(-2 * a * t));
  const double sd = std::sqrt(s2 * (1 - std::exp(-2 * a * t)) / (2 * a));
  const double e = option::integrate(-10, 10, 4000, [&](double z) {
    return f(mean + sd * z) * std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
  });
  return m.curve.discount(t) * e;
}
}  // namespace

TEST_CASE("Hull-White bonds reprice the curve and their options obey parity", "[rates]") {
  for (const double t : {0.25, 1.0, 3.0, 7.5, 12.0}) CHECK(model.bond(0, t, 0) == Approx(model.curve.discount(t)).epsilon(1e-14));
  // A bond at a later time averages back to the forward bond price under the T-forward measure.
  CHECK(forward_expectation(model, 2, [](double x) { return model.bond(2, 7, x); }) ==
        Approx(model.curve.discount(7)).epsilon(1e-10));
  const double call = model.bond_option(2, 7, 0.85, true), put = model.bond_option(2, 7, 0.85, false);
  CHECK(call - put == Approx(model.curve.discount(7) - 0.85 * model.curve.discount(2)).epsilon(1e-12));
  CHECK(call == Approx(forward_expectation(model, 2, [](double x) { return std::max(model.bond(2, 7, x) - 0.85, 0.0); }))
                    .epsilon(1e-7));
}

TEST_CASE("Hull-White caplets and Jamshidian's swaptions agree with the forward-measure integral", "[rates]") {
  const double k = 0.03;
  const double caplet = rates::caplet_price(model, 2, 2.5, k, true);
  // Worth at its fixing (2) what it pays at 2.5, discounted by the bond P(2, 2.5).
  CHECK(caplet == Approx(forward_expectation(model, 2, [&](double x) {
                    return std::max(1 - (1 + 0.5 * k) * model.bond(2, 2.5, x), 0.0);
                  })).epsilon(1e-7));
  // A one-period payer swaption is a caplet.
  CHECK(rates::swaption_price(model, {2, 2.5}, k, true) == Approx(caplet).epsilon(1e-10));
  // A 2y x 5y annual payer and receiver against the integral of the swap's value at expiry.
  const std::vector<double> dates{2, 3, 4, 5, 6, 7};
  const auto swap_at_expiry = [&](double x) {  // payer swap's value at 2 per unit notional
    double leg = 0;
    for (std::size_t i = 1; i < dates.size(); ++i) leg += k * (dates[i] - dates[i - 1]) * model.bond(2, dates[i], x);
    return 1 - leg - model.bond(2, dates.back(), x);
  };
  const double payer = rates::swaption_price(model, dates, k, true);
  const double receiver = rates::swaption_price(model, dates, k, false);
  CHECK(payer == Approx(forward_expectation(model, 2, [&](double x) { return std::max(swap_at_expiry(x), 0.0); }))
                     .epsilon(1e-7));
  CHECK(receiver == Approx(forward_expectation(model, 2, [&](double x) { return std::max(-swap_at_expiry(x), 0.0); }))
                        .epsilon(1e-7));
  // Parity: payer - receiver is the forward payer swap; at the par rate they are equal.
  CHECK(payer - receiver == Approx(forward_expectation(model, 2, swap_at_expiry)).epsilon(1e-10));
  const double par = rates::swap_rate(model.curve, dates);
  CHECK(rates::swaption_price(model, dates, par, true) == Approx(rates::swaption_price(model, dates, par, false)).epsilon(1e-10));
  // A cap is its caplets; a cap less a floor is the forward swap (floating less fixed).
  const std::vector<double> quarters{1, 1.25, 1.5, 1.75, 2};
  double caplets = 0;
  for (std::size_t i = 1; i < quarters.size(); ++i) caplets += rates::caplet_price(model, quarters[i - 1], quarters[i], k, true);
  CHECK(rates::cap_price(model, quarters, k, true) == Approx(caplets).epsilon(1e-14));
  double fixed = 0;
  for (std::size_t i = 1; i < quarters.size(); ++i) fixed += k * 0.25 * model.curve.discount(quarters[i]);
  CHECK(rates::cap_price(model, quarters, k, true) - rates::cap_price(model, quarters, k, false) ==
        Approx(model.curve.discount(1) - model.curve.discount(2) - fixed).epsilon(1e-10));
}

TEST_CASE("the Black-Scholes-Hull-White European tends to Black-Scholes on the curve", "[rates]") {
  const double t = 3, p = model.curve.discount(t), r = -std::log(p) / t;
  const option::BsmInput bs{100, 110, r, 0.01, 0.2, t, true};
  // No rate volatility: Black-Scholes at the zero rate to maturity.
  HullWhite still = model;
  still.sigma = 1e-12;
  CHECK(rates::bs_hull_white_price(still, 100, 0.01, 0.2, 0.5, 110, t, true) == Approx(option::bsm_price(bs)).epsilon(1e-10));
  // With rate volatility the forward's variance adds the bond's: sigma^2 T + 2 rho sigma sigma_r int B + sigma_r^2 int B^2.
  // By quadrature, not the closed forms the price uses.
  const double ib = option::integrate(0, t, 40, [&](double s) { return model.b(s, t); });
  const double ib2 = option::integrate(0, t, 40, [&](double s) { return model.b(s, t) * model.b(s, t); });
  for (const double rho : {-0.6, 0.0, 0.4}) {
    const double var = 0.04 * t + 2 * rho * 0.2 * model.sigma * ib + model.sigma * model.sigma * ib2;
    option::BsmInput eff = bs;
    eff.volatility = std::sqrt(var / t);
    CHECK(rates::bs_hull_white_price(model, 100, 0.01, 0.2, rho, 110, t, true) == Approx(option::bsm_price(eff)).epsilon(1e-10));
  }
  // Put-call parity on the curve.
  CHECK(rates::bs_hull_white_price(model, 100, 0.01, 0.2, 0.3, 110, t, true) -
            rates::bs_hull_white_price(model, 100, 0.01, 0.2, 0.3, 110, t, false) ==
        Approx(100 * std::exp(-0.01 * t) - 110 * p).epsilon(1e-12));
}

namespace {
// Mean and standard error of a Hull-White path kernel's first output over `groups`
// stream groups, run directly on the host.
template <class Real, int Copies>
std::pair<double, double> simulate(const rates::RateTables& t, int groups) {
  const auto kernel = rates::make_short_rate_path<Real, Copies>(t);
  double sum = 0, sum_sq = 0, n = 0;
  for (int g = 0; g < groups; ++g) {
    rng::Stream stream(20261208, static_cast<std::uint64_t>(g));
    reduce::GroupMoments<rates::ShortRatePath<Real, Copies>::kOutputs, Real> m;
    kernel.simulate(stream, kernel.kGroup, m);
    sum += m.sum[0], sum_sq += m.sum_sq[0], n += m.n[0];
  }
  const double mean = sum / n;
  return {mean, std::sqrt((sum_sq / n - mean * mean) / (n - 1))};
}
}  // namespace

TEST_CASE("Hull-White paths price bonds caps and swaptions at their closed forms", "[rates]") {
  const auto check = [](const std::vector<rates::RateEvent>& events, double expected, const char* what) {
    const auto t = rates::make_rate_tables(model, events);
    for (const auto& [mean, se] : {simulate<double, 1>(t, 40000), simulate<float, 1>(t, 40000), simulate<double, 2>(t, 40000)}) {
      INFO(what << ": " << mean << " +- " << se << " vs " << expected);
      CHECK(std::fabs(mean - expected) < 4 * se + 2e-6 * expected);  // float rounding of the discount
      CHECK(se < 0.03 * expected);
    }
  };
  check(rates::zero_coupon_bond(7), model.curve.discount(7), "bond");
  const std::vector<double> quarters{1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3};
  check(rates::cap_events(quarters, 0.03, true), rates::cap_price(model, quarters, 0.03, true), "cap");
  check(rates::cap_events(quarters, 0.03, false), rates::cap_price(model, quarters, 0.03, false), "floor");
  const std::vector<double> annual{2, 3, 4, 5, 6, 7};
  check(rates::swaption_events(annual, 0.035, true), rates::swaption_price(model, annual, 0.035, true), "payer");
  check(rates::swaption_events(annual, 0.035, false), rates::swaption_price(model, annual, 0.035, false), "receiver");
  // The paths see the rate's volatility: doubled sigma moves the swaption by many errors.
  HullWhite wild = model;
  wild.sigma *= 2;
  const auto [mean, se] = simulate<double, 1>(rates::make_rate_tables(wild, rates::swaption_events(annual, 0.035, true)), 40000);
  CHECK(std::fabs(mean - rates::swaption_price(model, annual, 0.035, true)) > 8 * se);
}

TEST_CASE("a rates job runs its product on Hull-White paths and refuses what it does not take", "[rates][config]") {
  const std::string job =
      "run: { name: t, paths: 100_000, seed: 9, chunk_paths: 16384 }\nmodel:\n  type: rates\n"
      "  short_rate: { model: hull_white, a: 0.1, sigma: 0.01, rate: 0.03 }\n"
      "  product: { type: cap, strike: 0.03, start: 1, maturity: 4, period: 0.25 }\n";
  const auto r = run_cpu(job);
  const HullWhite flat{0.1, 0.01, market::Curve::flat(0.03)};
  std::vector<double> dates;
  for (int i = 0; i <= 12; ++i) dates.push_back(1 + 0.25 * i);
  CHECK(reference(r) == Approx(rates::cap_price(flat, dates, 0.03, true)).epsilon(1e-12));
  CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
  CHECK(has_line(errors_of(job, {"model.product.period=0.4"}), "a whole number (>= 1) of periods"));
  CHECK(has_line(errors_of(job, {"model.variance_reduction=[control_variate]"}), "a rates job takes antithetic pairs"));
  CHECK(has_line(errors_of(job, {"model.market={dividend_yield: {times: [1], zero_rates: [0.01]}}"}),
                 "a rates job reads model.market.discount only"));
  CHECK(has_line(errors_of(job, {"model.market={discount: {times: [1], zero_rates: [0.01]}}"}),
                 "the rate comes from model.market.discount"));
  CHECK(has_line(errors_of(job, {"model.product.type=swaption"}), "model.product: missing required key 'position'"));
  CHECK(has_line(errors_of(job, {"model.short_rate.a=0"}), "model.short_rate.a"));
}

namespace {
const std::string kBermudanJob =
    "run: { name: t, paths: 200_000, seed: 17, chunk_paths: 16384 }\nmodel:\n  type: rates\n"
    "  market: { discount: { times: [0.5, 1, 2, 5, 10], zero_rates: [0.02, 0.024, 0.028, 0.035, 0.04] } }\n"
    "  short_rate: { model: hull_white, a: 0.08, sigma: 0.012 }\n"
    "  product: { type: bermudan_swaption, position: payer, strike: 0.035, start: 2, maturity: 7, period: 1 }\n";

// The grid's price: its linear interpolation near the exercise boundary leaves
// about 1e-4 of the price, which mcsim states (the gap to a grid of half the nodes).
double grid_price(const std::vector<double>& dates, double strike, bool payer) {
  return rates::bermudan_swaption_price(model, dates, strike, payer);
}
}  // namespace

TEST_CASE("the Bermudan grid is Jamshidian's European on one date and worth more than each co-terminal one", "[rates][bermudan]") {
  for (bool payer : {true, false}) {
    INFO((payer ? "payer" : "receiver"));
    // One exercise date: a one-period swap's European.
    CHECK(grid_price({3, 4}, 0.03, payer) == Approx(rates::swaption_price(model, {3, 4}, 0.03, payer)).epsilon(2e-4));
    const std::vector<double> dates{2, 3, 4, 5, 6, 7};
    const double bermudan = grid_price(dates, 0.035, payer);
    double best = 0;
    for (std::size_t k = 0; k + 1 < dates.size(); ++k)
      best = std::max(best, rates::swaption_price(model, std::vector<double>(dates.begin() + k, dates.end()), 0.035, payer));
    CHECK(bermudan > best * 1.02);
    // The grid converges: twice the nodes agree to its stated error.
    CHECK(rates::bermudan_swaption_price(model, dates, 0.035, payer, 1601) == Approx(bermudan).epsilon(2e-4));
  }
}

TEST_CASE("Bermudan swaptions on Longstaff-Schwartz paths agree with the grid", "[rates][bermudan]") {
  for (const char* precision : {"float", "double"})
    for (const char* position : {"payer", "receiver"}) {
      INFO(precision << " " << position);
      const auto r = run_cpu(kBermudanJob, {std::string("run.precision=") + precision, std::string("model.product.position=") + position,
                                    "model.variance_reduction=[antithetic]"});
      const auto& ref = r.scenarios.front().references.front();
      CHECK(std::fabs(price(r).value - ref.value) < 4 * price(r).std_error + ref.tolerance);
      // The rule's shortfall: less than the tolerance stated for it.
      CHECK(price(r).value > ref.value - ref.tolerance);
    }
  // Exercise pays: the Bermudan beats the best co-terminal European by many errors.
  const auto r = run_cpu(kBermudanJob);
  const double european = rates::swaption_price(model, {2, 3, 4, 5, 6, 7}, 0.035, true);
  CHECK(price(r).value - european > 10 * price(r).std_error);
  // The same seed gives the same rule and the same bits; another seed another rule.
  CHECK(price(run_cpu(kBermudanJob)).value == price(r).value);
  CHECK(price(run_cpu(kBermudanJob, {"run.seed=18"})).value != price(r).value);
}

TEST_CASE("regression_paths belongs to a Bermudan swaption", "[rates][bermudan][config]") {
  CHECK(has_line(errors_of(kBermudanJob, {"model.product.type=swaption", "model.regression_paths=4096"}),
                 "only a Bermudan swaption fits an exercise rule"));
  CHECK(has_line(errors_of(kBermudanJob, {"model.regression_paths=10"}), "model.regression_paths"));
  CHECK(errors_of(kBermudanJob, {"model.regression_paths=4096"}).empty());
}
