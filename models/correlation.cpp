#include "models/correlation.hpp"

#include <cmath>

namespace mcsim {

namespace {
// Rounding in a YAML matrix typed to a few digits stays well above this.
constexpr double kSymmetryTolerance = 1e-12;
// A pivot this far below zero is a negative eigenvalue, not rounding.
constexpr double kPivotTolerance = 1e-10;

std::string cell(std::size_t i, std::size_t j) {
  return "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}
}  // namespace

CholeskyFactor correlation_cholesky(const std::vector<std::vector<double>>& c) {
  const std::size_t n = c.size();
  CholeskyFactor out;
  for (std::size_t i = 0; i < n; ++i)
    if (c[i].size() != n) {
      out.error = "must be " + std::to_string(n) + " x " + std::to_string(n) + " (one row and column per asset); row " +
                  std::to_string(i) + " has " + std::to_string(c[i].size()) + " entries";
      return out;
    }
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i][i] != 1.0) {
      out.error = "the diagonal must be 1; entry " + cell(i, i) + " is " + std::to_string(c[i][i]);
      return out;
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (std::fabs(c[i][j]) > 1.0) {
        out.error = "entry " + cell(i, j) + " is outside [-1, 1]";
        return out;
      }
      if (std::fabs(c[i][j] - c[j][i]) > kSymmetryTolerance) {
        out.error = "must be symmetric; entries " + cell(i, j) + " and " + cell(j, i) + " differ";
        return out;
      }
    }
  }
  std::vector<double>& l = out.lower;
  l.assign(n * n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    double pivot = c[j][j];
    for (std::size_t k = 0; k < j; ++k) pivot -= l[j * n + k] * l[j * n + k];
    if (pivot < -kPivotTolerance) {
      out.error = "is not positive semidefinite, so no assets can have these correlations (the first " +
                  std::to_string(j + 1) + " rows already contradict each other)";
      return out;
    }
    const double d = pivot > kPivotTolerance ? std::sqrt(pivot) : 0.0;
    l[j * n + j] = d;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = c[i][j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
      if (d > 0) {
        l[i * n + j] = s / d;
      } else if (std::fabs(s) > std::sqrt(kPivotTolerance)) {
        // Asset j is a combination of the earlier ones; asset i must then move with it consistently.
        out.error = "is not positive semidefinite, so no assets can have these correlations (rows " +
                    std::to_string(j) + " and " + std::to_string(i) + " contradict the rows before them)";
        return out;
      }
    }
  }
  return out;
}

void read_correlation(io::Block& block, std::size_t n, std::vector<std::vector<double>>* matrix,
                      std::vector<double>* lower) {
  if (block.has_scalar("correlation")) {
    // One number: every pair of assets has that correlation.
    const double rho = block.real("correlation", std::nullopt, {-1.0, 1.0});
    matrix->assign(n, std::vector<double>(n, rho));
    for (std::size_t i = 0; i < n; ++i) (*matrix)[i][i] = 1.0;
  } else if (block.has("correlation")) {
    *matrix = block.matrix("correlation", {-1.0, 1.0});
  } else if (n > 1) {
    block.error("", "missing required key 'correlation' (an n x n matrix for the " + std::to_string(n) +
                        " assets, or one number for every pair)");
  } else {
    *matrix = {{1.0}};
  }
  if (matrix->empty() || n == 0) return;
  if (matrix->size() != n) {
    block.error("correlation", "has " + std::to_string(matrix->size()) + " rows for " + std::to_string(n) + " assets");
    return;
  }
  const CholeskyFactor f = correlation_cholesky(*matrix);
  if (!f.error.empty()) block.error("correlation", f.error);
  *lower = f.lower;
}

}  // namespace mcsim
