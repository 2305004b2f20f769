// The dyadic tree: the same bits whatever order chunks finish in, and the same
// pairing a hand-built tree gives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>

#include "reduce/mpi.hpp"
#include "reduce/stats.hpp"
#include "reduce/tree.hpp"

using namespace mcsim::reduce;

namespace {
std::vector<double> random_partials(std::size_t chunks, std::size_t width, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::lognormal_distribution<double> dist(0.0, 3.0);  // wide magnitudes: order matters
  std::vector<double> v(chunks * width);
  for (auto& x : v) x = dist(gen);
  return v;
}
bool same_bits(const Tally& a, const Tally& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
}  // namespace

TEST_CASE("tree sum pairs neighbours level by level", "[reduce]") {
  const std::vector<double> v{1e16, 1.0, -1e16, 1.0, 3.0};
  // ((1e16 + 1) + (-1e16 + 1)) + 3, with each add rounded.
  const double expect = ((1e16 + 1.0) + (-1e16 + 1.0)) + 3.0;
  CHECK(tree_sum(v, 1)[0] == expect);
  CHECK(tree_sum({}, 3) == Tally{0, 0, 0});
  CHECK_THROWS(tree_sum({1, 2, 3}, 2));
}

TEST_CASE("tree sum gives the same bits whatever order chunks complete in", "[reduce]") {
  for (std::size_t chunks : {1u, 2u, 3u, 7u, 64u, 1000u}) {
    const std::size_t width = 3;
    const auto partials = random_partials(chunks, width, 5);
    const Tally reference = tree_sum(partials, width);
    // Fill the partial array in random completion orders, as threads or devices would.
    std::vector<std::size_t> order(chunks);
    for (std::size_t i = 0; i < chunks; ++i) order[i] = i;
    std::mt19937 gen(11);
    for (int trial = 0; trial < 5; ++trial) {
      std::shuffle(order.begin(), order.end(), gen);
      std::vector<double> filled(partials.size(), std::nan(""));
      for (std::size_t c : order)
        std::copy_n(&partials[c * width], width, &filled[c * width]);
      CHECK(same_bits(tree_sum(filled, width), reference));
    }
    // A plain left-to-right sum is a different function: the tree is not it.
    if (chunks == 1000) {
      double seq = 0;
      for (std::size_t c = 0; c < chunks; ++c) seq += partials[c * width];
      CHECK(seq != reference[0]);
    }
  }
}

TEST_CASE("estimates give mean and standard error and 95% interval from moments", "[reduce]") {
  // Samples 1, 2, 3, 4: mean 2.5, sample variance 5/3.
  const std::vector<double> tally{4, 10, 30};
  const auto e = estimates(tally, {"x"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].value == 2.5);
  CHECK(e[0].std_error == Approx(std::sqrt(5.0 / 3.0 / 4.0)).epsilon(1e-14));
  CHECK(e[0].ci_low == Approx(2.5 - 1.959963984540054 * e[0].std_error));
  CHECK(e[0].samples == 4);
  CHECK(std::isnan(estimates({0, 0, 0}, {"x"})[0].value));
}

TEST_CASE("subtrees tile a rank's range with aligned nodes", "[reduce]") {
  // 13 chunks, ranks owning [0,5) [5,9) [9,13): 5 = [0,4) + [4,5); [5,9) = 5,[6,8),8; [9,13) = 9,[10,12),12.
  auto s = subtrees(0, 5, 13);
  REQUIRE(s.size() == 2);
  CHECK((s[0].level == 2 && s[0].index == 0));
  CHECK((s[1].level == 0 && s[1].index == 4));
  s = subtrees(9, 13, 13);
  REQUIRE(s.size() == 3);
  CHECK((s[1].level == 1 && s[1].index == 5));
  // Chunk 12 is node (2, 3) clipped to n: the whole right end in one node.
  CHECK((s[2].level == 2 && s[2].index == 3));
  CHECK(subtrees(0, 13, 13).size() == 1);
  CHECK(subtrees(3, 3, 13).empty());
}

TEST_CASE("ranks' subtrees combine to the bits of one tree over all chunks", "[reduce]") {
  for (std::uint64_t chunks : {1u, 2u, 5u, 13u, 64u, 1000u, 1025u}) {
    const std::size_t width = 3;
    const auto partials = random_partials(chunks, width, 17);
    const Tally reference = tree_sum(partials, width);
    for (std::uint64_t ranks : {1u, 2u, 3u, 7u}) {
      std::vector<NodeValue> nodes;
      for (std::uint64_t r = 0; r < ranks; ++r) {
        const std::uint64_t a = chunks * r / ranks, b = chunks * (r + 1) / ranks;
        for (const Node& node : subtrees(a, b, chunks))
          nodes.push_back({node, node_value(&partials[a * width], a, node, chunks, width)});
      }
      INFO(chunks << " chunks over " << ranks << " ranks");
      CHECK(same_bits(combine(nodes, chunks, width), reference));
    }
  }
  CHECK_THROWS(combine({}, 4, 3));  // chunks nobody sent
}

TEST_CASE("control variate estimate by hand on a small sample", "[reduce]") {
  // Y = 2 C + e: beta = Cov(Y, C) / Var(C), estimate = mean Y - beta (mean C - mu).
  const std::vector<double> c{1, 2, 3, 4, 5}, e{0.1, -0.2, 0.0, 0.2, -0.1};
  std::vector<double> tally(9, 0.0);
  double my = 0, mc = 0;
  for (int i = 0; i < 5; ++i) {
    const double y = 2 * c[i] + e[i];
    const double xs[3] = {y, c[i], y * c[i]};
    for (int k = 0; k < 3; ++k) tally[3 * k] += 1, tally[3 * k + 1] += xs[k], tally[3 * k + 2] += xs[k] * xs[k];
    my += y / 5, mc += c[i] / 5;
  }
  double cov = 0, var_c = 0, var_y = 0;
  for (int i = 0; i < 5; ++i) {
    const double y = 2 * c[i] + e[i];
    cov += (y - my) * (c[i] - mc) / 4, var_c += (c[i] - mc) * (c[i] - mc) / 4, var_y += (y - my) * (y - my) / 4;
  }
  const auto cv = control_variate(tally, 0, 1, 2, 2.5, "price");
  CHECK(cv.beta == Approx(cov / var_c).epsilon(1e-12));
  CHECK(cv.estimate.value == Approx(my - cv.beta * (mc - 2.5)).epsilon(1e-12));
  const double resid = var_y - cov * cov / var_c;
  CHECK(cv.estimate.std_error == Approx(std::sqrt(resid * 4 / 3 / 5)).epsilon(1e-9));
  CHECK(cv.variance_reduction == Approx(var_y / resid).epsilon(1e-9));
}

TEST_CASE("MPI starts only under a launcher: each launcher's variable is recognised", "[mpi]") {
  const char* vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_SIZE"};
  std::vector<std::pair<std::string, std::string>> saved;
  for (const char* v : vars)
    if (const char* x = std::getenv(v)) saved.emplace_back(v, x), unsetenv(v);
  CHECK_FALSE(mcsim::mpi::launched());
  for (const char* v : vars) {
    INFO(v);
    setenv(v, "2", 1);
    CHECK(mcsim::mpi::launched());
    unsetenv(v);
  }
  CHECK_FALSE(mcsim::mpi::launched());
  for (const auto& [v, x] : saved) setenv(v.c_str(), x.c_str(), 1);
}
