// Bermudan swaptions under Hull-White: Longstaff-Schwartz's exercise rule, fitted
// on paths of its own, and a reference by backward induction on a grid of the factor.
#pragma once
#include <cstdint>
#include <vector>

#include "models/kernel_table.hpp"
#include "models/rates/hull_white.hpp"
#include "models/rates/rate_products.hpp"

namespace mcsim::rates {

// Per exercise date, ShortRatePath::kRuleFields coefficients of the cubic in the
// date's coupon bond that estimates holding on, in money of that date: the
// discounted cash flows of in-the-money regression paths, regressed by least
// squares backward from the last date (zeros: nothing left to hold). The paths step
// as the pricing kernel does (ShortRatePath<double>) on streams of their own
// (option::kRegressionStreams), in double on the host, so every backend and
// precision follows one rule.
TableData fit_bermudan_rule(const RateTables& tables, std::uint64_t paths, std::uint64_t seed);

// The Bermudan swaption exercisable at dates[0..n-1] into the co-terminal swap,
// per unit notional, by backward induction over the dates on a grid of the factor
// x: between dates, x is normal under the forward measure of the next date, so
// holding on is P(t_k, t_{k+1}; x) times the exact normal expectation of the next
// date's value, linear between grid nodes: about 1e-4 of the price at 801 nodes.
double bermudan_swaption_price(const HullWhite& m, const std::vector<double>& dates, double strike, bool payer,
                               int nodes = 801);

}  // namespace mcsim::rates
