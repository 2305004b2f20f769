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

std::vector<double> Curve::zero_rates() const {
  if (times_.empty()) return {rate_};
  std::vector<double> z;
  for (std::size_t i = 0; i < times_.size(); ++i) z.push_back(-log_p_[i] / times_[i]);
  return z;
}

std::vector<double> Curve::pillar_weights(double t) const {
  if (times_.empty()) return {t};
  const std::size_t n = times_.size();
  std::vector<double> w(n, 0.0);
  if (t >= times_.back()) {
    w.back() = t;
  } else {
    const std::size_t i = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin());
    const double t0 = i ? times_[i - 1] : 0.0, f = (t - t0) / (times_[i] - t0);
    w[i] = times_[i] * f;
    if (i) w[i - 1] = times_[i - 1] * (1 - f);
  }
  return w;
}

Curve Curve::shifted(std::size_t i, double dz) const {
  Curve c = *this;
  if (times_.empty()) c.rate_ += dz;
  for (std::size_t k = 0; k < times_.size(); ++k)
    if (i == static_cast<std::size_t>(-1) || k == i) c.log_p_[k] -= dz * times_[k];
  return c;
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

std::vector<double> VolTerm::node_weights(double t) const {
  std::vector<double> w(values_.size(), 0.0);
  if (values_.empty() || t <= 0) return w;
  if (is_flat()) {
    w[0] = 2 * values_[0] * t;
    return w;
  }
  double from = 0;
  for (std::size_t i = 0; i < times_.size() && from < t; ++i) {
    const bool last = i + 1 == times_.size();
    const double to = last ? t : std::min(t, times_[i]);  // the last value holds beyond
    if (to > from) w[i] = 2 * values_[i] * (to - from), from = to;
  }
  return w;
}

VolTerm VolTerm::shifted(std::size_t i, double d) const {
  VolTerm v = *this;
  for (std::size_t k = 0; k < values_.size(); ++k)
    if (i == static_cast<std::size_t>(-1) || k == i) v.values_[k] += d;
  return v;
}

}  // namespace mcsim::market
