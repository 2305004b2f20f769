// Closed forms the portfolio-risk model is checked against: normal and Student-t
// quantiles, and value at risk and expected shortfall of a loss that is linear in
// one normal or Student-t shock.
#pragma once

namespace mcsim::var {

// Student's t with `dof` degrees of freedom (dof > 0): its distribution function
// and quantile (accurate to about 1e-13).
double student_t_cdf(double x, double dof);
double student_t_quantile(double p, double dof);

// VaR and ES at confidence `alpha` (e.g. 0.99) of a loss, both as positive losses.
struct TailRisk {
  double var, es;
};
// Loss = mean + sd * X with X standard normal.
TailRisk normal_tail(double mean, double sd, double alpha);
// Loss = mean + sd * X with X a Student-t scaled to unit variance (dof > 2), the
// shock of `distribution: student_t`.
TailRisk student_t_tail(double mean, double sd, double dof, double alpha);

}  // namespace mcsim::var
