// A risk job's losses kept on the host between its passes: what a pass computed for
// a unit of scenarios, for a later pass to read instead of revaluing the unit (the
// same bits either way). Bounded: past its budget, units are not kept and every pass
// revalues them, so memory stays flat in the number of scenarios.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace mcsim {

class LossCache {
 public:
  LossCache(std::size_t units, std::uint64_t budget_bytes) : kept_(units), left_(budget_bytes) {}
  // The unit's losses, if kept whole.
  const double* find(std::size_t unit) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return kept_[unit].whole ? kept_[unit].losses.get() : nullptr;
  }
  // Room for the unit's `count` losses while the budget lasts, else nullptr. The room
  // is left untouched (its pages are first written by whoever fills it: the threads
  // that tally the unit, side by side); filled, it is kept().
  double* room(std::size_t unit, std::uint64_t count) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::uint64_t bytes = count * sizeof(double);
    if (bytes > left_ || kept_[unit].losses) return nullptr;
    kept_[unit].losses.reset(new double[count]);
    left_ -= bytes;
    return kept_[unit].losses.get();
  }
  void kept(std::size_t unit) {
    const std::lock_guard<std::mutex> lock(mutex_);
    kept_[unit].whole = kept_[unit].losses != nullptr;
  }

 private:
  struct Kept {
    std::unique_ptr<double[]> losses;
    bool whole = false;
  };
  mutable std::mutex mutex_;
  std::vector<Kept> kept_;
  std::uint64_t left_;
};

}  // namespace mcsim
