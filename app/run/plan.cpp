#include "app/run/plan.hpp"

#include <algorithm>

#include "reduce/mpi.hpp"

namespace mcsim::plan {

Span share(Span whole, int rank, int ranks) {
  const auto at = [&](int r) {
    return whole.first + static_cast<std::uint64_t>((static_cast<unsigned __int128>(whole.size()) * static_cast<unsigned>(r)) /
                                                    static_cast<unsigned>(ranks));
  };
  return {at(rank), at(rank + 1)};
}

Span my_share(Span whole) { return share(whole, mpi::rank(), mpi::size()); }

std::vector<std::uint64_t> stage_ends(std::uint64_t chunks, bool target) {
  std::vector<std::uint64_t> ends;
  if (target)
    for (std::uint64_t e = 16; e < chunks; e *= 2) ends.push_back(e);
  ends.push_back(chunks);
  return ends;
}

std::vector<Span> cut(const std::vector<Span>& todo, std::uint64_t most) {
  std::vector<Span> units;
  for (const Span& s : todo)
    for (std::uint64_t c = s.first; c < s.last; c += most) units.push_back({c, std::min(s.last, c + most)});
  return units;
}

std::uint64_t unit_size(std::uint64_t items, std::size_t devices, std::uint64_t per_device, std::uint64_t least,
                        std::uint64_t most) {
  const std::uint64_t share = items / (per_device * std::max<std::size_t>(devices, 1));
  return std::max<std::uint64_t>(1, std::clamp<std::uint64_t>(share, least, std::max(least, most)));
}

}  // namespace mcsim::plan
