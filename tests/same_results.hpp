// Whether two results files hold the same numbers bit for bit: every estimate and
// every chunk partial.
#pragma once
#include <cstring>
#include <string>

#include "io/results.hpp"

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool same_results(const std::string& a_path, const std::string& b_path) {
  const auto a = mcsim::io::read_results(a_path), b = mcsim::io::read_results(b_path);
  if (a.paths != b.paths || a.scenarios.size() != b.scenarios.size()) return false;
  for (std::size_t s = 0; s < a.scenarios.size(); ++s) {
    const auto &x = a.scenarios[s], &y = b.scenarios[s];
    if (x.estimates.size() != y.estimates.size() || x.chunk_tallies != y.chunk_tallies) return false;
    for (std::size_t i = 0; i < x.estimates.size(); ++i)
      if (!same_bits(x.estimates[i].value, y.estimates[i].value) ||
          !same_bits(x.estimates[i].std_error, y.estimates[i].std_error) ||
          x.estimates[i].samples != y.estimates[i].samples)
        return false;
    // Differences from the base scenario, with their paired errors.
    if (x.name != y.name || x.differences.size() != y.differences.size()) return false;
    for (std::size_t i = 0; i < x.differences.size(); ++i)
      if (!same_bits(x.differences[i].estimate.value, y.differences[i].estimate.value) ||
          !same_bits(x.differences[i].estimate.std_error, y.differences[i].estimate.std_error))
        return false;
  }
  return true;
}

// The name of the first estimate whose value or error differs in its bits between
// two runs held in memory, or "" when none does.
inline std::string first_different_estimate(const mcsim::io::Results& a, const mcsim::io::Results& b) {
  const auto &x = a.scenarios.front().estimates, &y = b.scenarios.front().estimates;
  if (x.size() != y.size()) return "(the estimate lists differ in length)";
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i].name != y[i].name || !same_bits(x[i].value, y[i].value) || !same_bits(x[i].std_error, y[i].std_error))
      return x[i].name;
  return "";
}
