#include "models/transport/fission_source.hpp"

#include <cmath>

namespace mcsim::transport {

double entropy(const std::vector<std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += c;
  double h = 0;
  for (const std::uint64_t c : counts)
    if (c) {
      const double p = static_cast<double>(c) / static_cast<double>(total);
      h -= p * std::log2(p);
    }
  return h;
}

}  // namespace mcsim::transport
