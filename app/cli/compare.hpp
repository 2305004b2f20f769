// `mcsim diff A.h5 B.h5`: two runs' estimates side by side, taken as independent.
#pragma once
#include <string>
#include <vector>

#include "io/results.hpp"

namespace mcsim {

// An estimate both files hold: b - a against their combined standard error.
struct Difference {
  std::string scenario, estimate;
  double a = 0, b = 0, std_error = 0, z = 0;
  bool agree = false;      // |z| <= max_z, or the same value
  bool same_bits = false;  // the same value and error, bit for bit
};
struct Comparison {
  std::vector<Difference> shared;
  std::vector<std::string> only_a, only_b;  // "scenario/estimate"
  double max_z = 4;
  bool configs_differ = false;  // the two jobs' YAML texts as run
  bool agree() const;
  // The same estimates with the same bits (and errors), none only in one file.
  bool identical() const;
};
// Their estimates agree when they differ by at most max_z combined standard errors.
Comparison compare_results(const io::Results& a, const io::Results& b, double max_z = 4);
std::string format_comparison(const Comparison& c, const std::string& a_name, const std::string& b_name);

}  // namespace mcsim
