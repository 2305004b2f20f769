// What a backend needs to run a portfolio's scenarios: the portfolio in both
// precisions, the job's seed and the unit of its exact sums.
#pragma once
#include <cstdint>

#include "models/model.hpp"
#include "models/var/scenario.hpp"
#include "reduce/exact_sum.hpp"

namespace mcsim::var {

struct RiskKernel {
  Precision precision = Precision::Double;
  std::uint64_t seed = 0;
  std::uint64_t id = 0;  // tells device copies of different portfolios apart
  PortfolioArrays<float> in_float;
  PortfolioArrays<double> in_double;
  reduce::FixedUnit unit, square_unit;  // of losses, and of their squares
  int positions() const { return in_double.positions; }
  int units() const { return in_double.units; }  // positions, then groups
  int assets() const { return in_double.assets; }
};

}  // namespace mcsim::var
