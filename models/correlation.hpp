// Correlated normals from independent ones: the Cholesky factor of a correlation
// matrix, shared by every model with several correlated assets.
#pragma once
#include <string>
#include <vector>

#include "io/block.hpp"

namespace mcsim {

struct CholeskyFactor {
  std::vector<double> lower;  // row-major n x n, zero above the diagonal
  std::string error;          // why the matrix is not a correlation matrix ("" when it is)
};

// L with L L^T = C for a correlation matrix C: square, symmetric, unit diagonal,
// entries in [-1, 1] and positive semidefinite. Singular matrices (perfectly
// correlated assets) are allowed: their dependent rows get zero pivots.
CholeskyFactor correlation_cholesky(const std::vector<std::vector<double>>& c);

// Reads `block.correlation` for n assets (optional for one asset; one number sets
// every pair alike) into *matrix and
// its factor into *lower; every problem is a config error at the key's line.
void read_correlation(io::Block& block, std::size_t n, std::vector<std::vector<double>>* matrix,
                      std::vector<double>* lower);

}  // namespace mcsim
