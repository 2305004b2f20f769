// The size decisions a run shares across families: each rank's contiguous share of
// a range, the stages at which a target error is checked, and the cutting of work
// into units for devices. They depend on the job and the device count alone, never
// on timing; and since partials belong to a chunk, row or unit of the job, not to
// whoever ran it, results do not depend on them at all.
#pragma once
#include <cstdint>
#include <vector>

namespace mcsim::plan {

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
