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

// The entropy mesh: nx x ny x nz equal bins of the box [low, high] (a layered
// geometry's along x alone: a slab's depth or a sphere's radius). A site's bin is
// (k ny + j) nx + i.
struct SourceMesh {
  double low[3] = {0, 0, 0}, high[3] = {1, 1, 1};
  int shape[3] = {1, 1, 1};
  MCSIM_HD int bins() const { return shape[0] * shape[1] * shape[2]; }
};
MCSIM_HD int source_bin_along(const SourceMesh& m, int a, double pos) {
  if (m.shape[a] == 1) return 0;
  const int b = static_cast<int>((pos - m.low[a]) / (m.high[a] - m.low[a]) * m.shape[a]);
  return b < 0 ? 0 : b >= m.shape[a] ? m.shape[a] - 1 : b;
}
template <class Site>
MCSIM_HD int source_bin(const SourceMesh& m, const Site& s) {
  const int i = source_bin_along(m, 0, s.x);
  if (m.shape[1] == 1 && m.shape[2] == 1) return i;
  return (source_bin_along(m, 2, s.z) * m.shape[1] + source_bin_along(m, 1, s.y)) * m.shape[0] + i;
}

// Shannon entropy (bits) of the sites counted in each bin.
double entropy(const std::vector<std::uint64_t>& counts);

}  // namespace mcsim::transport
