#include "app/run/option/workers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

namespace mcsim {

void ChunkStore::finish(std::uint64_t first, std::uint64_t last) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::fill(done_.begin() + static_cast<std::ptrdiff_t>(first), done_.begin() + static_cast<std::ptrdiff_t>(last), 1);
}

void ChunkStore::reserve(std::uint64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  n = std::min(n, chunks_);
  if (n <= done_.size()) return;
  try {
    partials_.resize(n * width_, 0.0);
    done_.resize(n, 0);
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(fmt::format("out of memory for the chunk tallies: {} chunks of {} values ({:.3g} GB), "
                                         "set by run.paths / run.chunk_paths; lower run.paths or raise run.chunk_paths",
                                         n, width_, 8e-9 * static_cast<double>(n) * static_cast<double>(width_)));
  }
}

void ChunkStore::put(std::uint64_t chunk, const double* partial) {
  if (chunk >= done_.size()) reserve(chunk + 1);
  std::lock_guard<std::mutex> lock(mutex_);
  std::copy_n(partial, width_, slot(chunk));
  done_[chunk] = 1;
}

void ChunkStore::snapshot(std::uint64_t first, std::uint64_t last, std::vector<std::uint64_t>* done,
                          std::vector<double>* partials) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::uint64_t c = first; c < std::min<std::uint64_t>(last, done_.size()); ++c) {
    if (!done_[c]) continue;
    done->push_back(c);
    partials->insert(partials->end(), slot(c), slot(c) + width_);
  }
}

namespace {

// Units small enough that devices share the work evenly and a stop is quick, large
// enough that launches and copies stay negligible.
std::vector<ChunkSpan> units_of(const std::vector<ChunkSpan>& todo, const DeviceList& devices) {
  std::uint64_t total = 0, least = 1;
  for (const auto& s : todo) total += s.size();
  for (const Device* d : devices) least = std::max(least, d->min_unit());
  return plan::cut(todo, plan::unit_size(total, devices.size(), 16, least, 4096));
}

void check_finite(const ChunkStore& store, ChunkSpan unit, const std::string& device) {
  for (std::uint64_t c = unit.first; c < unit.last; ++c)
    for (std::size_t i = 0; i < store.width(); ++i)
      if (!std::isfinite(store.slot(c)[i]))
        throw std::runtime_error("chunk " + std::to_string(c) + " on " + device +
                                 ": its tally is not finite (a payoff was NaN or Inf, or overflowed); "
                                 "check the model's parameters");
}

}  // namespace

bool run_chunks(const DeviceList& devices, const PathKernel& kernel,
                const ChunkGeometry& geo, const std::vector<ChunkSpan>& todo, ChunkStore& store,
                Progress* progress, const WorkerHooks& hooks) {
  const std::vector<ChunkSpan> units = units_of(todo, devices);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false}, stopped{false};
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable all_done;
  std::size_t running = devices.size();

  auto work = [&](Device* device) {
    try {
      OptionExecutor& executor = device->executor<OptionExecutor>();
      for (;;) {
        if (failed) break;
        if (hooks.stop && hooks.stop()) {
          stopped = true;
          break;
        }
        const std::size_t i = next.fetch_add(1);
        if (i >= units.size()) break;
        const ChunkSpan u = units[i];
        executor.run(kernel, geo, u.first, u.last, store.slot(u.first), progress);
        for (std::uint64_t c = u.first; c < u.last; ++c) add_chunk_samples(kernel, store.slot(c));
        check_finite(store, u, device->name());
        store.finish(u.first, u.last);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    all_done.notify_all();
  };

  std::vector<std::thread> threads;
  for (Device* d : devices) threads.emplace_back(work, d);
  {
    std::unique_lock<std::mutex> lock(mutex);
    const auto period = std::chrono::duration<double>(hooks.checkpoint_s > 0 ? hooks.checkpoint_s : 3600.0);
    while (running > 0) {
      if (all_done.wait_for(lock, period, [&] { return running == 0; })) break;
      if (hooks.checkpoint_s > 0 && hooks.checkpoint) {
        lock.unlock();
        hooks.checkpoint();
        lock.lock();
      }
    }
  }
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return !stopped;
}

}  // namespace mcsim
