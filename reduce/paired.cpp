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

}  // namespace mcsim::reduce
