// Closed forms of the path-dependent options against published values and the
// identities that tie them together.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"

using namespace mcsim::option;

namespace {
// Haug's barrier table: S=100, T=0.5, r=8%, b=4% (q=4%), sigma=25%, rebate 3
// (paid at the hit for out-options, at expiry for in-options).
BsmInput haug(double strike, bool call) { return {100, strike, 0.08, 0.04, 0.25, 0.5, call}; }
double price(double strike, bool call, BarrierKind kind, double h) {
  return barrier_price(haug(strike, call), kind, h, 3.0, RebateTime::AtHit);
}
}  // namespace

TEST_CASE("barrier prices reproduce Haug's table", "[analytic][barrier]") {
  using K = BarrierKind;
  const double strikes[3] = {90, 100, 110};
  const struct {
    bool call;
    K kind;
    double h, v[3];
  } rows[] = {
      {true, K::DownOut, 95, {9.0246, 6.7924, 4.8759}},  {true, K::DownOut, 100, {3.0000, 3.0000, 3.0000}},
      {true, K::UpOut, 105, {2.6789, 2.3580, 2.3453}},   {true, K::DownIn, 95, {7.7627, 4.0109, 2.0576}},
      {true, K::DownIn, 100, {13.8333, 7.8494, 3.9795}}, {true, K::UpIn, 105, {14.1112, 8.4482, 4.5910}},
      {false, K::DownOut, 95, {2.2798, 2.2947, 2.6252}}, {false, K::DownOut, 100, {3.0000, 3.0000, 3.0000}},
      {false, K::UpOut, 105, {3.7760, 5.4932, 7.5187}},  {false, K::DownIn, 95, {2.9586, 6.5677, 11.9752}},
      {false, K::DownIn, 100, {2.2845, 5.9085, 11.0254}}, {false, K::UpIn, 105, {1.4653, 3.3721, 7.0846}},
  };
  for (const auto& row : rows)
    for (int i = 0; i < 3; ++i) {
      if (row.h == 100) continue;  // spot on the barrier: already knocked, outside the formula
      INFO((row.call ? "call " : "put ") << static_cast<int>(row.kind) << " H=" << row.h << " X=" << strikes[i]);
      CHECK(price(strikes[i], row.call, row.kind, row.h) == Approx(row.v[i]).margin(1e-4));
    }
}

TEST_CASE("in plus out is the vanilla and rebates add the hit probability", "[analytic][barrier]") {
  for (bool call : {true, false})
    for (double strike : {80.0, 95.0, 100.0, 120.0})
      for (double h : {90.0, 110.0}) {
        const BsmInput in{100, strike, 0.05, 0.02, 0.3, 1.3, call};
        const BarrierKind out = h < 100 ? BarrierKind::DownOut : BarrierKind::UpOut;
        const BarrierKind kin = h < 100 ? BarrierKind::DownIn : BarrierKind::UpIn;
        INFO(call << " K=" << strike << " H=" << h);
        CHECK(barrier_price(in, out, h, 0, RebateTime::AtExpiry) + barrier_price(in, kin, h, 0, RebateTime::AtExpiry) ==
              Approx(bsm_price(in)).epsilon(1e-12));
        const double p = barrier_hit_probability(in, out, h);
        CHECK(p > 0);
        CHECK(p < 1);
        const double df = std::exp(-0.05 * 1.3);
        CHECK(barrier_price(in, out, h, 2.5, RebateTime::AtExpiry) - barrier_price(in, out, h, 0, RebateTime::AtExpiry) ==
              Approx(2.5 * df * p).epsilon(1e-12));
        CHECK(barrier_price(in, kin, h, 2.5, RebateTime::AtExpiry) - barrier_price(in, kin, h, 0, RebateTime::AtExpiry) ==
              Approx(2.5 * df * (1 - p)).epsilon(1e-12));
        // Paid earlier, a positive-rate rebate is worth more.
        CHECK(barrier_price(in, out, h, 2.5, RebateTime::AtHit) > barrier_price(in, out, h, 2.5, RebateTime::AtExpiry));
      }
}

TEST_CASE("the discrete barrier correction vanishes with the monitoring interval", "[analytic][barrier]") {
  const BsmInput in{100, 100, 0.05, 0.0, 0.3, 1.0, true};
  const double cont = barrier_price(in, BarrierKind::DownOut, 90, 0, RebateTime::AtExpiry);
  CHECK(barrier_price_discrete(in, BarrierKind::DownOut, 90, 0, 1e-16) == Approx(cont).epsilon(1e-6));
  // Monitoring less often knocks out less: a discrete down-and-out is worth more.
  CHECK(barrier_price_discrete(in, BarrierKind::DownOut, 90, 0, 1.0 / 365) > cont);
  CHECK(barrier_price_discrete(in, BarrierKind::DownIn, 90, 0, 1.0 / 365) <
        barrier_price(in, BarrierKind::DownIn, 90, 0, RebateTime::AtExpiry));
}

TEST_CASE("geometric Asian prices reduce to Black-Scholes and to continuous averaging", "[analytic][asian]") {
  for (bool call : {true, false}) {
    const BsmInput in{100, 95, 0.04, 0.01, 0.35, 1.5, call};
    CHECK(geometric_asian_price(in, {1.5}) == Approx(bsm_price(in)).epsilon(1e-12));  // one fixing at T
    std::vector<double> times;
    for (int i = 1; i <= 20000; ++i) times.push_back(1.5 * i / 20000);
    CHECK(geometric_asian_price(in, times) == Approx(geometric_asian_continuous_price(in)).epsilon(1e-4));
  }
  // Kemna-Vorst continuous geometric average, Haug 4.20.1: S=80, X=85, T=0.25, r=5%, b=8%
  // (q=-3%), sigma=20%: put 4.6922.
  CHECK(geometric_asian_continuous_price({80, 85, 0.05, -0.03, 0.20, 0.25, false}) == Approx(4.6922).margin(1e-4));
}

TEST_CASE("lookback prices match Haug's example and their bounds", "[analytic][lookback]") {
  // Floating strike call, Haug 4.15.1: S=120, S_min=100, T=0.5, r=10%, b=4% (q=6%), sigma=30%: 25.3533.
  CHECK(lookback_floating_price({120, 0, 0.10, 0.06, 0.30, 0.5, true}, 100) == Approx(25.3533).margin(1e-4));
  // A lookback is worth more than the European it dominates, and the fixed call with
  // strike at the spot equals the floating put plus a forward (max S - K = (max S - S_T) + (S_T - K)).
  const BsmInput c{100, 100, 0.05, 0.01, 0.25, 1.0, true};
  BsmInput p = c;
  p.call = false;
  CHECK(lookback_fixed_price(c, 100) > bsm_price(c));
  CHECK(lookback_floating_price(p, 100) > bsm_price(p));
  const double forward = 100 * std::exp(-0.01) - 100 * std::exp(-0.05);
  CHECK(lookback_fixed_price(c, 100) == Approx(lookback_floating_price(p, 100) + forward).epsilon(1e-12));
  BsmInput fc = c;
  fc.call = true;
  CHECK(lookback_floating_price(fc, 100) - forward == Approx(lookback_fixed_price(p, 100)).epsilon(1e-12));
}

TEST_CASE("Heston prices match Lewis's published values", "[analytic][heston]") {
  // Lewis (2000): S=100, T=1, r=1%, q=2%, v0=0.04, kappa=4, theta=0.25, xi=1, rho=-0.5.
  const auto call = [](double k) { return heston_price({100, k, 0.01, 0.02, 1.0, 0.04, 4.0, 0.25, 1.0, -0.5, true}); };
  CHECK(call(80) == Approx(26.774758743998854).epsilon(1e-9));
  CHECK(call(100) == Approx(16.070154917028834).epsilon(1e-9));
  CHECK(call(120) == Approx(9.024913483457836).epsilon(1e-9));
  // With almost no vol of vol and v = theta the price is Black-Scholes at sigma = sqrt(theta).
  const HestonInput flat{100, 105, 0.03, 0.01, 2.0, 0.09, 1.0, 0.09, 1e-3, 0.0, false};
  CHECK(heston_price(flat) == Approx(bsm_price({100, 105, 0.03, 0.01, 0.3, 2.0, false})).epsilon(1e-6));
}

TEST_CASE("Merton jump-diffusion prices reproduce Haug's table", "[analytic][jumps]") {
  // Haug (1998), p. 9, as converged in QuantLib's jump-diffusion tests: S=100, r=8%,
  // total volatility 25% of which a share gamma of the variance is from jumps of
  // zero mean size (log mean -vol^2/2), at intensity lambda.
  const auto haug = [](double k, double t, double lambda, double gamma) {
    const double jump_vol = 0.25 * std::sqrt(gamma / lambda);
    return merton_price({100, k, 0.08, 0, 0.25 * std::sqrt(1 - gamma), t, true},
                        Jumps{lambda, -0.5 * jump_vol * jump_vol, jump_vol});
  };
  CHECK(haug(80, 0.10, 1, 0.25) == Approx(20.67).margin(1e-2));
  CHECK(haug(90, 0.25, 5, 0.25) == Approx(12.75).margin(1e-2));
  CHECK(haug(100, 0.50, 10, 0.25) == Approx(9.03).margin(1e-2));
  CHECK(haug(100, 0.10, 1, 0.50) == Approx(3.14).margin(1e-2));
  CHECK(haug(110, 0.25, 1, 0.75) == Approx(1.69).margin(1e-2));
  CHECK(haug(120, 0.10, 5, 0.75) == Approx(0.15).margin(1e-2));
  CHECK(haug(120, 0.50, 10, 0.50) == Approx(2.24).margin(1e-2));
  // No jumps is Black-Scholes; put-call parity holds with jumps (they keep the forward).
  const BsmInput in{100, 95, 0.03, 0.01, 0.2, 1.5, true};
  CHECK(merton_price(in, Jumps{}) == Approx(bsm_price(in)).epsilon(1e-13));
  const Jumps j{2.0, -0.1, 0.15};
  BsmInput put = in;
  put.call = false;
  CHECK(merton_price(in, j) - merton_price(put, j) ==
        Approx(100 * std::exp(-0.01 * 1.5) - 95 * std::exp(-0.03 * 1.5)).epsilon(1e-12));
}

TEST_CASE("Bates prices tend to Merton's and to a Poisson mixture of Heston prices", "[analytic][jumps]") {
  const Jumps j{1.5, -0.08, 0.12};
  // Almost no vol of vol with v = theta: Merton's diffusion at sigma = sqrt(theta).
  for (const double k : {80.0, 100.0, 125.0}) {
    const HestonInput flat{100, k, 0.03, 0.01, 1.0, 0.04, 1.0, 0.04, 1e-4, 0.0, true};
    CHECK(bates_price(flat, j) == Approx(merton_price({100, k, 0.03, 0.01, 0.2, 1.0, true}, j)).epsilon(1e-6));
  }
  // Jumps of one fixed size m (no spread): given n jumps the log spot moves by n m
  // less the compensation, so the price is Heston's at shifted spots, Poisson-weighted.
  const HestonInput h{100, 105, 0.02, 0.0, 0.75, 0.05, 2.0, 0.06, 0.5, -0.7, false};
  const Jumps fixed{0.8, -0.15, 0.0};
  double mixture = 0, weight = std::exp(-fixed.intensity * h.maturity);
  for (int n = 0; n < 40; ++n) {
    HestonInput shifted = h;
    shifted.spot = h.spot * std::exp(n * fixed.mean - fixed.intensity * fixed.compensator() * h.maturity);
    mixture += weight * heston_price(shifted);
    weight *= fixed.intensity * h.maturity / (n + 1);
  }
  CHECK(bates_price(h, fixed) == Approx(mixture).epsilon(1e-8));
  CHECK(bates_price(h, Jumps{}) == heston_price(h));
}

TEST_CASE("forward-start options match Haug's example and cliquets their limits", "[analytic][cliquet]") {
  // Haug (2007), forward start option: S=60, alpha=1.1, t=0.25, T=1, r=8%, b=4%, sigma=30%.
  CHECK(forward_start_price({60, 1.1, 0.08, 0.04, 0.3, 1.0, true}, 0.25) == Approx(4.4064).margin(1e-4));
  // Started today it is the option struck at alpha S.
  CHECK(forward_start_price({100, 0.95, 0.03, 0.01, 0.2, 2.0, false}, 0.0) ==
        Approx(bsm_price({100, 95, 0.03, 0.01, 0.2, 2.0, false})).epsilon(1e-13));
  const BsmInput in{100, 0, 0.03, 0.01, 0.25, 2.0, true};
  const std::vector<double> quarters{0.5, 1.0, 1.5, 2.0};
  // No floor or cap: the expected returns; floor = cap: a fixed coupon per period.
  CHECK(cliquet_price(in, quarters, -1, INFINITY) == Approx(std::exp(-0.06) * 4 * (std::exp(0.02 * 0.5) - 1)).epsilon(1e-12));
  CHECK(cliquet_price(in, quarters, 0.02, 0.02) == Approx(std::exp(-0.06) * 4 * 0.02).epsilon(1e-12));
  // Each period's capped and floored return by quadrature over its lognormal (kinks: 1e-7).
  const double dt = 0.5, m = (0.03 - 0.01 - 0.5 * 0.0625) * dt, sd = 0.25 * std::sqrt(dt);
  const double one = integrate(-10, 10, 2000, [&](double z) {
    const double r = std::exp(m + sd * z) - 1;
    return std::min(std::max(r, -0.03), 0.05) * std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
  });
  CHECK(cliquet_price(in, quarters, -0.03, 0.05) == Approx(std::exp(-0.06) * 4 * one).epsilon(1e-6));
}

TEST_CASE("the binomial tree converges to Black-Scholes and prices Longstaff-Schwartz's American puts", "[analytic][american]") {
  const BsmInput eu{100, 95, 0.04, 0.01, 0.3, 1.5, false};
  CHECK(binomial_price(eu, 4000, false) == Approx(bsm_price(eu)).margin(2e-3));
  // Longstaff and Schwartz (2001), Table 1, finite-difference values of puts exercisable
  // 50 times a year: K=40, r=6%, T=1.
  CHECK(binomial_price({36, 40, 0.06, 0.0, 0.2, 1.0, false}, 4000, true, 50) == Approx(4.478).margin(2e-3));
  CHECK(binomial_price({40, 40, 0.06, 0.0, 0.2, 1.0, false}, 4000, true, 50) == Approx(2.314).margin(2e-3));
  CHECK(binomial_price({36, 40, 0.06, 0.0, 0.4, 1.0, false}, 4000, true, 50) == Approx(7.101).margin(2e-3));
  // Exercise at every node is worth a little more than on 50 dates.
  CHECK(binomial_price({36, 40, 0.06, 0.0, 0.2, 1.0, false}, 4000, true) > 4.478 + 2e-3);
  // Without dividends an American call is never exercised early.
  const BsmInput call{100, 100, 0.05, 0.0, 0.25, 1.0, true};
  CHECK(binomial_price(call, 2000, true) == Approx(binomial_price(call, 2000, false)).epsilon(1e-12));
}

TEST_CASE("Margrabe's exchange option satisfies its parity and limits", "[analytic][exchange]") {
  const double a = margrabe_price(110, 100, 0.01, 0.03, 0.3, 0.2, 0.4, 1.5);
  const double b = margrabe_price(100, 110, 0.03, 0.01, 0.2, 0.3, 0.4, 1.5);
  // Exchange 2 for 1, minus exchange 1 for 2, is the difference of the prepaid forwards.
  CHECK(a - b == Approx(110 * std::exp(-0.015) - 100 * std::exp(-0.045)).epsilon(1e-12));
  // A riskless second asset is a cash strike: Black-Scholes with the rate its yield.
  CHECK(margrabe_price(100, 95, 0.0, 0.04, 0.25, 1e-9, 0.0, 1.0) ==
        Approx(bsm_price({100, 95, 0.04, 0.0, 0.25, 1.0, true})).epsilon(1e-7));
}

TEST_CASE("two-asset best-of and worst-of prices reproduce Haug's published values", "[analytic][basket]") {
  // Haug, Option Pricing Formulas (1998), p. 56-58 (Stulz's formulas): K=98, S1=100,
  // S2=105, r=5%, T=0.5, sigma1=11%, sigma2=16%, rho=0.63.
  const TwoAssetInput plain{100, 105, 0.0, 0.0, 0.11, 0.16, 0.63, 0.05, 0.5};
  CHECK(two_asset_price(plain, TwoAssetPayoff::Min, 1, 1, 98, true) == Approx(4.8177).margin(1e-4));
  CHECK(two_asset_price(plain, TwoAssetPayoff::Max, 1, 1, 98, true) == Approx(11.6323).margin(1e-4));
  CHECK(two_asset_price(plain, TwoAssetPayoff::Min, 1, 1, 98, false) == Approx(2.0376).margin(1e-4));
  CHECK(two_asset_price(plain, TwoAssetPayoff::Max, 1, 1, 98, false) == Approx(0.5731).margin(1e-4));
  const TwoAssetInput yields{100, 105, 0.06, 0.09, 0.11, 0.16, 0.63, 0.05, 0.5};
  CHECK(two_asset_price(yields, TwoAssetPayoff::Min, 1, 1, 98, true) == Approx(2.9340).margin(1e-4));
  CHECK(two_asset_price(yields, TwoAssetPayoff::Min, 1, 1, 98, false) == Approx(3.5224).margin(1e-4));
  CHECK(two_asset_price(yields, TwoAssetPayoff::Max, 1, 1, 98, true) == Approx(8.0701).margin(1e-4));
  CHECK(two_asset_price(yields, TwoAssetPayoff::Max, 1, 1, 98, false) == Approx(1.2181).margin(1e-4));
}

TEST_CASE("two-asset prices meet Margrabe and the vanilla parities", "[analytic][basket]") {
  const TwoAssetInput in{110, 100, 0.01, 0.03, 0.3, 0.2, 0.4, 0.04, 1.5};
  const double exchange = margrabe_price(110, 100, 0.01, 0.03, 0.3, 0.2, 0.4, 1.5);
  const double swapped = margrabe_price(100, 110, 0.03, 0.01, 0.2, 0.3, 0.4, 1.5);
  // A spread struck at 0 is the exchange option, call and put.
  CHECK(two_asset_price(in, TwoAssetPayoff::Sum, 1, -1, 0, true) == Approx(exchange).epsilon(1e-10));
  CHECK(two_asset_price(in, TwoAssetPayoff::Sum, 1, -1, 0, false) == Approx(swapped).epsilon(1e-10));
  // max + min = S1 + S2, so the calls on them add up to the two vanilla calls.
  const BsmInput c1{110, 105, 0.04, 0.01, 0.3, 1.5, true}, c2{100, 105, 0.04, 0.03, 0.2, 1.5, true};
  CHECK(two_asset_price(in, TwoAssetPayoff::Max, 1, 1, 105, true) + two_asset_price(in, TwoAssetPayoff::Min, 1, 1, 105, true) ==
        Approx(bsm_price(c1) + bsm_price(c2)).epsilon(1e-10));
  // The best of the two, struck near 0, is asset 2 plus the option to exchange it for asset 1.
  const double prepaid2 = 100 * std::exp(-0.03 * 1.5), prepaid1 = 110 * std::exp(-0.01 * 1.5);
  CHECK(two_asset_price(in, TwoAssetPayoff::Max, 1, 1, 1e-9, true) == Approx(prepaid2 + exchange).epsilon(1e-9));
  // Call minus put is the discounted forward of the level, less the strike.
  const double df = std::exp(-0.04 * 1.5);
  for (double w2 : {0.5, -0.7}) {
    const double diff = two_asset_price(in, TwoAssetPayoff::Sum, 0.8, w2, 30, true) -
                        two_asset_price(in, TwoAssetPayoff::Sum, 0.8, w2, 30, false);
    CHECK(diff == Approx(0.8 * prepaid1 + w2 * prepaid2 - 30 * df).epsilon(1e-10));
  }
  const double best_forward = prepaid2 + exchange;
  CHECK(two_asset_price(in, TwoAssetPayoff::Max, 1, 1, 105, true) - two_asset_price(in, TwoAssetPayoff::Max, 1, 1, 105, false) ==
        Approx(best_forward - 105 * df).epsilon(1e-10));
}

TEST_CASE("the geometric basket is Black-Scholes-Merton on its lognormal level", "[analytic][basket]") {
  // One asset: the vanilla itself.
  const BasketInput one{{100}, {0.25}, {0.02}, {{1.0}}, {1.0}, 0.05, 2.0};
  CHECK(geometric_basket_price(one, 95, true) == Approx(bsm_price({100, 95, 0.05, 0.02, 0.25, 2.0, true})).epsilon(1e-12));
  // Two perfectly correlated assets of equal volatility and yield: G = sqrt(S1 S2) moves as one asset.
  const BasketInput pair{{100, 81}, {0.3, 0.3}, {0.01, 0.01}, {{1, 1}, {1, 1}}, {1, 1}, 0.03, 1.0};
  CHECK(geometric_basket_price(pair, 170, false) == Approx(bsm_price({2 * 90, 170, 0.03, 0.01, 0.3, 1.0, false})).epsilon(1e-12));
  // Independent assets of equal volatility: the level's volatility is sigma / sqrt(2) and
  // its yield q + sigma^2 / 4 (half the lost convexity).
  const BasketInput indep{{100, 100}, {0.4, 0.4}, {0.0, 0.0}, {{1, 0}, {0, 1}}, {0.5, 0.5}, 0.05, 1.0};
  CHECK(geometric_basket_price(indep, 100, true) ==
        Approx(bsm_price({100, 100, 0.05, 0.04, 0.4 / std::sqrt(2.0), 1.0, true})).epsilon(1e-12));
}
