// Dupire's local volatility sigma(t, S) from an implied volatility surface, built
// once on a grid of the path's steps x log-moneyness and looked up by the paths.
#pragma once
#include <vector>

#include "models/market/market.hpp"

namespace mcsim::market {

// Row s holds sigma at the midpoint of step s, (t_{s-1} + t_s) / 2, at log-moneyness
// k = log(S / F(t_{s-1})) = k_lo + i dk, i < nodes; a path between nodes takes the
// linear interpolation, beyond the ends the end's value.
struct LocalVolGrid {
  double k_lo = 0, dk = 0;
  int nodes = 0;
  std::vector<double> sigma;  // steps x nodes
  // Per step, log F(t_{s-1}) on the spot and rates the grid was built on: its rows
  // are a function of the spot itself, which reruns with a bumped spot or rate hold.
  std::vector<double> log_forward;
};

// Nodes of the grid: its log-moneyness resolution against the table's size.
constexpr int kLocalVolNodes = 256;

// The grid as the paths read it: per row and node i, the cell from node i to i + 1
// as its midpoint value and slope, (sigma_i + sigma_{i+1}) / 2 and sigma_{i+1} -
// sigma_i; the last node's cell is flat at its value.
std::vector<double> cell_rows(const LocalVolGrid& g);

// Step `row`'s sigma'' in log spot at `log_spot`: the second difference of the nodes
// around it (the smooth surface's curvature, which the linear cells spread over kinks).
double curvature_at(const LocalVolGrid& g, std::size_t row, double log_spot);

// Gatheral's form of Dupire's formula in total implied variance w(k, T): natural
// cubic splines in k through each expiry's quotes (flat beyond them), linear in T
// between expiries at fixed k, and w proportional to T before the first expiry and
// past the last. Where the quotes imply no positive local variance, `problems`
// says where; outside the quoted moneyness the grid keeps its nearest quoted value.
// With `nodes_of`, on that grid's nodes (its k_lo and dk) rather than on nodes wide
// enough for this surface: a moved quote's grid to take differences of.
LocalVolGrid dupire_grid(const VolSurface& s, double spot, const Market& m, const std::vector<double>& step_ends,
                         std::vector<Problem>* problems, const LocalVolGrid* nodes_of = nullptr);

}  // namespace mcsim::market
