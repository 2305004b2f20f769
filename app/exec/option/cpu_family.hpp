// cpu_run_family (family.hpp), for the family files only: OpenMP threads take
// whole chunks; within a chunk one thread walks the stream groups in order, so a
// chunk's partial is the same whatever the thread count.
#pragma once
#include <type_traits>

#include "app/exec/cpu_clones.hpp"
#include "app/exec/option/family.hpp"

namespace mcsim {

namespace {  // each family file's own copy

// Stream groups are simulated kBatch at a time in a loop the compiler vectorises
// (one SIMD lane per group; host_math.hpp keeps it free of library calls), then
// absorbed in index order, so the partial has the same bits as a group-by-group walk.
constexpr int kBatch = 64;

// Stepped kernels take their groups in batches of this many, stepped together
// (simulate_batch): one vector lane per group in every step's loops.
constexpr int kStepBatch = 32;

template <class K, class = void>
struct Batched : std::false_type {};
template <class K>
struct Batched<K, std::void_t<decltype(K::kBatched)>> : std::bool_constant<K::kBatched> {};

// A chunk's last groups, fewer than a batch: under 1% of its paths, so compiled
// once, plainly, rather than in every clone of the batched loop (which would
// double what a family file costs to compile). The same paths and order either way.
template <class Kernel>
__attribute__((noinline)) void run_tail(const Kernel& k, const ChunkGeometry& geo, const GroupRange& r, std::uint64_t g,
                                        reduce::Moments<Kernel::kOutputs>& acc) {
  for (; g < r.last; ++g) run_group(k, geo.seed, g, lanes_of<Kernel::kGroup>(r, g), acc);
}

template <class Kernel>
MCSIM_CPU_CLONES void run_chunk(const Kernel& kernel, const ChunkGeometry& geo,
                                std::uint64_t chunk, double* out) {
  constexpr int G = Kernel::kGroup, K = Kernel::kOutputs;
  using Real = typename Kernel::real_type;
  using Group = reduce::GroupMoments<K, Real>;
  const Kernel k = kernel;  // a local copy: no aliasing with the batch below
  const GroupRange r = chunk_groups<G>(geo, chunk);
  const std::uint64_t full_end = r.end_path / G;  // groups with all G lanes in the chunk
  reduce::Moments<Kernel::kOutputs> acc;
  std::uint64_t g = r.first;
  if constexpr (Batched<Kernel>::value) {
    for (; g + kStepBatch <= full_end; g += kStepBatch) {
      Group m[kStepBatch];
      k.template simulate_batch<kStepBatch>(geo.seed, g, m);
      for (int j = 0; j < kStepBatch; ++j) acc.absorb(m[j]);
    }
  } else {
    for (; g + kBatch <= full_end; g += kBatch) {
      // Structure of arrays, so each field is one vector store per batch of lanes.
      int n[K][kBatch];
      Real sum[K][kBatch], sum_sq[K][kBatch];
#pragma GCC ivdep
      for (int j = 0; j < kBatch; ++j) {
        rng::Stream stream(geo.seed, g + static_cast<std::uint64_t>(j));
        Group m;
        k.simulate(stream, G, m);
        for (int o = 0; o < K; ++o) n[o][j] = m.n[o], sum[o][j] = m.sum[o], sum_sq[o][j] = m.sum_sq[o];
      }
      for (int j = 0; j < kBatch; ++j) {
        Group m;
        for (int o = 0; o < K; ++o) m.n[o] = n[o][j], m.sum[o] = sum[o][j], m.sum_sq[o] = sum_sq[o][j];
        acc.absorb(m);
      }
    }
  }
  run_tail(k, geo, r, g, acc);
  for (int i = 0; i < acc.size; ++i) out[i] = acc.v[i];
}

}  // namespace

template <class Family>
void cpu_run_family(const PathKernel& kernel, const ChunkRun& run) {
  visit_family<Family, void>(kernel, [&](const auto& k) {
    const auto n = static_cast<std::int64_t>(run.last - run.first);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t chunk = run.first + static_cast<std::uint64_t>(i);
      run_chunk(k, run.geo, chunk, run.out + static_cast<std::size_t>(i) * run.width);
      if (run.progress) {
        const std::uint64_t begin = chunk * run.geo.chunk_paths;
        run.progress->add(std::min(run.geo.chunk_paths, run.geo.paths - begin));
      }
    }
  });
}

}  // namespace mcsim
