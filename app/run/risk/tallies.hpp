// The tallies of a risk job's passes (app/run/risk/job.cpp): each adds exactly, so
// units, devices and ranks may add them in any order.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "models/var/tail_figures.hpp"
#include "reduce/exact_sum.hpp"
#include "reduce/partial.hpp"
#include "reduce/quantile.hpp"

namespace mcsim::risk {

using reduce::Fixed;
using reduce::Packer;
using reduce::Unpacker;

constexpr int kBins = 16384;  // a histogram pass's bins

// Pass 1: counts per bin, exact sums of the losses and their squares, extremes.
struct Histogram {
  std::vector<std::uint64_t> counts;
  Fixed sum = 0, sum_sq = 0;
  double min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
  void add(const Histogram& o) {
    if (counts.empty()) counts.assign(o.counts.size(), 0);
    for (std::size_t b = 0; b < counts.size(); ++b) counts[b] += o.counts[b];
    sum += o.sum, sum_sq += o.sum_sq;
    min = std::min(min, o.min), max = std::max(max, o.max);
  }
  void pack(Packer& b) const { b.put(counts), b.put(sum), b.put(sum_sq), b.put(min), b.put(max); }
  void unpack(Unpacker& b) { b.get(counts), b.get(sum), b.get(sum_sq), b.get(min), b.get(max); }
  // Whether a tally read back (a checkpoint's, a rank's) has this one's shape.
  bool same_shape(const Histogram& o) const { return counts.size() == o.counts.size(); }
};

// Pass 2, per level: the losses kept in [lo, hi) with their scenarios, and the
// losses at or above hi: their count, exact sums, and each position's share.
using var::Kept;
struct Collect {
  std::vector<std::vector<Kept>> kept;     // per level
  std::vector<std::vector<Kept>> above;    // per level, at or above the window (kept for paired differences only)
  std::vector<std::uint64_t> tail_count;   // per level
  std::vector<Fixed> tail_sum, tail_sum_sq;
  std::vector<Fixed> unit_sums;            // position_sums layout (positions, then groups), one band per level
  std::vector<std::uint64_t> tail;         // a unit's scenarios at or above some level's window
  std::vector<std::uint32_t> masks;        // and the levels they are above
  void size(std::size_t levels, std::size_t units) {
    kept.assign(levels, {});
    above.assign(levels, {});
    tail_count.assign(levels, 0);
    tail_sum.assign(levels, 0);
    tail_sum_sq.assign(levels, 0);
    unit_sums.assign(2 * levels * units, 0);
  }
  void add(const Collect& o) {
    for (std::size_t l = 0; l < kept.size(); ++l) {
      kept[l].insert(kept[l].end(), o.kept[l].begin(), o.kept[l].end());
      above[l].insert(above[l].end(), o.above[l].begin(), o.above[l].end());
      tail_count[l] += o.tail_count[l], tail_sum[l] += o.tail_sum[l], tail_sum_sq[l] += o.tail_sum_sq[l];
    }
    for (std::size_t j = 0; j < unit_sums.size(); ++j) unit_sums[j] += o.unit_sums[j];
    tail.insert(tail.end(), o.tail.begin(), o.tail.end());
    masks.insert(masks.end(), o.masks.begin(), o.masks.end());
  }
  void pack(Packer& b) const {
    for (const auto& k : kept) b.put(k);
    for (const auto& k : above) b.put(k);
    b.put(tail_count), b.put(tail_sum), b.put(tail_sum_sq), b.put(unit_sums);
  }
  void unpack(Unpacker& b) {
    for (auto& k : kept) b.get(k);
    for (auto& k : above) b.get(k);
    b.get(tail_count), b.get(tail_sum), b.get(tail_sum_sq), b.get(unit_sums);
  }
  bool same_shape(const Collect& o) const {
    return kept.size() == o.kept.size() && tail_count.size() == o.tail_count.size() &&
           tail_sum.size() == o.tail_sum.size() && tail_sum_sq.size() == o.tail_sum_sq.size() &&
           unit_sums.size() == o.unit_sums.size();
  }
};

// Where a level's kept losses begin and end, and how many lie below.
struct Window {
  double lo, hi;
  std::uint64_t below, count;
};
inline Window window_of(const reduce::Bins& bins, const Histogram& h, const reduce::LevelRanks& r) {
  const auto a = reduce::locate(h.counts, r.lo), b = reduce::locate(h.counts, r.hi);
  std::uint64_t count = 0;
  for (int i = a.bin; i <= b.bin; ++i) count += h.counts[static_cast<std::size_t>(i)];
  return {bins.low(a.bin), bins.high(b.bin), a.below, count};
}

// Partials: a histogram pass's tally and pass 2's.
constexpr reduce::PartialLayout kHistogramLayout{"risk.histogram", 1};
constexpr reduce::PartialLayout kCollectLayout{"risk.collect", 1};

}  // namespace mcsim::risk
