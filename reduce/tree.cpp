#include "reduce/tree.hpp"

#include <stdexcept>

namespace mcsim::reduce {

Tally tree_sum(const std::vector<double>& chunks, std::size_t width) {
  if (width == 0 || chunks.size() % width != 0)
    throw std::invalid_argument("tree_sum: chunk array is not a whole number of tallies");
  std::size_t n = chunks.size() / width;
  if (n == 0) return Tally(width, 0.0);
  std::vector<double> level = chunks;
  while (n > 1) {
    const std::size_t parents = (n + 1) / 2;
    for (std::size_t j = 0; j < parents; ++j) {
      const double* left = &level[2 * j * width];
      double* parent = &level[j * width];
      if (2 * j + 1 < n) {
        const double* right = &level[(2 * j + 1) * width];
        for (std::size_t i = 0; i < width; ++i) parent[i] = left[i] + right[i];
      } else {
        for (std::size_t i = 0; i < width; ++i) parent[i] = left[i];
      }
    }
    n = parents;
  }
  return Tally(level.begin(), level.begin() + static_cast<std::ptrdiff_t>(width));
}

}  // namespace mcsim::reduce
