// Closed forms against published values: Haug, "The Complete Guide to Option
// Pricing Formulas" (2nd ed.) examples, an independent Python computation, and Hull, "Options, Futures, and Other
// Derivatives" (example 15.6).
#include <catch2/catch.hpp>

#include "models/option/analytic.hpp"

using namespace mcsim::option;

TEST_CASE("Black-Scholes-Merton prices match published examples", "[analytic]") {
  // Hull: S=42, K=40, r=10%, sigma=20%, T=0.5: call 4.76, put 0.81.
  CHECK(bsm_price({42, 40, 0.10, 0.0, 0.20, 0.5, true}) == Approx(4.7594).margin(1e-4));
  CHECK(bsm_price({42, 40, 0.10, 0.0, 0.20, 0.5, false}) == Approx(0.8086).margin(1e-4));
  // Haug 1.1.1: S=60, K=65, T=0.25, r=8%, sigma=30%: call 2.1334.
  CHECK(bsm_price({60, 65, 0.08, 0.0, 0.30, 0.25, true}) == Approx(2.1334).margin(1e-4));
  // Haug 1.1.2 (Merton 1973): S=100, K=95, T=0.5, r=10%, q=5%, sigma=20%: put 2.4648.
  CHECK(bsm_price({100, 95, 0.10, 0.05, 0.20, 0.5, false}) == Approx(2.4648).margin(1e-4));
  // Haug 1.1.6 (generalised, b = r - q = 5%): S=75, K=70, T=0.5, r=10%, sigma=35%: put 4.0870.
  CHECK(bsm_price({75, 70, 0.10, 0.05, 0.35, 0.5, false}) == Approx(4.0870).margin(1e-4));
}

TEST_CASE("put-call parity holds with a dividend yield", "[analytic]") {
  const BsmInput c{103, 97, 0.04, 0.02, 0.3, 1.7, true};
  BsmInput p = c;
  p.call = false;
  const double parity = 103 * std::exp(-0.02 * 1.7) - 97 * std::exp(-0.04 * 1.7);
  CHECK(bsm_price(c) - bsm_price(p) == Approx(parity).epsilon(1e-12));
}

TEST_CASE("delta and vega match published examples and finite differences", "[analytic]") {
  // Haug 2.1.1: S=105, K=100, T=0.5, r=10%, b=0 (q=r), sigma=36%: call delta 0.5946, put -0.3566.
  CHECK(bsm_delta({105, 100, 0.10, 0.10, 0.36, 0.5, true}) == Approx(0.5946).margin(1e-4));
  CHECK(bsm_delta({105, 100, 0.10, 0.10, 0.36, 0.5, false}) == Approx(-0.3566).margin(1e-4));
  // S=55, K=60, T=0.75, r=10.5%, q=3.55%, sigma=30%: vega 18.502744 (central difference of
  // the price in Python's math module, step 1e-5).
  CHECK(bsm_vega({55, 60, 0.105, 0.105 - 0.0695, 0.30, 0.75, true}) == Approx(18.502744).margin(1e-5));
  const BsmInput in{100, 110, 0.03, 0.01, 0.25, 2.0, true};
  const double h = 1e-4;
  BsmInput up = in, dn = in;
  up.spot += h, dn.spot -= h;
  CHECK(bsm_delta(in) == Approx((bsm_price(up) - bsm_price(dn)) / (2 * h)).epsilon(1e-7));
  up = in, dn = in;
  up.volatility += h, dn.volatility -= h;
  CHECK(bsm_vega(in) == Approx((bsm_price(up) - bsm_price(dn)) / (2 * h)).epsilon(1e-7));
}

TEST_CASE("cash-or-nothing digital matches Haug's example", "[analytic]") {
  // Haug 4.19.2: S=100, K=80, cash 10, T=0.75, r=6%, b=0 (q=r), sigma=35%: put 2.6710.
  CHECK(digital_price({100, 80, 0.06, 0.06, 0.35, 0.75, false}, 10) == Approx(2.6710).margin(1e-4));
  const BsmInput c{100, 80, 0.06, 0.06, 0.35, 0.75, true};
  BsmInput p = c;
  p.call = false;
  CHECK(digital_price(c, 1) + digital_price(p, 1) == Approx(std::exp(-0.06 * 0.75)).epsilon(1e-14));
}

TEST_CASE("gamma rho and theta are the finite differences of the price", "[analytic]") {
  for (bool call : {true, false}) {
    const BsmInput in{100, 110, 0.03, 0.01, 0.25, 2.0, call};
    const double h = 1e-4;
    const double hs = 1e-2;  // a second difference needs a wider step against rounding
    BsmInput up = in, dn = in;
    up.spot += hs, dn.spot -= hs;
    CHECK(bsm_gamma(in) == Approx((bsm_price(up) - 2 * bsm_price(in) + bsm_price(dn)) / (hs * hs)).epsilon(1e-6));
    up = in, dn = in;
    up.rate += h, dn.rate -= h;
    CHECK(bsm_rho(in) == Approx((bsm_price(up) - bsm_price(dn)) / (2 * h)).epsilon(1e-7));
    up = in, dn = in;
    up.maturity += h, dn.maturity -= h;
    CHECK(bsm_theta(in) == Approx(-(bsm_price(up) - bsm_price(dn)) / (2 * h)).epsilon(1e-7));
  }
}

TEST_CASE("the digital's Greeks are the finite differences of its price", "[analytic]") {
  for (bool call : {true, false}) {
    const BsmInput in{100, 95, 0.04, 0.01, 0.3, 1.5, call};
    const DigitalGreeks g = digital_greeks(in, 10);
    const auto price = [](BsmInput x) { return digital_price(x, 10); };
    const double h = 1e-4, hs = 1e-2;
    BsmInput up = in, dn = in;
    up.spot += h, dn.spot -= h;
    CHECK(g.delta == Approx((price(up) - price(dn)) / (2 * h)).epsilon(1e-7));
    up = in, dn = in;
    up.spot += hs, dn.spot -= hs;
    CHECK(g.gamma == Approx((price(up) - 2 * price(in) + price(dn)) / (hs * hs)).epsilon(1e-5));
    up = in, dn = in;
    up.volatility += h, dn.volatility -= h;
    CHECK(g.vega == Approx((price(up) - price(dn)) / (2 * h)).epsilon(1e-7));
    up = in, dn = in;
    up.rate += h, dn.rate -= h;
    CHECK(g.rho == Approx((price(up) - price(dn)) / (2 * h)).epsilon(1e-7));
  }
}
