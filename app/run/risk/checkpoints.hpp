// A risk job's checkpoints (app/run/risk/job.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "app/run/risk/tallies.hpp"
#include "io/checkpoint.hpp"

namespace mcsim::risk {

// What the passes so far decided: the pass under way (a histogram pass's bins, or
// pass 2's windows) and, on rank 0, what the results need of the passes before it.
struct PassState {
  std::uint64_t passes = 0;       // histogram passes finished
  std::uint8_t collecting = 0;    // pass 2 is under way
  double lo = 0, hi = 0;          // the histogram pass's bins
  std::vector<double> plan;       // pass 2's windows: per level lo, hi
  std::vector<Window> windows;    // rank 0: each level's narrowest window so far
  Histogram first_pass;           // rank 0
  std::vector<double> chunk_moments;  // rank 0, after pass 1: every chunk's loss moments
  void pack(Packer& b) const {
    b.put(passes), b.put(collecting), b.put(lo), b.put(hi), b.put(plan), b.put(windows), b.put(chunk_moments);
    first_pass.pack(b);
  }
  void unpack(Unpacker& b) {
    b.get(passes), b.get(collecting), b.get(lo), b.get(hi), b.get(plan), b.get(windows), b.get(chunk_moments);
    first_pass.unpack(b);
  }
};

// What this rank's risk checkpoint holds: rank 0's state between passes, and the
// tally of each unit this rank finished in the pass under way, packed on its own,
// so a resume on any number of ranks takes its units from whichever file holds
// them. The run layer writes the file (app/run/lifecycle.hpp).
class RiskCheckpoints {
 public:
  explicit RiskCheckpoints(const PassState& state) : state_(state) {}

  // --resume: the state from rank 0's file into *state, and the tallies of the
  // units in [u0, u1) that any file holds for the pass it names (loaded()).
  void load(const std::vector<std::pair<std::string, io::Checkpoint>>& files, const std::string& rank0_file,
            PassState* state, std::uint64_t u0, std::uint64_t u1);
  const std::map<std::uint64_t, std::string>& loaded() const { return loaded_; }

  // Unit i of the pass under way finished (from any thread): keeps its tally.
  void finished(std::uint64_t unit, std::string tally);
  // A pass ended: its units' tallies are in the state now.
  void next_pass();
  // The checkpoint: the units held and the partial (from any thread).
  std::pair<std::vector<std::uint64_t>, std::string> pack();

 private:
  const PassState& state_;
  std::map<std::uint64_t, std::string> loaded_, finished_;
  std::mutex mutex_;
};

constexpr reduce::PartialLayout kCheckpointLayout{"risk.passes", 1};

}  // namespace mcsim::risk
