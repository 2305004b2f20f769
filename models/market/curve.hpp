// Term structures of market data, as continuous functions of time in years from
// today: a rate curve (discount factors or a dividend yield's growth factors) and
// a piecewise-constant volatility.
#pragma once
#include <cstddef>
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
  // The pillars' zero rates -log P_i / t_i (the flat rate alone for a flat curve).
  std::vector<double> zero_rates() const;
  // d(-log P(t)) / d z_i for each pillar's zero rate z_i: t_i times the weight of
  // pillar i in the interpolation at t (t / t_0 before the first, t / t_n beyond the
  // last); the weights of every pillar add up to t. A flat curve: {t}.
  std::vector<double> pillar_weights(double t) const;
  // The curve with pillar i's zero rate moved by dz (every pillar's, and a flat
  // curve's rate, when i is npos).
  Curve shifted(std::size_t i, double dz) const;

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
  // d variance(0, t) / d sigma_i: 2 sigma_i times the time node i's value holds up to t.
  std::vector<double> node_weights(double t) const;
  // With node i's value moved by d (every node's when i is npos).
  VolTerm shifted(std::size_t i, double d) const;

 private:
  std::vector<double> times_, values_;
};

}  // namespace mcsim::market
