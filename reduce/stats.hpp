// Estimates from moment tallies: mean, standard error, 95% confidence interval.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mcsim::reduce {

struct Estimate {
  std::string name;
  double value = 0;
  double std_error = 0;
  double ci_low = 0;
  double ci_high = 0;
  std::uint64_t samples = 0;
};

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% normal quantile

// tally holds one (count, sum, sum_sq) triple per name, in order.
std::vector<Estimate> estimates(const std::vector<double>& tally,
                                const std::vector<std::string>& names);

}  // namespace mcsim::reduce
