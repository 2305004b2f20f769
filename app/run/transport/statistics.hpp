// A transport run's statistics (app/run/transport/job.cpp): batch means over rows
// of fixed-point tally slots, the estimates and flux table a job asked for, and
// the combination of k's three estimators.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/results.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_model.hpp"
#include "reduce/stats.hpp"

namespace mcsim {

// Batch statistics over rows of slots, each row a batch of histories.
// Every slot's exact sum and squared spread come from two passes along the rows
// (memory order), so a mesh of many bins costs two reads of the rows.
class Batches {
 public:
  // Row r is a batch of `per_row` histories, the last one of what `total` leaves.
  Batches(const std::vector<std::uint64_t>& rows, std::size_t slots, std::uint64_t total, std::uint64_t per_row)
      : rows_(rows), slots_(slots), total_(total), exact_(slots, 0), ss_(slots, 0) {
    for (std::size_t r = 0; r < count(); ++r) {
      sizes_.push_back(static_cast<double>(std::min(per_row, total - r * per_row)));
      for (std::size_t i = 0; i < slots; ++i) exact_[i] += rows[r * slots + i];
    }
    for (std::size_t r = 0; r < count(); ++r)
      for (std::size_t i = 0; i < slots; ++i) {
        const double d = units(rows[r * slots + i]) / sizes_[r] - mean(exact_[i]);
        ss_[i] += sizes_[r] * d * d;
      }
  }
  std::size_t count() const { return rows_.size() / slots_; }
  // The mean per history of one slot, times `scale`, with the error of the batch
  // means' spread.
  reduce::Estimate of(const std::string& name, int slot, double scale = 1) const {
    const auto i = static_cast<std::size_t>(slot);
    return estimate(name, mean(exact_[i]), ss_[i], scale);
  }
  // The same for the sum of the slots [first, last).
  reduce::Estimate of_sum(const std::string& name, int first, int last) const {
    const auto slots = [&](std::size_t r) {
      unsigned __int128 s = 0;
      for (int i = first; i < last; ++i) s += rows_[r * slots_ + static_cast<std::size_t>(i)];
      return s;
    };
    unsigned __int128 exact = 0;
    for (std::size_t r = 0; r < count(); ++r) exact += slots(r);
    double ss = 0;
    for (std::size_t r = 0; r < count(); ++r) {
      const double d = units(slots(r)) / sizes_[r] - mean(exact);
      ss += sizes_[r] * d * d;
    }
    return estimate(name, mean(exact), ss, 1);
  }

 private:
  static double units(unsigned __int128 v) { return static_cast<double>(v) * transport::kTallyUnit; }
  double mean(unsigned __int128 exact) const { return units(exact) / static_cast<double>(total_); }
  reduce::Estimate estimate(const std::string& name, double mean, double ss, double scale) const {
    const std::size_t B = count();
    const double se = B > 1 ? std::sqrt(ss / (static_cast<double>(total_) * static_cast<double>(B - 1))) : NAN;
    return reduce::normal_estimate(name, mean * scale, se * scale, total_);
  }
  const std::vector<std::uint64_t>& rows_;
  std::size_t slots_;
  std::uint64_t total_;
  std::vector<unsigned __int128> exact_;
  std::vector<double> ss_, sizes_;
};

// The tallies a job asked for, and the flux mesh as a table (with_table false: a
// batch's estimates, for paired differences).
void tally_estimates(const transport::TransportModel& model, const transport::TransportView<double>& v, const Batches& b,
                     io::ScenarioResult* out, bool with_table = true);

// The minimum-variance combination of k's estimators over the generations, and
// its weights (collision, absorption, track).
reduce::Estimate combined_k(const std::vector<std::array<double, 3>>& k, std::vector<double>* weights);

}  // namespace mcsim
