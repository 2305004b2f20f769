// A risk job's losses kept on the host between its passes: what a pass computed for
// a unit of scenarios, for a later pass to read instead of revaluing the unit (the
// same bits either way). Bounded: past its budget, units are not kept and every pass
// revalues them, so memory stays flat in the number of scenarios.
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

namespace mcsim {

class LossCache {
 public:
  LossCache(std::size_t units, std::uint64_t budget_bytes) : kept_(units), left_(budget_bytes) {}
  // The unit's losses, if kept.
  const std::vector<double>* find(std::size_t unit) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return kept_[unit].empty() ? nullptr : &kept_[unit];
  }
  // Keeps a copy of the unit's losses while the budget lasts.
  void keep(std::size_t unit, const std::vector<double>& losses) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::uint64_t bytes = losses.size() * sizeof(double);
    if (bytes > left_ || !kept_[unit].empty()) return;
    kept_[unit] = losses;
    left_ -= bytes;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::vector<double>> kept_;
  std::uint64_t left_;
};

}  // namespace mcsim
