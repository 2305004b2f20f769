#include "reduce/tree.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace mcsim::reduce {

namespace {

void add_into(Tally& left, const Tally& right) {
  for (std::size_t i = 0; i < left.size(); ++i) left[i] += right[i];
}

bool has_right_child(Node node, std::uint64_t n) {
  return node.level > 0 && ((2 * node.index + 1) << (node.level - 1)) < n;
}

// A node's sum from the nodes at hand, descending only where none is given.
template <class Known>
Tally evaluate(Node node, std::uint64_t n, const Known& known) {
  if (const Tally* t = known(node)) return *t;
  if (node.level == 0) throw std::runtime_error("reduction: no partial for chunk " + std::to_string(node.index));
  Tally sum = evaluate({node.level - 1, 2 * node.index}, n, known);
  if (has_right_child(node, n)) add_into(sum, evaluate({node.level - 1, 2 * node.index + 1}, n, known));
  return sum;
}

}  // namespace

Node root(std::uint64_t n) {
  int level = 0;
  while (level < 63 && (std::uint64_t{1} << level) < n) ++level;
  return {level, 0};
}

std::vector<Node> subtrees(std::uint64_t a, std::uint64_t b, std::uint64_t n) {
  if (a > b || b > n) throw std::invalid_argument("subtrees: range outside the tree");
  const int top = root(n).level;
  std::vector<Node> out;
  while (a < b) {
    int level = 0;
    // Grow while the node stays aligned at a and ends (clipped to n) within b.
    while (level < top && a % (std::uint64_t{2} << level) == 0) {
      const std::uint64_t end = a + (std::uint64_t{2} << level);
      if ((end < n ? end : n) > b) break;
      ++level;
    }
    out.push_back({level, a >> level});
    const std::uint64_t end = a + (std::uint64_t{1} << level);
    a = end < n ? end : n;
  }
  return out;
}

Tally node_value(const double* partials, std::uint64_t first, Node node, std::uint64_t n,
                 std::size_t width) {
  // An aligned node is the tree over its own chunks, so the level-by-level sum of
  // tree_sum applies to the slice.
  const std::uint64_t begin = node.first();
  const std::uint64_t span_end = begin + (std::uint64_t{1} << node.level);
  const std::uint64_t end = span_end < n ? span_end : n;
  if (begin < first) throw std::invalid_argument("node_value: chunk outside the partials given");
  const double* p = partials + (begin - first) * width;
  return tree_sum(std::vector<double>(p, p + (end - begin) * width), width);
}

Tally combine(const std::vector<NodeValue>& nodes, std::uint64_t n, std::size_t width) {
  if (n == 0) return Tally(width, 0.0);
  std::map<std::pair<int, std::uint64_t>, const Tally*> known;
  for (const auto& nv : nodes) known[{nv.node.level, nv.node.index}] = &nv.value;
  const auto find = [&](Node node) -> const Tally* {
    const auto it = known.find({node.level, node.index});
    return it == known.end() ? nullptr : it->second;
  };
  return evaluate(root(n), n, find);
}

Tally tree_sum(const std::vector<double>& chunks, std::size_t width) {
  if (width == 0 || chunks.size() % width != 0)
    throw std::invalid_argument("tree_sum: chunk array is not a whole number of tallies");
  std::size_t n = chunks.size() / width;
  if (n == 0) return Tally(width, 0.0);
  std::vector<double> level = chunks;  // pairs neighbours in place, level by level
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
