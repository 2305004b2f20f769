// Results for scripts and results side by side: `mcsim show --csv | --json` and
// `mcsim diff`.
#pragma once
#include <string>
#include <vector>

#include "io/results.hpp"

namespace mcsim {

// Estimates, references and z-scores as an aligned table (mcsim run and show).
std::string format_estimates(const io::ScenarioResult& s);

// One row per scenario and estimate, after a header:
// scenario,estimate,value,std_error,ci_low,ci_high,samples,reference,z
// (reference and z empty where there is no closed form).
std::string results_csv(const io::Results& r);
// The provenance, then per scenario its overrides, estimates (with reference and z
// where there is one) and diagnostics. Numbers keep every digit; NaN is null.
std::string results_json(const io::Results& r);

// An estimate both files hold: b - a against their combined standard error.
struct Difference {
  std::string scenario, estimate;
  double a = 0, b = 0, std_error = 0, z = 0;
  bool agree = false;  // |z| <= max_z, or the same value
};
struct Comparison {
  std::vector<Difference> shared;
  std::vector<std::string> only_a, only_b;  // "scenario/estimate"
  double max_z = 4;
  bool agree() const;
};
// Two runs taken as independent: their estimates agree when they differ by at
// most max_z combined standard errors.
Comparison compare_results(const io::Results& a, const io::Results& b, double max_z = 4);
std::string format_comparison(const Comparison& c, const std::string& a_name, const std::string& b_name);

}  // namespace mcsim
