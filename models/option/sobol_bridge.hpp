// Brownian paths from scrambled Sobol points, built by the Brownian bridge so the
// first Sobol dimensions carry the most variance: dimension 0 fixes the path's end,
// dimension 1 its middle, and so on over up to kSobolDims coarse points. The steps
// between coarse points are filled from the bridge's law given both ends, with the
// path's own Philox normals. Time is counted in steps: B = W / sqrt(dt), so a
// step's increment of B is the standard normal that a Philox path would draw.
#pragma once
#include <cmath>
#include <cstdint>

#include "rng/hd.hpp"
#include "rng/sobol.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

template <class Real>
struct BridgePlan {
  static constexpr int kMax = rng::kSobolDims;
  int points;                       // coarse points, M <= kMax
  int step_of[kMax + 1];            // the step index of coarse point k (0: the start)
  int target[kMax], left[kMax], right[kMax];  // in the bridge's order, one Sobol dimension each
  Real w_left[kMax], w_right[kMax], sd[kMax];
  int bits;                         // paths per scrambling: 2^bits, one chunk
  std::uint64_t seed;
  std::uint32_t directions[kMax][rng::kSobolBits];
};

// Host: coarse points at steps round(k n / M), M = min(n, kMax); the end first, then
// midpoints breadth-first.
template <class Real>
BridgePlan<Real> make_bridge_plan(int steps, std::uint64_t chunk_paths, std::uint64_t seed) {
  BridgePlan<Real> p{};
  const int m = steps < p.kMax ? steps : p.kMax;
  p.points = m;
  p.step_of[0] = 0;
  for (int k = 1; k <= m; ++k)
    p.step_of[k] = static_cast<int>((static_cast<std::int64_t>(k) * steps * 2 + m) / (2 * m));
  int n = 0;
  const auto place = [&](int i, int l, int r) {
    const double ti = p.step_of[i], tl = p.step_of[l], tr = r ? p.step_of[r] : 0.0;
    p.target[n] = i, p.left[n] = l, p.right[n] = r;
    if (r) {  // between l and r
      p.w_left[n] = static_cast<Real>((tr - ti) / (tr - tl));
      p.w_right[n] = static_cast<Real>((ti - tl) / (tr - tl));
      p.sd[n] = static_cast<Real>(std::sqrt((ti - tl) * (tr - ti) / (tr - tl)));
    } else {  // the end, from the start (B = 0)
      p.w_left[n] = p.w_right[n] = Real(0);
      p.sd[n] = static_cast<Real>(std::sqrt(ti));
    }
    ++n;
  };
  place(m, 0, 0);
  int queue[2 * BridgePlan<Real>::kMax][2], head = 0, tail = 0;
  queue[tail][0] = 0, queue[tail][1] = m, ++tail;
  while (head < tail) {
    const int l = queue[head][0], r = queue[head][1];
    ++head;
    if (r - l < 2) continue;
    const int i = (l + r) / 2;
    place(i, l, r);
    queue[tail][0] = l, queue[tail][1] = i, ++tail;
    queue[tail][0] = i, queue[tail][1] = r, ++tail;
  }
  p.bits = 0;
  while ((std::uint64_t{1} << p.bits) < chunk_paths) ++p.bits;
  p.seed = seed;
  const auto& table = rng::sobol_directions();
  for (int d = 0; d < m; ++d)
    for (int k = 0; k < rng::kSobolBits; ++k) p.directions[d][k] = table.v[d][k];
  return p;
}

// A source of per-step normals for StepPath::walk, as rng::OneStream and
// rng::GroupBatch are: W groups of G lanes, group j being stream group first + j.
// The increments come from the bridge; `inner` gives the fill normals and any
// uniforms the walk asks for.
template <class Real, int G, int W, class Inner>
struct SobolBridge {
  // No reference to the plan is kept: on the GPU the plan is a kernel parameter,
  // and a stored reference to it would make every thread copy it to local memory.
  int step_of[BridgePlan<Real>::kMax + 1];
  Inner inner;
  Real coarse[BridgePlan<Real>::kMax + 1][G][W];  // B at the coarse points
  Real now[G][W];                                 // B at the current step
  int points, step = 0, next_point = 1;
  bool stepping = false;  // normals were drawn this step: next() ends it
  // The current step, the same for every lane: does it end on a coarse point? If
  // not, it takes 1/k of the way to the point k steps ahead (pull) plus the
  // bridge's own noise, sd sqrt(1 - 1/k) (spread).
  bool on_point;
  Real pull, spread;

  MCSIM_HD void plan_step() {
    const int k = step_of[next_point] - step;
    on_point = k == 1;
    pull = Real(1) / static_cast<Real>(k);
    spread = sqrt(Real(1) - pull);
  }

  MCSIM_HD SobolBridge(const BridgePlan<Real>& plan, Inner in, std::uint64_t first) : inner(in) {
    points = plan.points;
    for (int k = 0; k <= points; ++k) step_of[k] = plan.step_of[k];
    const std::uint64_t mask = (std::uint64_t{1} << plan.bits) - 1;
    for (int j = 0; j < W; ++j) {
      const std::uint64_t path0 = (first + static_cast<std::uint64_t>(j)) * G;  // a group lies in one chunk
      const std::uint64_t replicate = path0 >> plan.bits;
      for (int l = 0; l < G; ++l) coarse[0][l][j] = Real(0), now[l][j] = Real(0);
      for (int o = 0; o < plan.points; ++o) {
        const std::uint32_t key = rng::scramble_key(plan.seed, replicate, o);
        for (int l = 0; l < G; ++l) {
          const auto index = static_cast<std::uint32_t>((path0 + static_cast<std::uint64_t>(l)) & mask);
          const Real z = static_cast<Real>(rng::inverse_normal(rng::scrambled_uniform(plan.directions[o], index, plan.bits, key)));
          coarse[plan.target[o]][l][j] =
              plan.w_left[o] * coarse[plan.left[o]][l][j] + plan.w_right[o] * coarse[plan.right[o]][l][j] + plan.sd[o] * z;
        }
      }
    }
    plan_step();
  }

  // The increments of group j's lanes over the current step.
  template <class R>
  MCSIM_HD rng::NormalBlock<R> normals(int j) {
    stepping = true;
    rng::NormalBlock<R> out;
    if (on_point) {
      for (int l = 0; l < G; ++l) out.z[l] = coarse[next_point][l][j] - now[l][j], now[l][j] = coarse[next_point][l][j];
      return out;
    }
    const auto fill = inner.template normals<R>(j);
    for (int l = 0; l < G; ++l) {
      const Real move = (coarse[next_point][l][j] - now[l][j]) * pull + spread * fill.z[l];
      out.z[l] = move;
      now[l][j] += move;
    }
    return out;
  }
  template <class R>
  MCSIM_HD rng::NormalBlock<R> uniforms(int j) {
    return inner.template uniforms<R>(j);
  }
  MCSIM_HD void next() {
    if (!stepping) return inner.next();  // after uniforms
    if (!on_point) inner.next();         // the fill normals' block
    stepping = false;
    ++step;
    if (next_point <= points && step_of[next_point] == step) ++next_point;
    if (next_point <= points) plan_step();
  }
};

}  // namespace mcsim::option
