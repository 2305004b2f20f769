// The exact VaR and ES of a portfolio whose positions are all on one asset and
// whose value at the horizon is monotone in that asset's spot (stocks, forwards,
// options all long or all short, ...): the loss is then a monotone function of the
// single shock, so VaR is the full revaluation at the shock's quantile and ES the
// loss averaged over the shock's tail (by quadrature). The reference of the
// Monte Carlo VaR for one asset, normal or Student-t.
#pragma once
#include <vector>

#include "models/var/analytic.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

// The loss V(today) - V(horizon) when the asset's unit-variance shock is z:
// S_h = S_0 exp((drift - vol^2 / 2) h + vol sqrt(h) z), positions revalued on
// their remaining life.
double loss_at_shock(const VarSpec& s, double z);

// Throws std::invalid_argument for several assets or a value not monotone in the spot.
TailRisk exact_single_asset_tail(const VarSpec& s, double alpha);
// Each position's Euler contributions: its loss at the VaR shock, and its loss
// averaged over the tail (they add up to the totals above).
std::vector<TailRisk> exact_single_asset_contributions(const VarSpec& s, double alpha);

}  // namespace mcsim::var
