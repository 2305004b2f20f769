// `mcsim validate`: runs every reference case under validation/ and compares each
// estimate with its reference value by z = (estimate - reference) / std_error, where
// std_error also holds the reference's own error when it comes from a long run.
#pragma once
#include <string>
#include <vector>

#include "app/mcsim.hpp"

namespace mcsim {

struct ValidationRow {
  std::string file, name, output;
  double estimate, std_error, reference, z;
  bool pass;
  std::string note;  // why it failed, beyond |z|
};

constexpr double kMaxAbsZ = 4.0;

// Runs the cases of every *.yaml in dir (sorted). `overrides` apply to all cases.
std::vector<ValidationRow> run_validation(const std::string& dir, const RunOptions& options,
                                          const std::vector<std::string>& overrides);
std::string format_validation(const std::vector<ValidationRow>& rows);

}  // namespace mcsim
