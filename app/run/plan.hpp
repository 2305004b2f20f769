// Every size decision of a run: the job's chunk size when its config names none,
// each rank's contiguous share of a range, the stages at which a target error is
// checked, and the cutting of work into units for devices. They depend on the job
// and the device count alone, never on timing. A chunk is where random streams
// and partials belong, so the chunk size is part of a job's answer; every other
// size is not: partials belong to a chunk, row or unit of the job, not to
// whoever ran it.
#pragma once
#include <cstdint>
#include <vector>

#include "io/config.hpp"

namespace mcsim::plan {

constexpr std::uint64_t kDefaultChunkPaths = 65536;
// Without run.chunk_paths, chunks grow (doubling) until a job has at most this many,
// so per-chunk tallies, their reduction and their file table stay small.
constexpr std::uint64_t kMaxDefaultChunks = std::uint64_t{1} << 16;
// Long paths get smaller chunks (down to kMinDefaultChunkPaths), so a GPU has a block
// per chunk to spare: about kDefaultChunkPaths path-steps a chunk.
constexpr std::uint64_t kMinDefaultChunkPaths = 1024;
// Nor more than this many path-steps a chunk: a chunk is the least work a device
// does between stop checks, so a SIGTERM is honoured within seconds, and a target
// error is first checked after bounded work, however many paths a job allows.
constexpr std::uint64_t kMaxChunkPathSteps = std::uint64_t{1} << 24;
std::uint64_t default_chunk_paths(std::uint64_t paths, std::uint64_t steps = 1,
                                  std::uint64_t max_chunks = kMaxDefaultChunks);
// Scenarios are compared through the spread of their differences over batches of
// chunks: without run.chunk_paths, a job with scenarios gets at least this many.
constexpr std::uint64_t kScenarioBatches = 64;
// Chunks that are independent replicates (scrambled Sobol point sets): by default
// the largest power of two (io::kMinReplicatePaths to io::kMaxReplicatePaths)
// leaving at least this many whole chunks.
constexpr std::uint64_t kReplicateChunks = 32;

// The job's chunk size: run.chunk_paths as given, else the defaults above.
std::uint64_t chunk_paths(const io::Job& job);
// The job with its sizes decided (run.chunk_paths set); what runs.
io::Job planned(io::Job job);

struct Span {
  std::uint64_t first, last;  // [first, last)
  std::uint64_t size() const { return last - first; }
};

// Rank `rank` of `ranks`: its contiguous share of [first, last).
Span share(Span whole, int rank, int ranks);
// This process's share (mpi::rank() of mpi::size()).
Span my_share(Span whole);

// Chunk counts after which a run with a target error may stop: 16, 32, 64, ... and
// finally all (just all without a target). The stop point is reproducible.
std::vector<std::uint64_t> stage_ends(std::uint64_t chunks, bool target);

// Units of at most `most` items each, from the runs of items still to do:
// consecutive items of one span in one unit.
std::vector<Span> cut(const std::vector<Span>& todo, std::uint64_t most);
// Of `items`, how many a unit takes when `devices` share them: about a
// `per_device`-th of each device's share, at least `least` (a CPU's threads), at
// most `most` (what a device holds at once), and at least one.
std::uint64_t unit_size(std::uint64_t items, std::size_t devices, std::uint64_t per_device, std::uint64_t least,
                        std::uint64_t most);

}  // namespace mcsim::plan
