// Longstaff-Schwartz's regression: the exercise rule an American or Bermudan
// option's pricing pass follows (american_path.hpp), fitted on paths of their own.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace mcsim::option {

struct LsmInput {
  double spot, strike, rate, dividend, volatility, maturity;
  bool call;
  int dates;                      // exercise dates t_i = i T / dates
  std::uint64_t paths;            // regression paths (a multiple of 2)
  std::uint64_t seed;
};

struct ExerciseRule {
  // Per date i < dates - 1: the cubic in S / K that estimates holding on, kBasis
  // coefficients each (the last date has no continuation).
  std::vector<double> beta;
  double in_sample_price = 0;  // the regression paths' own value: biased high
};

// The streams of regression path groups are Philox subsequences with this bit set;
// pricing groups never reach it, so the two sets of paths are independent.
constexpr std::uint64_t kRegressionStreams = std::uint64_t{1} << 63;

// Longstaff-Schwartz's least squares on four basis functions: solves the normal
// equations a x = b by Gaussian elimination with partial pivoting; false when they
// are singular (too few distinct in-the-money paths). Shared by every rule's fit.
using Basis4 = std::array<double, 4>;
bool solve_normal_equations(std::array<Basis4, 4> a, Basis4 b, Basis4& x);

// Backward induction over the dates: at each, the discounted cash flows of the
// in-the-money paths are regressed on 1, m, m^2, m^3 (m = S / K) by least squares.
// Computed in double on the host, so every backend and precision follows one rule.
ExerciseRule fit_exercise_rule(const LsmInput& in);

// The same induction on given paths: level[i * paths + p] is what path p's payoff is
// struck on at date t_i = (i + 1) T / dates (a spot, or a basket's observed level);
// sign +1 for a call, -1 for a put.
ExerciseRule fit_exercise_rule(const std::vector<double>& level, std::uint64_t paths, int dates, double strike,
                               double sign, double rate, double maturity);

}  // namespace mcsim::option
