// What executors count their finished paths (scenarios, histories) into, from any
// thread; the runner's progress line (app/run/progress.hpp) shows it.
#pragma once
#include <atomic>
#include <cstdint>

namespace mcsim {

class PathCounter {
 public:
  void add(std::uint64_t paths) { done_.fetch_add(paths, std::memory_order_relaxed); }

 protected:
  std::atomic<std::uint64_t> done_{0};
};

}  // namespace mcsim
