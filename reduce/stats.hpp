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

// An estimate with a normal 95% interval, value -+ 1.96 std_error.
Estimate normal_estimate(const std::string& name, double value, double std_error, std::uint64_t samples);

// tally holds one (count, sum, sum_sq) triple per name, in order.
std::vector<Estimate> estimates(const std::vector<double>& tally,
                                const std::vector<std::string>& names);

// Control variate: Y's mean corrected by a control C of known mean,
// Y - beta (C - E[C]) with beta = Cov(Y, C) / Var(C) estimated from the same run.
// Outputs y, c and yc of the moment tally hold Y, C and the product Y C.
struct ControlVariate {
  Estimate estimate;
  double beta = 0;
  double variance_reduction = 1;  // Var(Y) / Var(Y - beta C)
};
ControlVariate control_variate(const std::vector<double>& tally, int y, int c, int yc, double control_mean,
                               const std::string& name);

// Antithetic pairs: output `pair` holds the mean of a pair (Z, -Z), output `single`
// the first path of the pair alone. The factor Var(single) / (2 Var(pair)) compares
// equal work: a pair costs two paths.
double antithetic_variance_reduction(const std::vector<double>& tally, int pair, int single);

}  // namespace mcsim::reduce
