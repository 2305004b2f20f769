#include "app/run/risk/checkpoints.hpp"

#include <stdexcept>

#include "reduce/mpi.hpp"

namespace mcsim::risk {

void RiskCheckpoints::load(const std::vector<std::pair<std::string, io::Checkpoint>>& files, const std::string& rank0_file,
                           PassState* state, std::uint64_t u0, std::uint64_t u1) {
  if (files.empty()) return;
  struct Saved {
    std::uint64_t passes;
    std::uint8_t collecting;
    std::vector<std::uint64_t> units;
    std::vector<std::string> tallies;
  };
  std::vector<Saved> saved;
  bool found = false;
  for (const auto& [file, c] : files) {
    Unpacker in(c.partial, kCheckpointLayout, "checkpoint '" + file + "'");
    std::uint8_t has_state = 0;
    in.get(has_state);
    if (has_state) state->unpack(in), found = true;
    Saved s;
    in.get(s.passes), in.get(s.collecting), in.get(s.units);
    s.tallies.resize(s.units.size());
    for (auto& t : s.tallies) in.get(t);
    in.finish();
    saved.push_back(std::move(s));
  }
  if (!found) throw std::runtime_error("--resume: the checkpoint of rank 0 (" + rank0_file +
                                       ") is missing; the other ranks' cannot be resumed alone");
  for (Saved& s : saved)
    if (s.passes == state->passes && s.collecting == state->collecting)
      for (std::size_t i = 0; i < s.units.size(); ++i)
        if (s.units[i] >= u0 && s.units[i] < u1) loaded_[s.units[i]] = std::move(s.tallies[i]);
}

void RiskCheckpoints::finished(std::uint64_t unit, std::string tally) {
  std::lock_guard<std::mutex> lock(mutex_);
  finished_[unit] = std::move(tally);
}

void RiskCheckpoints::next_pass() {
  std::lock_guard<std::mutex> lock(mutex_);
  finished_.clear(), loaded_.clear();
}

std::pair<std::vector<std::uint64_t>, std::string> RiskCheckpoints::pack() {
  std::lock_guard<std::mutex> lock(mutex_);
  Packer out(kCheckpointLayout);
  out.put(static_cast<std::uint8_t>(mpi::master()));
  if (mpi::master()) state_.pack(out);
  std::map<std::uint64_t, const std::string*> all;
  for (const auto& [u, t] : loaded_) all[u] = &t;
  for (const auto& [u, t] : finished_) all[u] = &t;
  std::vector<std::uint64_t> done;
  for (const auto& [u, t] : all) done.push_back(u);
  out.put(state_.passes), out.put(state_.collecting), out.put(done);
  for (const auto& [u, t] : all) out.put(*t);
  return {std::move(done), out.take()};
}

}  // namespace mcsim::risk
