// A transport run's statistics (app/run/transport/job.cpp): batch means over rows
// of fixed-point tally slots, the estimates and flux table a job asked for, and
// the combination of k's three estimators.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "io/results.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_model.hpp"
#include "reduce/paired.hpp"
#include "reduce/stats.hpp"

namespace mcsim {

// The error of a mean over `total` samples in B batches, from the batch means'
// spread ss = sum of (batch size x (batch mean - mean)^2); NaN for one batch.
inline double batch_error(double ss, double total, std::uint64_t B) {
  return B > 1 ? std::sqrt(ss / (total * static_cast<double>(B - 1))) : NAN;
}

// Batch statistics over rows of slots, each row a batch of histories, or B
// batches of consecutive rows (reduce::batch_rows: generations, whose tallies are
// correlated, in batches long enough for their means to be nearly independent).
// Every slot's exact sum and squared spread come from two passes along the rows
// (memory order), so a mesh of many bins costs two reads of the rows.
class Batches {
 public:
  // Row r holds `per_row` histories, the last one what `total` leaves; B = 0: a
  // batch per row.
  Batches(const std::vector<std::uint64_t>& rows, std::size_t slots, std::uint64_t total, std::uint64_t per_row,
          std::uint64_t B = 0)
      : rows_(rows), slots_(slots), total_(total), per_row_(per_row), exact_(slots, 0), ss_(slots, 0) {
    const std::uint64_t R = rows.size() / slots;
    B_ = B == 0 ? R : std::min(B, R);
    for (std::size_t r = 0; r < R; ++r)
      for (std::size_t i = 0; i < slots; ++i) exact_[i] += rows[r * slots + i];
    std::vector<unsigned __int128> sum(slots);
    for (std::uint64_t b = 0; b < B_; ++b) {
      const auto [first, last] = reduce::batch_rows(b, B_, R);
      std::fill(sum.begin(), sum.end(), 0);
      for (std::uint64_t r = first; r < last; ++r)
        for (std::size_t i = 0; i < slots; ++i) sum[i] += rows[r * slots + i];
      sizes_.push_back(size(first, last));
      for (std::size_t i = 0; i < slots; ++i) {
        const double d = units(sum[i]) / sizes_.back() - mean(exact_[i]);
        ss_[i] += sizes_.back() * d * d;
      }
    }
  }
  std::size_t count() const { return B_; }
  // Per batch b, the mean per history of each set of slots summed: out[b][i] for
  // sets[i] (a bin's rate summed over its groups, say), and the batches' sizes.
  std::vector<std::vector<double>> batch_means(const std::vector<std::vector<int>>& sets) const {
    const std::uint64_t R = rows_.size() / slots_;
    std::vector<std::vector<double>> out(B_, std::vector<double>(sets.size(), 0.0));
    for (std::uint64_t b = 0; b < B_; ++b) {
      const auto [first, last] = reduce::batch_rows(b, B_, R);
      for (std::size_t i = 0; i < sets.size(); ++i) {
        unsigned __int128 sum = 0;
        for (std::uint64_t r = first; r < last; ++r)
          for (const int s : sets[i]) sum += rows_[r * slots_ + static_cast<std::size_t>(s)];
        out[b][i] = units(sum) / sizes_[b];
      }
    }
    return out;
  }
  const std::vector<double>& batch_sizes() const { return sizes_; }
  double total() const { return static_cast<double>(total_); }
  // The mean per history of one slot, times `scale`, with the error of the batch
  // means' spread.
  reduce::Estimate of(const std::string& name, int slot, double scale = 1) const {
    const auto i = static_cast<std::size_t>(slot);
    return estimate(name, mean(exact_[i]), ss_[i], scale);
  }
  // The same for the sum of the slots [first, last).
  reduce::Estimate of_sum(const std::string& name, int first, int last) const {
    const std::uint64_t R = rows_.size() / slots_;
    const auto slots = [&](std::uint64_t r0, std::uint64_t r1) {
      unsigned __int128 s = 0;
      for (std::uint64_t r = r0; r < r1; ++r)
        for (int i = first; i < last; ++i) s += rows_[r * slots_ + static_cast<std::size_t>(i)];
      return s;
    };
    const unsigned __int128 exact = slots(0, R);
    double ss = 0;
    for (std::uint64_t b = 0; b < B_; ++b) {
      const auto [r0, r1] = reduce::batch_rows(b, B_, R);
      const double d = units(slots(r0, r1)) / sizes_[b] - mean(exact);
      ss += sizes_[b] * d * d;
    }
    return estimate(name, mean(exact), ss, 1);
  }

 private:
  static double units(unsigned __int128 v) { return static_cast<double>(v) * transport::kTallyUnit; }
  double size(std::uint64_t first, std::uint64_t last) const {  // histories in rows [first, last)
    return static_cast<double>(std::min(per_row_ * last, total_) - per_row_ * first);
  }
  double mean(unsigned __int128 exact) const { return units(exact) / static_cast<double>(total_); }
  reduce::Estimate estimate(const std::string& name, double mean, double ss, double scale) const {
    return reduce::normal_estimate(name, mean * scale, batch_error(ss, static_cast<double>(total_), B_) * scale, total_);
  }
  const std::vector<std::uint64_t>& rows_;
  std::size_t slots_;
  std::uint64_t total_, per_row_, B_ = 0;
  std::vector<unsigned __int128> exact_;
  std::vector<double> ss_, sizes_;
};

// Eigenvalue runs: successive generations' k and tallies are correlated (the
// fission source carries each one's fluctuations into the next), so the spread of
// single generations understates the error of their mean, far more so in a large
// system. Errors come from batch means over kGenerationBatches batches of
// consecutive generations instead (fewer when the run has fewer generations); the
// naive error beside them says by how much the correlation mattered.
constexpr std::uint64_t kGenerationBatches = 20;
// k's error both ways, from each active generation's k (its estimators combined).
struct KErrors {
  double naive = 0, batch = 0;
  std::uint64_t batches = 0, generations_per_batch = 0;  // the shortest batch's
};
KErrors k_errors(const std::vector<double>& k);

// The tallies a job asked for, and the flux mesh as a table (with_table false: a
// batch's estimates, for paired differences).
void tally_estimates(const transport::TransportModel& model, const transport::TransportView<double>& v, const Batches& b,
                     io::ScenarioResult* out, bool with_table = true);

// The minimum-variance combination of k's estimators over the generations, and
// its weights (collision, absorption, track).
reduce::Estimate combined_k(const std::vector<std::array<double, 3>>& k, std::vector<double>* weights);

}  // namespace mcsim
