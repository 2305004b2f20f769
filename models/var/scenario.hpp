// One risk scenario, written once for host and device: correlated shocks over the
// horizon, the assets' spots at its end, and each position revalued there. Scenario
// s draws from stream (seed, s) alone, so any pass, rank or device regenerates it
// bit for bit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/option/bsm.hpp"
#include "models/var/rate_legs.hpp"
#include "models/var/var_spec.hpp"
#include "rng/stream.hpp"

namespace mcsim::var {

// What a position's revaluation needs beyond the spot, computed once per job:
// quantity, value today, and unit_value's terms (tau: life left at the horizon).
constexpr int kTerms = 2 + kUnitTerms;

// The portfolio as a scenario kernel reads it, through pointers to host or device
// copies of PortfolioArrays. Positions are in asset order, then those on two
// factors (exchanges, options on a volatility factor) from asset_end[assets - 1],
// then from asset_end[assets] the rate positions (their legs from leg_begin[p] to
// leg_begin[p + 1]; none for the others). A short-rate factor's "log spot" is its level x. Units are what
// the contributions sum losses of: each position alone, then each group of the book's
// grouping columns (share_groups), a unit's members listed from unit_begin[u] to
// unit_begin[u + 1] in `members`.
template <class Real>
struct PortfolioView {
  int assets, positions, units;
  const Real* cholesky;   // packed lower triangle: row i starts at i (i + 1) / 2
  const Real* mean_log;   // per asset: ln S0 + (drift - vol^2 / 2) h
  const Real* vol_h;      // per asset: vol sqrt(h)
  const Real* terms;      // kTerms per position
  const int* asset_end;   // asset i's positions end here; [assets]: the pairs' end
  const int* kind;        // per position: an Instrument
  const int* asset_of;    // per position: its asset
  const int* other_of;    // per position: its second factor; -1 for none
  const int* leg_begin;   // positions + 1 offsets into legs
  const Real* legs;       // kLegTerms per leg
  const int* unit_begin;  // units + 1 offsets into members
  const int* members;     // positions, by unit
  Real dof;               // Student-t degrees of freedom; 0: normal shocks
  // Historical simulation (nullptr for Monte Carlo): scenario s's log spots at the
  // horizon, assets of them from history + s * assets.
  const Real* history;
};

// The flat arrays behind a view: one block of reals and one of ints, so a device
// copy is two transfers.
template <class Real>
struct PortfolioArrays {
  int assets = 0, positions = 0, units = 0, legs = 0;
  Real dof = 0;
  bool historical = false;  // the reals end with the history's log spots
  std::vector<Real> reals;
  std::vector<int> ints;
  PortfolioView<Real> view(const Real* r, const int* i) const {
    const std::size_t tri = static_cast<std::size_t>(assets) * (assets + 1) / 2;
    const Real* terms = r + tri + 2 * assets;
    const Real* leg = terms + static_cast<std::size_t>(kTerms) * positions;
    const Real* history = historical ? leg + static_cast<std::size_t>(kLegTerms) * legs : nullptr;
    const int* kind = i + assets + 1;
    const int* leg_begin = kind + 3 * positions;
    const int* unit_begin = leg_begin + positions + 1;
    return {assets, positions, units, r, r + tri, r + tri + assets, terms, i, kind, kind + positions, kind + 2 * positions,
            leg_begin, leg, unit_begin, unit_begin + units + 1, dof, history};
  }
  PortfolioView<Real> host_view() const { return view(reals.data(), ints.data()); }
};

// Positions in revaluation (asset) order: order[k] is the config index of the k-th.
std::vector<int> revaluation_order(const VarSpec& s);
// The positions of each value of each grouping column (config indices), named
// COLUMN=VALUE, columns in order and values in the order the book first names them.
struct ShareGroup {
  std::string name;
  std::vector<int> positions;
};
std::vector<ShareGroup> share_groups(const VarSpec& s);
template <class Real>
PortfolioArrays<Real> portfolio_arrays(const VarSpec& s);

// Position p's loss (value today minus value at the horizon) at spot `spot` = e^log_spot.
template <class Real>
MCSIM_HD Real position_loss(const PortfolioView<Real>& pf, int p, Real spot, Real log_spot) {
  const Real* t = pf.terms + kTerms * p;
  return t[1] - t[0] * unit_value(static_cast<Instrument>(pf.kind[p]), spot, log_spot, t + 2);  // today - quantity x value
}

// Position p's loss at its two factors' log levels (pair_value).
template <class Real>
MCSIM_HD Real pair_loss(const PortfolioView<Real>& pf, int p, Real log_spot, Real log_other) {
  const Real* t = pf.terms + kTerms * p;
  return t[1] - t[0] * pair_value(static_cast<Instrument>(pf.kind[p]), Real(exp(log_spot)), Real(exp(log_other)), log_spot,
                                  log_other, t + 2);
}

// Rate position p's loss at its factor's level x (legs_value).
template <class Real>
MCSIM_HD Real rate_loss(const PortfolioView<Real>& pf, int p, Real x) {
  const Real* t = pf.terms + kTerms * p;
  const int first = pf.leg_begin[p];
  return t[1] - t[0] * legs_value(pf.legs + static_cast<std::size_t>(kLegTerms) * first, pf.leg_begin[p + 1] - first, x);
}

// sqrt((dof - 2) / W) with W ~ chi-squared(dof): the factor that makes a normal
// vector a unit-variance multivariate Student-t. W = 2 Gamma(dof / 2) by
// Marsaglia-Tsang (shape > 1 since dof > 2), one normal and one uniform a try.
template <class Real>
MCSIM_HD Real student_t_scale(rng::Stream& stream, Real dof) {
  const Real d = dof / Real(2) - Real(1) / Real(3), c = Real(1) / sqrt(Real(9) * d);
  for (;;) {
    const Real x = rng::normals<Real>(stream).z[0];
    const Real u = rng::uniforms<Real>(stream).z[0];
    Real v = Real(1) + c * x;
    if (!(v > Real(0))) continue;
    v = v * v * v;
    if (log(u) < Real(0.5) * x * x + d - d * v + d * log(v)) return sqrt((dof - Real(2)) / (Real(2) * d * v));
  }
}

// A scenario's shocks come in blocks: block k holds the independent normals
// k w .. k w + w - 1 (w a Philox block's normals), drawn from the stream's block k.
// Historical simulation: the scenario's log spots instead, from the history
// (log_spot_at passes them through).
template <class Real>
MCSIM_HD int shock_blocks(const PortfolioView<Real>& pf) {
  constexpr int w = rng::NormalBlock<Real>::size;
  return (pf.assets + w - 1) / w;
}

// Block k of the scenario's shocks into eps[j * stride], from the stream's next
// block (which must be block k).
template <class Real>
MCSIM_HD void draw_shock_block(const PortfolioView<Real>& pf, rng::Stream& stream, int k, Real* eps, int stride) {
  constexpr int w = rng::NormalBlock<Real>::size;
  const int j = k * w;
  if (pf.history) {
    const Real* at = pf.history + stream.subsequence() * static_cast<std::uint64_t>(pf.assets);
    for (int c = 0; c < w && j + c < pf.assets; ++c) eps[(j + c) * stride] = at[j + c];
    return;
  }
  const auto b = rng::normals<Real>(stream);
  MCSIM_UNROLL
  for (int c = 0; c < w; ++c)
    if (j + c < pf.assets) eps[(j + c) * stride] = b.z[c];
}

// The shocks' scale, drawn from the stream's blocks after the shocks: 1 for normal
// shocks and for history.
template <class Real>
MCSIM_HD Real shock_scale(const PortfolioView<Real>& pf, rng::Stream& stream) {
  return !pf.history && pf.dof > Real(0) ? student_t_scale(stream, pf.dof) : Real(1);
}

// Draws all the scenario's shocks into eps[j * stride] and returns their scale.
template <class Real>
MCSIM_HD Real draw_shocks(const PortfolioView<Real>& pf, rng::Stream& stream, Real* eps, int stride) {
  for (int k = 0; k < shock_blocks(pf); ++k) draw_shock_block(pf, stream, k, eps, stride);
  return shock_scale(pf, stream);
}

// Asset i's Cholesky row.
template <class Real>
MCSIM_HD const Real* cholesky_row(const PortfolioView<Real>& pf, int i) {
  return pf.cholesky + static_cast<std::size_t>(i) * (i + 1) / 2;
}

// Asset i's log spot at the horizon from the shocks; `row` is its Cholesky row.
template <class Real>
MCSIM_HD Real log_spot_at(const PortfolioView<Real>& pf, int i, const Real* row, const Real* eps, int stride,
                          Real scale) {
  if (pf.history) return eps[i * stride];
  Real z = 0;
  for (int j = 0; j <= i; ++j) z += row[j] * eps[j * stride];
  return pf.mean_log[i] + pf.vol_h[i] * scale * z;
}

// Assets i0 .. i0 + R - 1's log spots into out, as log_spot_at gives each (the same
// sums in the same order), each shock read once for the R rows: the GPU's log-spot
// kernel is bound by these loads.
template <int R, class Real>
MCSIM_HD void log_spots_at(const PortfolioView<Real>& pf, int i0, const Real* eps, int stride, Real scale, Real (&out)[R]) {
  if (pf.history) {
    MCSIM_UNROLL
    for (int r = 0; r < R; ++r) out[r] = eps[(i0 + r) * stride];
    return;
  }
  Real z[R];
  const Real* row[R];
  MCSIM_UNROLL
  for (int r = 0; r < R; ++r) z[r] = 0, row[r] = cholesky_row(pf, i0 + r);
  for (int j = 0; j <= i0; ++j) {  // the columns every row reaches
    const Real e = eps[j * stride];
    MCSIM_UNROLL
    for (int r = 0; r < R; ++r) z[r] += row[r][j] * e;
  }
  MCSIM_UNROLL
  for (int j = 1; j < R; ++j) {  // row r goes on to column i0 + r
    const Real e = eps[(i0 + j) * stride];
    MCSIM_UNROLL
    for (int r = j; r < R; ++r) z[r] += row[r][i0 + j] * e;
  }
  MCSIM_UNROLL
  for (int r = 0; r < R; ++r) out[r] = pf.mean_log[i0 + r] + pf.vol_h[i0 + r] * scale * z[r];
}

// The scenario's log spots at the horizon, in x[i * stride] (room for `assets`
// reals: a thread's column of shared memory on a GPU). The shocks are drawn there
// and replaced last asset first, since asset i reads the shocks of assets 0..i.
template <class Real>
MCSIM_HD void scenario_log_spots(const PortfolioView<Real>& pf, rng::Stream& stream, Real* x, int stride) {
  const Real scale = draw_shocks(pf, stream, x, stride);
  for (int i = pf.assets - 1; i >= 0; --i)
    x[i * stride] = log_spot_at(pf, i, cholesky_row(pf, i), x, stride, scale);
}

// The scenario's total loss at the log spots x[i * stride]: positions in order.
template <class Real>
MCSIM_HD Real loss_at(const PortfolioView<Real>& pf, const Real* x, int stride) {
  Real loss = 0;
  int p = 0;
  for (int i = 0; i < pf.assets; ++i) {
    const Real log_s = x[i * stride], s = exp(log_s);
    for (; p < pf.asset_end[i]; ++p) loss += position_loss(pf, p, s, log_s);
  }
  for (; p < pf.asset_end[pf.assets]; ++p) loss += pair_loss(pf, p, x[pf.asset_of[p] * stride], x[pf.other_of[p] * stride]);
  for (; p < pf.positions; ++p) loss += rate_loss(pf, p, x[pf.asset_of[p] * stride]);
  return loss;
}

template <class Real>
MCSIM_HD Real scenario_loss(const PortfolioView<Real>& pf, rng::Stream& stream, Real* x, int stride) {
  scenario_log_spots(pf, stream, x, stride);
  return loss_at(pf, x, stride);
}

// Position p's loss at the log spots x[i * stride], in double: what the unit sums add.
template <class Real>
MCSIM_HD double position_loss_at(const PortfolioView<Real>& pf, int p, const Real* x, std::size_t stride) {
  const Real log_spot = x[static_cast<std::size_t>(pf.asset_of[p]) * stride];
  if (pf.leg_begin[p + 1] > pf.leg_begin[p]) return static_cast<double>(rate_loss(pf, p, log_spot));
  if (pf.other_of[p] >= 0)
    return static_cast<double>(pair_loss(pf, p, log_spot, x[static_cast<std::size_t>(pf.other_of[p]) * stride]));
  const Real spot = exp(log_spot);
  return static_cast<double>(position_loss(pf, p, spot, log_spot));
}

// Unit u's loss: its members' losses loss_of(p) (position_loss_at, each computed
// once per scenario) added in double in member order. Units below `positions`
// are the positions themselves, so each is its own loss.
template <class Real, class LossOf>
MCSIM_HD double unit_loss(const PortfolioView<Real>& pf, int u, LossOf&& loss_of) {
  double loss = 0;
  MCSIM_UNROLL4
  for (int m = pf.unit_begin[u]; m < pf.unit_begin[u + 1]; ++m) loss += loss_of(pf.members[m]);
  return loss;
}

}  // namespace mcsim::var
