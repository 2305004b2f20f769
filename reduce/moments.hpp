// Moment tallies: for each output k, (count, sum, sum of squares) at offsets 3k..3k+2
// of a flat array of doubles. Arrays add element-wise, so nothing downstream needs
// to know which model filled them.
#pragma once
#include "rng/hd.hpp"

namespace mcsim::reduce {

constexpr int kMomentFields = 3;  // count, sum, sum of squares

// What a model scores into for one stream group (a handful of paths): sums in the
// path precision, so a float kernel converts to double once a group, not once a path.
template <int K, class Real>
struct GroupMoments {
  int n[K];
  Real sum[K], sum_sq[K];

  MCSIM_HD GroupMoments() {
    for (int k = 0; k < K; ++k) n[k] = 0, sum[k] = Real(0), sum_sq[k] = Real(0);
  }
  MCSIM_HD void add(int k, Real x) {
    n[k] += 1;
    sum[k] += x;
    sum_sq[k] += x * x;
  }
};

// Per-thread running tally in double, the layout of a chunk partial.
template <int K>
struct Moments {
  static constexpr int outputs = K;
  static constexpr int size = kMomentFields * K;
  double v[size];

  MCSIM_HD Moments() {
    for (int i = 0; i < size; ++i) v[i] = 0.0;
  }
  template <class Real>
  MCSIM_HD void absorb(const GroupMoments<K, Real>& g) {
    for (int k = 0; k < K; ++k) {
      v[kMomentFields * k] += static_cast<double>(g.n[k]);
      v[kMomentFields * k + 1] += static_cast<double>(g.sum[k]);
      v[kMomentFields * k + 2] += static_cast<double>(g.sum_sq[k]);
    }
  }
};

}  // namespace mcsim::reduce
