#include "reduce/paired.hpp"

#include <algorithm>
#include <cmath>

namespace mcsim::reduce {

std::uint64_t batch_count(std::uint64_t rows) { return std::min(rows, kBatches); }

std::pair<std::uint64_t, std::uint64_t> batch_rows(std::uint64_t b, std::uint64_t B, std::uint64_t n) {
  const auto at = [&](std::uint64_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(n) * i / B);
  };
  return {at(b), at(b + 1)};
}

void BatchValues::add(const std::vector<Estimate>& batch) {
  const std::size_t b = weights.size();
  weights.push_back(batch.empty() ? 0.0 : static_cast<double>(batch.front().samples));
  for (const Estimate& e : batch) {
    auto& v = values[e.name];
    v.resize(b, std::nan(""));  // an estimate missing from earlier batches
    v.push_back(e.value);
  }
}

Difference paired_difference(const Estimate& a, const Estimate& b, const std::vector<double>& batch_a,
                             const std::vector<double>& batch_b, const std::vector<double>& weights) {
  Difference d;
  const double value = a.value - b.value;
  d.unpaired_std_error = std::sqrt(a.std_error * a.std_error + b.std_error * b.std_error);
  double se = std::nan("");
  const std::size_t B = weights.size();
  if (B > 1 && batch_a.size() == B && batch_b.size() == B) {
    // Weighted batch means: sum w_i^2 (d_i - d)^2 * B / (B - 1), w_i the batch's share.
    double total = 0, mean = 0, ss = 0;
    for (double w : weights) total += w;
    for (std::size_t i = 0; i < B; ++i) mean += weights[i] / total * (batch_a[i] - batch_b[i]);
    for (std::size_t i = 0; i < B; ++i) ss += std::pow(weights[i] / total * (batch_a[i] - batch_b[i] - mean), 2);
    se = std::sqrt(ss * static_cast<double>(B) / static_cast<double>(B - 1));
    d.batches = B;
  }
  d.estimate = normal_estimate(a.name, value, se, std::min(a.samples, b.samples));
  return d;
}

Difference correlated_difference(const Estimate& a, const Estimate& b, double correlation) {
  Difference d;
  d.unpaired_std_error = std::sqrt(a.std_error * a.std_error + b.std_error * b.std_error);
  const double var = a.std_error * a.std_error + b.std_error * b.std_error - 2 * correlation * a.std_error * b.std_error;
  d.estimate = normal_estimate(a.name, a.value - b.value, std::sqrt(std::max(0.0, var)), std::min(a.samples, b.samples));
  return d;
}

TailCorrelation tail_correlation(const Tail& a, const Tail& b) {
  const double n = static_cast<double>(a.paths);
  const double pa = static_cast<double>(a.above.size()) / n, pb = static_cast<double>(b.above.size()) / n;
  // Sums over each tail and over both: (loss - VaR), its square, and the product.
  double both = 0, ea = 0, eb = 0, ea2 = 0, eb2 = 0, eab = 0;
  for (const auto& [i, x] : a.above) ea += x - a.var, ea2 += (x - a.var) * (x - a.var);
  for (const auto& [i, x] : b.above) eb += x - b.var, eb2 += (x - b.var) * (x - b.var);
  for (std::size_t i = 0, j = 0; i < a.above.size() && j < b.above.size();) {
    if (a.above[i].first < b.above[j].first) ++i;
    else if (b.above[j].first < a.above[i].first) ++j;
    else both += 1, eab += (a.above[i].second - a.var) * (b.above[j].second - b.var), ++i, ++j;
  }
  TailCorrelation c;
  const double va = pa * (1 - pa), vb = pb * (1 - pb);
  c.var = va > 0 && vb > 0 ? (both / n - pa * pb) / std::sqrt(va * vb) : 0;
  const double sa = ea2 / n - (ea / n) * (ea / n), sb = eb2 / n - (eb / n) * (eb / n);
  c.es = sa > 0 && sb > 0 ? (eab / n - (ea / n) * (eb / n)) / std::sqrt(sa * sb) : 0;
  return c;
}

}  // namespace mcsim::reduce
