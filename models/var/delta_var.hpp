// The textbook approximations a full-revaluation VaR is compared with: the
// portfolio's loss expanded to first (delta-normal) or second order
// (delta-gamma-normal) in the risk factors' log shocks over the horizon.
#pragma once
#include "models/var/analytic.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

// The portfolio's value today, and its sensitivities to each asset's spot: dV/dS_i
// and d2V/dS_i^2; the gamma matrix's other entries are the exchanges', each on two
// assets: d2V/dS_i dS_j of one.
struct PortfolioGreeks {
  struct Cross {
    std::size_t i, j;
    double gamma;
  };
  double value = 0;
  std::vector<double> delta, gamma;
  std::vector<Cross> cross;
};
PortfolioGreeks portfolio_greeks(const VarSpec& s);

// With dS_i = S_i (mu_i h + sigma_i sqrt(h) Z_i), Z ~ N(0, C) (or the unit-variance
// Student-t): delta-normal takes the loss linear in Z; delta-gamma-normal adds the
// quadratic term and matches a normal to the loss's mean and variance.
TailRisk delta_normal(const VarSpec& s, double alpha);
// The approximate loss's mean and standard deviation (with or without the gamma term).
struct LossMoments {
  double mean, sd;
};
LossMoments loss_moments(const VarSpec& s, bool with_gamma);
// Historical simulation: the delta-gamma loss's mean and standard deviation over
// the history's scenarios.
LossMoments historical_loss_moments(const VarSpec& s);
TailRisk delta_gamma_normal(const VarSpec& s, double alpha);

// Each position's share of the delta-normal VaR and ES by Euler allocation: its
// expected loss plus the tail factor times Cov(its loss, the total) / sd(total).
// The shares add up to delta_normal's figures.
std::vector<TailRisk> delta_normal_contributions(const VarSpec& s, double alpha);

}  // namespace mcsim::var
