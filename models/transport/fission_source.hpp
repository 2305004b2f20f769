// The fission source between eigenvalue generations, written once for host and
// device so the bank can be drawn from and measured wherever it is kept: the next
// generation's sites by systematic sampling, and the bank's Shannon entropy over a
// mesh of equal bins.
#pragma once
#include <cstdint>
#include <vector>

#include "rng/hd.hpp"

namespace mcsim::transport {

// Site j of the next generation's n is the bank's site drawn_index(j, u, M, n), M
// the bank's size and u the generation's one uniform: each of the bank's sites is
// drawn floor or ceil of n / M times. (No product is added to, so a device's fused
// multiply-adds cannot change the index.)
MCSIM_HD std::uint64_t drawn_index(std::uint64_t j, double u, std::uint64_t M, std::uint64_t n) {
  const auto i = static_cast<std::uint64_t>((static_cast<double>(j) + u) * static_cast<double>(M) / static_cast<double>(n));
  return i < M ? i : M - 1;
}

// The entropy mesh: `bins` equal bins of [low, high] (a slab's x, a sphere's radius).
struct SourceMesh {
  double low = 0, high = 1;
  int bins = 1;
};
MCSIM_HD int source_bin(const SourceMesh& m, double pos) {
  const int b = static_cast<int>((pos - m.low) / (m.high - m.low) * m.bins);
  return b < 0 ? 0 : b >= m.bins ? m.bins - 1 : b;
}

// Shannon entropy (bits) of the sites counted in each bin.
double entropy(const std::vector<std::uint64_t>& counts);

}  // namespace mcsim::transport
