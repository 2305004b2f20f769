// Differences between scenarios that ran on the same random numbers. Each estimate
// is also computed on B batches of consecutive chunks (the same batches in every
// scenario); the spread of the batch differences gives the paired standard error,
// which is far below the unpaired sqrt(se_a^2 + se_b^2) when the scenarios move
// together, as common random numbers make them. Quantiles have no batch values:
// VaR and ES pair through the paths both scenarios rank in their tails.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reduce/stats.hpp"

namespace mcsim::reduce {

// Batches of a job with this many chunks (or generations): at most kBatches.
constexpr std::uint64_t kBatches = 64;
std::uint64_t batch_count(std::uint64_t rows);
// Rows [first, last) of batch b of B over n rows, as equal in size as can be.
std::pair<std::uint64_t, std::uint64_t> batch_rows(std::uint64_t b, std::uint64_t B, std::uint64_t n);

// Each estimate's value on every batch, and each batch's share of the samples.
struct BatchValues {
  std::vector<double> weights;
  std::map<std::string, std::vector<double>> values;
  // Records batch `b`'s estimates (called for b = 0, 1, ... in order).
  void add(const std::vector<Estimate>& batch);
};

struct Difference {
  Estimate estimate;             // a - b, its paired error and 95% interval
  double unpaired_std_error = 0;  // as if the two had independent random numbers
  std::uint64_t batches = 0;      // 0: not from batches (a tail's correlation, or NaN: none)
  double reference = NAN;         // the analytic difference, where both have a reference
};

// A quantile's tail in one scenario: the paths whose loss ranks above the VaR, by
// path index, with their losses. Two scenarios on the same random numbers share
// many of them; that overlap is what pairs their VaR and ES.
struct Tail {
  std::string var_name, es_name;  // the estimates it pairs
  double var = 0;
  std::uint64_t paths = 0;
  std::vector<std::pair<std::uint64_t, double>> above;  // (path, loss), sorted by path
};
// The correlations between two scenarios' VaR estimators and between their ES
// estimators, from their influence functions: the indicator of the tail for VaR,
// (loss - VaR)+ for ES, over the paths both ran.
struct TailCorrelation {
  double var = 0, es = 0;
};
TailCorrelation tail_correlation(const Tail& a, const Tail& b);

// a - b for two scenarios' estimates of one name, with their batch values (empty
// where the estimate has none).
Difference paired_difference(const Estimate& a, const Estimate& b, const std::vector<double>& batch_a,
                             const std::vector<double>& batch_b, const std::vector<double>& weights);
// The same from the correlation of the two estimators instead of batches.
Difference correlated_difference(const Estimate& a, const Estimate& b, double correlation);

}  // namespace mcsim::reduce
