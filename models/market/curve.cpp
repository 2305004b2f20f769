#include "models/market/curve.hpp"

#include <algorithm>
#include <cmath>

namespace mcsim::market {

Curve Curve::flat(double rate) {
  Curve c;
  c.rate_ = rate;
  return c;
}

Curve::Curve(std::vector<double> times, std::vector<double> log_discount)
    : times_(std::move(times)), log_p_(std::move(log_discount)) {}

double Curve::log_discount(double t) const {
  if (times_.empty()) return -rate_ * t;
  if (t >= times_.back()) return log_p_.back() * t / times_.back();  // the last zero rate
  const std::size_t i = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin());
  const double t0 = i ? times_[i - 1] : 0.0, p0 = i ? log_p_[i - 1] : 0.0;
  return p0 + (log_p_[i] - p0) * (t - t0) / (times_[i] - t0);
}

double Curve::discount(double t) const { return std::exp(log_discount(t)); }

double Curve::zero_rate(double t) const {
  if (times_.empty()) return rate_;
  if (t <= 0) return -log_p_.front() / times_.front();
  return -log_discount(t) / t;
}

VolTerm VolTerm::flat(double sigma) { return VolTerm({0.0}, {sigma}); }

VolTerm::VolTerm(std::vector<double> times, std::vector<double> values)
    : times_(std::move(times)), values_(std::move(values)) {}

double VolTerm::variance(double t0, double t1) const {
  if (values_.empty() || t1 <= t0) return 0.0;
  if (is_flat()) return values_[0] * values_[0] * (t1 - t0);
  double total = 0, from = t0;
  for (std::size_t i = 0; i < times_.size() && from < t1; ++i) {
    if (times_[i] <= from) continue;
    const double to = std::min(t1, times_[i]);
    total += values_[i] * values_[i] * (to - from);
    from = to;
  }
  if (from < t1) total += values_.back() * values_.back() * (t1 - from);
  return total;
}

}  // namespace mcsim::market
