// Runs a rank's option chunks on its devices: one host thread per device (a GPU,
// or the CPU's OpenMP threads), each taking the next unit of consecutive chunks as it gets
// free, so a slower device takes fewer. Where a chunk's partial lands is fixed by
// its index, so the hand-out order never reaches the results.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "app/exec/option/executor.hpp"
#include "app/run/plan.hpp"
#include "app/run/progress.hpp"
#include "app/run/runner.hpp"

namespace mcsim {

// The partial tallies of every chunk of a job, and which are finished.
class ChunkStore {
 public:
  // Slots are made as stages reach them (reserve): a job whose run.paths is only a
  // cap for its target error holds the chunks it ran, not all it might have.
  ChunkStore(std::uint64_t chunks, std::size_t width) : chunks_(chunks), width_(width) {}
  std::uint64_t chunks() const { return chunks_; }
  std::size_t width() const { return width_; }
  // Makes the slots of chunks [0, n); no worker may be writing meanwhile.
  void reserve(std::uint64_t n);
  double* slot(std::uint64_t chunk) { return &partials_[chunk * width_]; }
  const double* slot(std::uint64_t chunk) const { return &partials_[chunk * width_]; }
  bool done(std::uint64_t chunk) const { return chunk < done_.size() && done_[chunk] != 0; }

  // Marks chunks [first, last) finished (their slots written).
  void finish(std::uint64_t first, std::uint64_t last);
  // Stores a partial from elsewhere (a checkpoint) and marks it finished.
  void put(std::uint64_t chunk, const double* partial);
  // The finished chunks in [first, last), their indices and partials (for checkpoints).
  void snapshot(std::uint64_t first, std::uint64_t last, std::vector<std::uint64_t>* done,
                std::vector<double>* partials) const;

 private:
  std::uint64_t chunks_;
  std::size_t width_;
  std::vector<double> partials_;
  std::vector<char> done_;
  mutable std::mutex mutex_;
};

using ChunkSpan = plan::Span;

struct WorkerHooks {
  std::function<bool()> stop;        // checked before each unit
  double checkpoint_s = 0;           // 0: no periodic checkpoints
  std::function<void()> checkpoint;  // called from the calling thread
};

// Runs `todo` on the devices, writing into `store`. Throws the first error of any
// device (after all have stopped), naming the device and chunks, including a
// non-finite partial (a NaN or Inf payoff). Returns false if stopped early.
bool run_chunks(const DeviceList& devices, const PathKernel& kernel,
                const ChunkGeometry& geo, const std::vector<ChunkSpan>& todo, ChunkStore& store,
                Progress* progress, const WorkerHooks& hooks);

}  // namespace mcsim
