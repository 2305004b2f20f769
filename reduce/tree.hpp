// The fixed dyadic tree over chunk indices: node (l, j) covers chunks
// [j 2^l, min((j+1) 2^l, n)) and equals node (l-1, 2j) + node (l-1, 2j+1); a right
// child that starts at or past n is missing and the left child passes through. So
// a sum depends on the chunk partials alone, never on the order in which they were
// computed or on who computed them: a rank that owns chunks [a, b) sends the
// maximal complete subtrees inside its range, and rank 0 combines them into the
// very root a single process would have built.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mcsim::reduce {

using Tally = std::vector<double>;

struct Node {
  int level;
  std::uint64_t index;
  std::uint64_t first() const { return index << level; }
};

// The tree's root over n chunks.
Node root(std::uint64_t n);

// The maximal subtrees lying inside chunks [a, b) of a tree over n chunks, left to
// right; together they cover [a, b) exactly.
std::vector<Node> subtrees(std::uint64_t a, std::uint64_t b, std::uint64_t n);

// The value of `node` of a tree over n chunks from partials of chunks
// [first, first + count), which must contain the node's chunks; `width` doubles each.
Tally node_value(const double* partials, std::uint64_t first, Node node, std::uint64_t n,
                 std::size_t width);

// The root over n chunks from node values that tile [0, n). Throws if a chunk is
// not covered.
struct NodeValue {
  Node node;
  Tally value;
};
Tally combine(const std::vector<NodeValue>& nodes, std::uint64_t n, std::size_t width);

// chunks: n partials of `width` doubles each, chunk i at [i*width, (i+1)*width).
Tally tree_sum(const std::vector<double>& chunks, std::size_t width);

}  // namespace mcsim::reduce
