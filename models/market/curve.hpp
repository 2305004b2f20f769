// Term structures of market data, as continuous functions of time in years from
// today: a rate curve (discount factors or a dividend yield's growth factors) and
// a piecewise-constant volatility.
#pragma once
#include <vector>

namespace mcsim::market {

// P(0, t) from pillars (t_i, P_i), linear in log P between them (so the
// instantaneous forward rate is flat between pillars and never leaves the range
// the pillars imply), linear from log P(0) = 0 to the first, and at the last
// pillar's zero rate beyond it. No pillars: a flat zero rate.
class Curve {
 public:
  Curve() = default;
  static Curve flat(double rate);
  Curve(std::vector<double> times, std::vector<double> log_discount);
  double log_discount(double t) const;
  double discount(double t) const;
  // -log P(t) / t: the continuously compounded zero rate to t (the flat rate at 0).
  double zero_rate(double t) const;
  bool is_flat() const { return times_.empty(); }
  const std::vector<double>& times() const { return times_; }

 private:
  double rate_ = 0;  // the flat curve's
  std::vector<double> times_, log_p_;
};

// sigma(t), constant on (t_{i-1}, t_i] and at the last value beyond; one value: flat.
class VolTerm {
 public:
  VolTerm() = default;
  static VolTerm flat(double sigma);
  VolTerm(std::vector<double> times, std::vector<double> values);
  // The integral of sigma^2 over [t0, t1].
  double variance(double t0, double t1) const;
  bool is_flat() const { return times_.size() <= 1; }
  double first() const { return values_.empty() ? 0.0 : values_.front(); }
  const std::vector<double>& times() const { return times_; }
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> times_, values_;
};

}  // namespace mcsim::market
