// The fixed dyadic tree over chunk indices: node(l, j) = node(l-1, 2j) + node(l-1, 2j+1).
// A missing right child counts as zero, so the sum depends on the chunk partials
// alone, never on the order in which they were computed or who computed them.
#pragma once
#include <cstddef>
#include <vector>

namespace mcsim::reduce {

using Tally = std::vector<double>;

// chunks: n partials of `width` doubles each, chunk i at [i*width, (i+1)*width).
Tally tree_sum(const std::vector<double>& chunks, std::size_t width);

}  // namespace mcsim::reduce
