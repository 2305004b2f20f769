// A risk job's units of work: whole chunks of scenarios, and the loop that runs a
// pass over a rank's units on its devices (app/run/risk/job.cpp's passes).
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/exec/risk/executor.hpp"
#include "app/run/plan.hpp"
#include "app/run/risk/loss_cache.hpp"
#include "app/run/signals.hpp"
#include "io/config.hpp"
#include "models/var/risk_kernel.hpp"

namespace mcsim::risk {

constexpr std::uint64_t kUnitScenarios = 1 << 22;  // losses a device holds at once

struct Unit {
  std::uint64_t first_chunk, last_chunk, first, count;  // chunks, and their scenarios
};

// The job's units: whole chunks, as many as a device holds at once, and at most a
// 16th of the job (so devices share it evenly and checkpoints come often).
inline std::vector<Unit> job_units(const io::RunConfig& run, std::uint64_t chunks) {
  std::vector<Unit> units;
  for (const plan::Span& s : plan::cut({{0, chunks}}, plan::unit_size(chunks, 1, 16, 1, kUnitScenarios / run.chunk_paths))) {
    const std::uint64_t first = s.first * run.chunk_paths;
    units.push_back({s.first, s.last, first, std::min(run.paths, s.last * run.chunk_paths) - first});
  }
  return units;
}

// Runs work(chunk, losses of the chunk, tally) for every chunk of the units given
// (indices into `units`) that are not done(i), then, per unit, finish(executor,
// unit tally) (pass 2 sends its tail there) and finished(i, unit tally). A unit's
// losses come from `cache` where an earlier pass kept them, else from its device
// (and are kept while the cache has room). One host thread per device takes the
// next unit as it gets free; a unit's chunks are shared by OpenMP threads, each
// with its own tally, which also copy the unit's losses into the cache. Beside a
// device that is not the host's CPU (or with `overlap`), the device computes the
// next unit's losses and finishes the last unit while the host tallies this one.
// Tallies add exactly, so neither split reaches the result. A non-finite loss
// stops the run, naming it; so does a stop signal, after the units in hand.
// Returns the sum of the units run.
template <class Tally, class Work, class Finish, class Done, class Finished>
Tally over_units(const DeviceList& devices, const var::RiskKernel& kernel, const std::vector<Unit>& units,
                 std::vector<std::size_t> todo, std::uint64_t chunk_paths, LossCache& cache, bool overlap,
                 const Tally& empty, Work&& work, Finish&& finish, Done&& done, Finished&& finished) {
  todo.erase(std::remove_if(todo.begin(), todo.end(), done), todo.end());
  std::vector<Tally> tallies(devices.size(), empty);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mutex;
  const std::size_t none = todo.size();
  const auto take = [&] { return failed || stop_requested() ? none : std::min(next.fetch_add(1), none); };
  // A unit's losses: where to read them, and the cache's room to copy them to
  // (nullptr when they came from the cache or it has no room).
  struct Losses {
    const double* read = nullptr;
    double* keep = nullptr;
  };
  const auto run = [&](std::size_t d) {
    Device& device = *devices[d];
    RiskExecutor& dev = device.executor<RiskExecutor>();
    const bool beside = overlap || device.beside_host();
    std::vector<double> room, room_ahead;  // for this unit's losses, and the next one's
    const auto load = [&dev, &kernel, &units, &todo, &cache](std::size_t i, std::vector<double>& room) -> Losses {
      if (const double* kept = cache.find(todo[i])) return {kept, nullptr};
      const Unit& u = units[todo[i]];
      room.resize(u.count);
      dev.scenario_losses(kernel, u.first, u.count, room.data());
      return {room.data(), cache.room(todo[i], u.count)};
    };
    // Runs f on its own thread beside a device, else here; `job` holds it.
    const auto start = [beside](std::future<void>& job, auto f) {
      if (beside) job = std::async(std::launch::async, std::move(f));
      else f();
    };
    std::future<void> fetching, finishing;
    Losses losses, ahead;
    try {
      std::size_t i = take();
      if (i < none) losses = load(i, room);
      while (i < none) {
        const Unit& u = units[todo[i]];
        const std::size_t j = take();
        if (j < none) start(fetching, [&, j] { ahead = load(j, room_ahead); });
        auto unit = std::make_shared<Tally>(empty);
        std::uint64_t bad = ~std::uint64_t{0};
        const auto chunks = static_cast<std::int64_t>(u.last_chunk - u.first_chunk);
#pragma omp parallel
        {
          Tally mine = empty;
          std::uint64_t my_bad = ~std::uint64_t{0};
#pragma omp for schedule(dynamic, 1)
          for (std::int64_t c = 0; c < chunks; ++c) {
            const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk_paths;
            const std::uint64_t end = std::min(u.count, begin + chunk_paths);
            const double* x = losses.read;
            // A non-finite loss fails the run, and no tally sees it (a bin of -inf).
            for (std::uint64_t k = begin; k < end && my_bad == ~std::uint64_t{0}; ++k)
              if (!std::isfinite(x[k])) my_bad = u.first + k;
            if (my_bad != ~std::uint64_t{0}) continue;
            if (losses.keep) std::copy(x + begin, x + end, losses.keep + begin);
            work(u.first_chunk + static_cast<std::uint64_t>(c), u.first + begin, x + begin, end - begin, mine);
          }
#pragma omp critical
          {
            unit->add(mine);
            bad = std::min(bad, my_bad);
          }
        }
        if (bad != ~std::uint64_t{0})
          throw std::runtime_error(fmt::format("scenario {} on {}: its loss is not finite; check the portfolio", bad,
                                               device.name()));
        if (losses.keep) cache.kept(todo[i]);
        // The last unit's finish runs beside this one's tally; one at a time.
        if (finishing.valid()) finishing.get();
        start(finishing, [&, unit, i] {
          finish(dev, *unit);
          finished(todo[i], *unit);
          tallies[d].add(*unit);
        });
        if (fetching.valid()) fetching.get();
        std::swap(room, room_ahead);  // ahead points into what was room_ahead, or the cache
        losses = ahead;
        i = j;
      }
      if (finishing.valid()) finishing.get();
    } catch (...) {
      // Work still running reads this frame: let it end before leaving it.
      for (std::future<void>* f : {&fetching, &finishing})
        if (f->valid()) f->wait();
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t d = 0; d < devices.size(); ++d) threads.emplace_back(run, d);
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  Tally total = empty;
  for (auto& t : tallies) total.add(t);
  return total;
}

}  // namespace mcsim::risk
