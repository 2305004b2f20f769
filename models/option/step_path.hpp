// Path-dependent payoffs on a path observed at fixing times t_1..t_n: GBM (equal
// steps, or per-step drift and variance from term structures), exact log steps;
// Heston (equal steps); either with Merton's lognormal jumps (Merton, Bates); or a
// local volatility sigma(t, S), Dupire's from a surface or CEV's sigma S^(beta - 1),
// by log-Euler steps; or GBM whose spot drops by cash dividends, on steps at the
// fixings and the ex-dividend times: the average (arithmetic or geometric, Asian), the running
// extreme (lookback), the spot a forward start's strike is set on, a cliquet's sum
// of bounded returns, and an optional single barrier checked at the fixings or
// continuously, through the Brownian bridge between them.
// Written once for both backends; one thread walks the G paths of a stream group,
// one Philox block per step giving each path its normal, or (Sobol) scrambled Sobol
// points through the Brownian bridge giving it.
// With Greeks (GBM and Heston), each path also scores delta, gamma, vega, rho and
// dividend rho: pathwise where the payoff is Lipschitz in the path (the tangent of
// the log spot, and of the payoff's state, carried along each step), by likelihood
// ratio (the payoff times the score of the path's normals) for digitals and
// discretely watched barriers, whose payoffs jump; gamma is the likelihood ratio of
// the pathwise delta. Heston's variance does not move with the spot or the rates, so
// its log spot's tangents in them are GBM's (1, and the time), and its scores are the
// log spot's own normals over their step's standard deviation given the variance's
// (HestonStep::spot_deviation). Its vega, in the initial volatility sqrt(v0), is
// pathwise: the variance's tangent and the log spot's are carried through each step
// (HestonStep::advance). By likelihood ratio it scores delta and gamma only (a step
// whose variance has reached 0 has no score to weigh the rates or v0 by).
// A local volatility's paths (Dupire's grid or CEV) score delta, gamma, rho and
// dividend rho pathwise with sigma(t, S) held: the log spot's tangents in S_0 and
// the rate are carried through each log-Euler step, whose factor 1 + sigma_x (sqrt(dt) z
// - dt sigma) they share; gamma is the first step's likelihood ratio of the pathwise
// delta, whose weight there (the step's mean and deviation move with S_0) LocalStep
// gives. Their digitals and barriers, whose payoffs jump, are left to bump and revalue.
#pragma once
#include <type_traits>

#include "models/kernel_table.hpp"
#include "models/option/heston_step.hpp"
#include "models/option/jump_step.hpp"
#include "models/option/local_step.hpp"
#include "models/option/payoff.hpp"
#include "models/option/sobol_bridge.hpp"
#include "models/option/step_kinds.hpp"
#include "models/option/step_payoff.hpp"
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

// Copies = 2 adds the antithetic path (-Z) to each path; fixed at compile time so
// the path state stays in registers. WithControl also scores a control variate on
// the same path (the geometric Asian, or the European payoff) and the product of
// the two, from which the estimate is corrected (reduce::control_variate). Sobol
// draws the path from scrambled Sobol points, one scrambling per chunk. Heston
// steps the log spot with stochastic variance (HestonStep), a local volatility
// with the volatility at the path's spot; both are watched at the steps only: the
// Brownian bridge between steps needs GBM's volatility, known in advance.
// Buckets > 0 (GBM with Greeks): also the Greeks in up to Buckets market inputs
// (curve pillars, volatility nodes) in the same pass: pathwise for averages,
// lookbacks, forward starts, cliquets and continuous barriers, by likelihood ratio
// for digitals and discrete barriers. Dupire's paths with Greeks: pathwise in curve
// pillars (the grid held) and in the quotes of the surface the grid is built from.
template <class Real, int Copies, bool WithControl = false, bool Sobol = false, Dynamics D = Dynamics::Gbm,
          bool Greeks = false, int Buckets = 0>
struct StepPath {
  static constexpr bool Heston = D == Dynamics::Heston || D == Dynamics::Bates;
  static constexpr bool Jumping = D == Dynamics::Merton || D == Dynamics::Bates;
  static constexpr bool Local = D == Dynamics::LocalVol || D == Dynamics::Cev;
  static constexpr bool Cash = D == Dynamics::CashGbm;
  // GBM's volatility is known in advance, so a Brownian bridge may watch between steps.
  static constexpr bool kBridged = D == Dynamics::Gbm || D == Dynamics::CashGbm;
  static_assert(!(Sobol && Copies == 2), "Sobol paths have no antithetic copies");
  static_assert(!(D != Dynamics::Gbm && (Sobol || WithControl)), "only GBM paths take Sobol points or a control");
  static_assert(!(Greeks && (Jumping || Cash || Sobol || WithControl)),
                "path Greeks are GBM's, Heston's and a local volatility's, without a control or Sobol points");
  using real_type = Real;
  // Scored per path with Greeks, after the price (OptionModel::path_greeks names them).
  static_assert(Buckets == 0 || (Greeks && (D == Dynamics::Gbm || D == Dynamics::LocalVol)),
                "market inputs' Greeks are GBM's and Dupire's paths'");
  // delta, gamma, vega, rho, dividend rho, then one per market input
  static constexpr int kGreeks = Greeks ? 5 + Buckets : 0;
  // price [, control, price x control] [, Greeks] [, the first path of each antithetic pair alone]
  static constexpr int kOutputs = (WithControl ? 3 : 1) + kGreeks + (Copies == 2 ? 1 : 0);
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  // CUDA launch bound: blocks of 256 threads resident per SM, which caps registers
  // (64 at 4, 128 at 2). Plain float paths fit in 64 without spilling; double paths
  // with antithetic copies or a control need more than 128.
  static constexpr int kMinBlocksPerSM = sizeof(Real) == 4 && Copies == 1 && !WithControl && !Sobol && !Heston && !Jumping && !Greeks ? 4
                                         : sizeof(Real) == 8 && (Copies == 2 || WithControl || Greeks) ? 1
                                                                                              : 2;

  StepPayoff payoff;
  int steps, fixings;  // fixings: the steps that are fixing dates (all of them, but with cash dividends)
  Real log_spot, strike, sign, discount;  // sign: +1 call, -1 put
  Real cash;                              // a digital's payout
  bool equal_steps;
  Real drift_dt, vol_sqrt_dt;  // GBM on equal steps: (r - q - sigma^2/2) dt, sigma sqrt(dt)
  // GBM otherwise: per step its drift and its volatility sqrt(variance). A local
  // volatility: per step the carry log(F(t_s) / F(t_{s-1})), dt / 2, sqrt(dt) and
  // the grid's origin in cells, (log F(t_{s-1}) + its first log-moneyness) / dk + 1/2.
  // Cash dividends: per step its drift, volatility, the cash paid at its end and
  // 1 if its end is a fixing, else 0. GBM with Greeks: after the drift and volatility,
  // the step's length and its volatility's tangent in a shift of every volatility node.
  KernelTable<Real> step_data;
  static constexpr bool kGreekRows = D == Dynamics::Gbm && Greeks;
  static constexpr int kStepFields = Local || Cash || kGreekRows ? 4 : 2;
  KernelTable<Real> local_vol;  // Dupire: steps x lv_nodes cells (market::cell_rows)
  int lv_nodes;
  LocalStep<Real, D> local;  // a local volatility's sigma(t, S) and its step's tangents
  // Market inputs: per step s, its entries run from bucket_data[s] to bucket_data[s + 1]
  // (steps + 1 offsets first), each (input, a, c) after the offsets: the step moves the
  // log spot's tangent in that input by a + c z; Dupire's by a, or for c >= 0 by dx'/d
  // sigma times row c of bucket_rows at the path's spot (that input's d sigma, as cells
  // like local_vol's). bucket_discount: d(-log D(T)) / d input.
  KernelTable<Real> bucket_data, bucket_rows;
  Real bucket_discount[Buckets > 0 ? Buckets : 1];
  Knock knock;
  bool continuous;  // barrier and extremes monitored between fixings too
  Real log_barrier, rebate_pv;  // rebate discounted from expiry
  int start_step;                // forward start
  Real moneyness;
  Real local_floor, local_cap, global_floor, global_cap;  // cliquet (+-huge for none)
  ControlKind control;
  // Greeks: 1 / S_0, the flat volatility's inverse (0 under a term structure, whose
  // steps carry their length and volatility tangent instead) and the maturity the discount is for.
  Real inv_spot, inv_vol, maturity;
  // A fixed-strike lookback's slope on a path whose extreme is still the spot: the
  // payoff's, or half of it when the strike is the spot, where the price itself
  // has a kink in S_0 (its mean one-sided slope: what a central bump measures).
  Real start_slope;
  struct Unused {};
  std::conditional_t<Sobol, BridgePlan<Real>, Unused> plan;
  std::conditional_t<Heston, HestonStep<Real>, Unused> heston;
  std::conditional_t<Jumping, JumpStep<Real>, Unused> jumps;

  // Sobol: each chunk is one scrambling, an estimate independent of the others, so
  // the driver also tallies each chunk's values (chunk_values) as one sample.
  static constexpr bool kReplicates = Sobol;
  // A chunk's sample from its means: the means, but for the product of price and
  // control, the product of their means (so the chunk samples' covariance is there).
  static void chunk_values(const double* mean, double* value) {
    for (int o = 0; o < kOutputs; ++o) value[o] = mean[o];
    if constexpr (WithControl) value[2] = mean[0] * mean[1];
  }

  // The tables a device needs a copy of, for the executor to replace by its own.
  template <class F>
  void for_each_table(F&& f) {
    f(step_data);
    f(local_vol);
    f(bucket_data);
    f(bucket_rows);
  }

  MCSIM_HD Real heston_v0() const {
    if constexpr (Heston) return heston.v0;
    return Real(0);
  }

  // Uses the running maximum (else the minimum) of the path.
  MCSIM_HD bool wants_max() const {
    return (payoff == StepPayoff::LookbackFixed) == (sign > Real(0));
  }

  // One stream group, `lanes` (<= kGroup) paths: the GPU, and a chunk's odd groups.
  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    rng::OneStream source{stream};
    if constexpr (Sobol) {
      SobolBridge<Real, kGroup, 1, rng::OneStream> bridge(plan, source, stream.subsequence());
      dispatch<1>(bridge, &lanes, &acc);
    } else {
      dispatch<1>(source, &lanes, &acc);
    }
  }

  // W consecutive full groups from `first` stepped together, so the CPU backend's
  // loop over them vectorises; the same paths, bit for bit, as W calls of simulate().
  static constexpr bool kBatched = true;
  template <int W, class Acc>
  MCSIM_HD void simulate_batch(std::uint64_t seed, std::uint64_t first, Acc* acc) const {
    rng::GroupBatch source{seed, first, 0};
    int lanes[W];
    for (int j = 0; j < W; ++j) lanes[j] = kGroup;
    if constexpr (Sobol) {
      SobolBridge<Real, kGroup, W, rng::GroupBatch> bridge(plan, source, first);
      dispatch<W>(bridge, lanes, acc);
    } else {
      dispatch<W>(source, lanes, acc);
    }
  }

 private:
  enum class Monitor { None, Discrete, Continuous };

  // Picks the step loop compiled for this payoff and barrier monitoring, so no
  // per-step test is spent on features the job does not have.
  template <int W, class Source, class Acc>
  MCSIM_HD void dispatch(Source& source, const int* lanes, Acc* acc) const {
    switch (payoff) {
      case StepPayoff::European: return with_barrier<StepPayoff::European, W>(source, lanes, acc);
      case StepPayoff::Digital: return with_barrier<StepPayoff::Digital, W>(source, lanes, acc);
      case StepPayoff::ArithmeticAverage: return with_barrier<StepPayoff::ArithmeticAverage, W>(source, lanes, acc);
      case StepPayoff::GeometricAverage: return with_barrier<StepPayoff::GeometricAverage, W>(source, lanes, acc);
      case StepPayoff::LookbackFixed: return with_barrier<StepPayoff::LookbackFixed, W>(source, lanes, acc);
      case StepPayoff::LookbackFloating: return with_barrier<StepPayoff::LookbackFloating, W>(source, lanes, acc);
      case StepPayoff::ForwardStart:
        if constexpr (!Local) walk<StepPayoff::ForwardStart, Monitor::None, false, W>(source, lanes, acc);
        return;
      case StepPayoff::Cliquet:
        if constexpr (!Local) walk<StepPayoff::Cliquet, Monitor::None, false, W>(source, lanes, acc);
        return;
    }
  }

  // A local volatility prices no forward start or cliquet, and scores path Greeks only
  // of payoffs that do not jump (OptionModel::path_greeks), so its kernels compile
  // only those walks; make_step_path refuses the others.
  template <StepPayoff P, int W, class Source, class Acc>
  MCSIM_HD void with_barrier(Source& source, const int* lanes, Acc* acc) const {
    constexpr bool kLookback = P == StepPayoff::LookbackFixed || P == StepPayoff::LookbackFloating;
    if constexpr (Local && Greeks) {
      if constexpr (P != StepPayoff::Digital) walk<P, Monitor::None, false, W>(source, lanes, acc);
    } else if constexpr (kLookback) {  // lookbacks carry no barrier; `continuous` is for their extreme
      if constexpr (kBridged)
        if (continuous) return walk<P, Monitor::None, true, W>(source, lanes, acc);
      return walk<P, Monitor::None, false, W>(source, lanes, acc);
    } else {
      if (knock == Knock::None) return walk<P, Monitor::None, false, W>(source, lanes, acc);
      if constexpr (kBridged)
        if (continuous) return walk<P, Monitor::Continuous, false, W>(source, lanes, acc);
      walk<P, Monitor::Discrete, false, W>(source, lanes, acc);
    }
  }

  // M: how the barrier is watched; BridgeExtreme: a lookback's extreme includes the
  // Brownian bridge between fixings. State arrays are [path][group], the group
  // innermost, so the loops over groups are unit-stride. Sides are signs, not
  // branches: `side` makes the barrier's side the low one, `turn` the extreme's.
  template <StepPayoff P, Monitor M, bool BridgeExtreme, int W, class Source, class Acc>
  MCSIM_HD void walk(Source& source, const int* lanes, Acc* acc) const {
    constexpr int G = kGroup, N = Copies * G;  // copy c of lane l is path c * G + l
    constexpr bool kLookback = P == StepPayoff::LookbackFixed || P == StepPayoff::LookbackFloating;
    const bool down = knock == Knock::DownOut || knock == Knock::DownIn;
    const Real side = down ? Real(1) : Real(-1);          // side * log spot stays above side * log barrier
    const Real turn = wants_max() ? Real(1) : Real(-1);   // turn * extreme is a running maximum
    // Per path: log spot; average sum; turn * log extreme (lookback); for a discrete
    // barrier the least side * log spot, for a continuous one the survival probability.
    Real x[N][W], sum[N][W], extreme[N][W], live[N][W];
    Real v[Heston ? N : 1][W];  // Heston's variance
    for (int i = 0; i < (Heston ? N : 1); ++i)
      for (int j = 0; j < W; ++j) v[i][j] = Heston ? heston_v0() : Real(0);
    Real log_sum[WithControl ? N : 1][W];  // the geometric control of an arithmetic average
    for (int i = 0; i < (WithControl ? N : 1); ++i)
      for (int j = 0; j < W; ++j) log_sum[i][j] = Real(0);
    // A cliquet's log spot at the last fixing, when steps between fixings are not fixings.
    constexpr bool kAnchor = Cash && P == StepPayoff::Cliquet;
    Real anchor[kAnchor ? N : 1][W];
    for (int i = 0; i < (kAnchor ? N : 1); ++i)
      for (int j = 0; j < W; ++j) anchor[i][j] = log_spot;
    // The spot is on the live side, so a discrete barrier's extreme may start from it.
    const Real live0 = M == Monitor::Discrete ? side * log_spot : Real(1);
    constexpr Real kLeastSpot = Real(1e-30);  // a spot a cash dividend leaves, positive for the log
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < W; ++j) x[i][j] = log_spot, sum[i][j] = Real(0), extreme[i][j] = turn * log_spot, live[i][j] = live0;
    // Greeks: likelihood ratio for payoffs that jump, else pathwise; gamma where S_0
    // enters only through the path's normals (not a lookback's extreme or a
    // continuous barrier's first bridge, which start at it; those score 0, and
    // OptionModel::path_greeks leaves their gamma to bump and revalue).
    constexpr bool kJumps = P == StepPayoff::Digital || M == Monitor::Discrete;
    constexpr bool kLR = Greeks && !Local && kJumps;
    constexpr bool kPW = Greeks && !kJumps;  // a local volatility's jumping payoffs score nothing
    constexpr bool kPathGamma = !kLookback && M != Monitor::Continuous;
    constexpr int NG = Greeks ? N : 1, NP = kPW ? N : 1, NL = kLR ? N : 1, NC = kPW && M == Monitor::Continuous ? N : 1;
    // Per path: the first step's normal. Pathwise: the log spot's tangent in the
    // volatility (in S_0 it is 1 / S_0, in the rate its time: neither needs a state),
    // the payoff state's tangents in the volatility and the rate, and a continuous
    // barrier's survival tangents in a shift of all log spots, the volatility and the
    // rate. Likelihood ratio: the sums over steps of the scores in the volatility and rate.
    // Heston: the first step's standard deviation, per path. A local volatility: the
    // log spot's tangents in a shift of log S_0 (su) and in the rate (sr), the payoff
    // state's in that shift (pu), and the first step's gamma weight (LocalStep::tangents).
    Real first_z[NG][W], wv[NP][W], pv[NP][W], pt[NP][W], lu[NC][W], lv[NC][W], lt[NC][W], sv[NL][W], st[NL][W];
    Real first_sd[Heston && Greeks ? N : 1][W];
    // Heston, pathwise: the variance's tangent in sqrt(v0) (wv is the log spot's).
    constexpr int NH = Heston && kPW ? N : 1;
    Real hv[NH][W];
    for (auto& row : hv)
      for (auto& e : row) e = Heston && kPW ? Real(2) * sqrt(heston_v0()) : Real(0);
    constexpr int NT = Local && kPW ? N : 1;
    Real su[NT][W], sr[NT][W], pu[NT][W], gamma_weight[NT][W];
    const auto zero = [](auto& a) {
      for (auto& row : a)
        for (auto& e : row) e = Real(0);
    };
    zero(first_z), zero(wv), zero(pv), zero(pt), zero(lu), zero(lv), zero(lt), zero(sv), zero(st), zero(first_sd);
    zero(sr), zero(pu), zero(gamma_weight);
    // Market inputs, per input b and path: X_b, the log spot's tangent in b, and Y_b the
    // payoff state's. An average's Y_b is the sum over steps of the step's tangent
    // times the fixings' levels before it (their count, for a geometric average), so
    // its tangent is (sum X_b - Y_b) / n: a step's tangent reaches every fixing from
    // its own on. A lookback's is X_b where its extreme was reached, a forward start's
    // X_b on its strike date, a cliquet's the sum of its returns' step tangents. A
    // continuous barrier's survival has its own tangent in each (sk). Payoffs that
    // jump weigh the value by each input's score, summed over steps (sb).
    constexpr bool kAverage = P == StepPayoff::ArithmeticAverage || P == StepPayoff::GeometricAverage;
    constexpr bool kBuckets = Buckets > 0 && kPW &&
                              (kAverage || kLookback || P == StepPayoff::European || P == StepPayoff::ForwardStart ||
                               P == StepPayoff::Cliquet);
    constexpr bool kLRBuckets = Buckets > 0 && kLR;
    constexpr int NB = Buckets > 0 ? Buckets : 1, NX = kBuckets ? N : 1;
    constexpr int NK = kBuckets && M == Monitor::Continuous ? N : 1, NS = kLRBuckets ? N : 1;
    // The inputs innermost: a step's update of every input's tangent is one run of memory.
    Real bx[NX][W][NB], by[NX][W][NB], sk[NK][W][NB], sb[NS][W][NB];
    for (int i = 0; i < NX; ++i) zero(bx[i]), zero(by[i]);
    for (int i = 0; i < NK; ++i) zero(sk[i]);
    for (int i = 0; i < NS; ++i) zero(sb[i]);
    for (auto& row : su)
      for (auto& e : row) e = Real(1);
    if constexpr (kLookback)  // the extreme starts at the spot
      for (auto& row : pu)
        for (auto& e : row) e = Real(1);
    Real clock = Real(0), first_vol = Real(1);  // the time at the step's end; the first step's volatility

    for (int step = 0; step < steps; ++step) {
      const std::uint64_t at = static_cast<std::uint64_t>(step) * kStepFields;
      const Real drift = Local || !equal_steps ? step_data[at] : drift_dt;
      const Real vol = Local ? step_data[at + 2] : equal_steps ? vol_sqrt_dt : step_data[at + 1];
      const Real half_dt = Local ? step_data[at + 1] : Real(0);
      const Real origin = D == Dynamics::LocalVol ? step_data[at + 3] : Real(0);
      const Real* lv_row = D == Dynamics::LocalVol ? local_vol.data + static_cast<std::uint64_t>(step) * 2 * lv_nodes : nullptr;
      const Real paid = Cash ? step_data[at + 2] : Real(0);  // the cash dividend at the step's end
      // Whether the step's end is a fixing; the same for every path, so no divergence.
      const bool fixing = !Cash || step_data[at + 3] != Real(0);
      (void)half_dt, (void)origin, (void)lv_row, (void)paid;
      // Greeks: the step's length, and the tangents in the flat volatility of vol
      // (sigma sqrt(dt), so vol / sigma) and of the drift (-vol times that); a table's
      // steps carry the first two (a term structure has no one sigma).
      Real step_time = vol * vol * inv_vol * inv_vol, vega_b = vol * inv_vol;
      if constexpr (Heston) step_time = heston.dt;
      if constexpr (Local) step_time = Real(2) * half_dt;
      if constexpr (kGreekRows)
        if (!equal_steps) step_time = step_data[at + 2], vega_b = step_data[at + 3];
      const Real clock_before = clock;
      const Real vega_a = -vol * vega_b;
      int entry = 0, entry_end = 0;  // this step's market-input entries
      if constexpr (kBuckets || kLRBuckets)
        entry = static_cast<int>(bucket_data[static_cast<std::uint64_t>(step)]),
        entry_end = static_cast<int>(bucket_data[static_cast<std::uint64_t>(step) + 1]);
      (void)entry, (void)entry_end;
      // f(b, a, c) for each of this step's market-input entries: given the step's
      // normal z the log spot's tangent in input b moves by a + c z (c: the step's
      // deviation's tangent).
      const auto each_entry = [&](auto&& f) {
        const std::uint64_t entries = static_cast<std::uint64_t>(steps) + 1;
        for (int e = entry; e < entry_end; ++e) {
          const std::uint64_t at_e = entries + 3 * static_cast<std::uint64_t>(e);
          f(static_cast<int>(bucket_data[at_e]), bucket_data[at_e + 1], bucket_data[at_e + 2]);
        }
      };
      (void)each_entry;
      (void)step_time, (void)clock_before, (void)vega_a;
      if constexpr (Greeks) {
        clock += step_time;
        if (step == 0) first_vol = vol;
      }
      // Each draw fills row l, column j with lane l of group j's block for this step.
      const auto draw = [&](Real (*out)[W], bool uniform) {
        for (int j = 0; j < W; ++j) {
          const auto block = uniform ? source.template uniforms<Real>(j) : source.template normals<Real>(j);
          MCSIM_UNROLL
          for (int l = 0; l < G; ++l) out[l][j] = block.z[l];
        }
        source.next();
      };
      // The normal of the step, Heston's second one (the log spot's own), the
      // uniform of the bridge's extreme between fixings, and the jumps' uniform
      // (their number) and normal (their sizes).
      Real z[G][W], z2[Heston ? G : 1][W], u[BridgeExtreme ? G : 1][W];
      Real jump_u[Jumping ? G : 1][W], jump_z[Jumping ? G : 1][W];
      draw(z, false);
      if constexpr (Heston) draw(z2, false);
      if constexpr (BridgeExtreme) draw(u, true);
      if constexpr (Jumping) {
        draw(jump_u, true);
        draw(jump_z, false);
      }
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) {
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const int i = c * G + lane;
          for (int j = 0; j < W; ++j) {
            const Real before = x[i][j];
            Real sd = Real(0);  // Heston: the log spot's step deviation given the variance's
            Real su_before = Real(1), sr_before = Real(0);  // a local volatility's tangents at the step's start
            Real w_before = Real(0);  // the log spot's tangent in the volatility at the step's start
            if constexpr (Heston) {
              const Real v_before = v[i][j], zv = c ? -z[lane][j] : z[lane][j], zs = c ? -z2[lane][j] : z2[lane][j];
              if constexpr (kPW) {
                w_before = wv[i][j];
                heston.advance(x[i][j], v[i][j], zv, zs, &wv[i][j], &hv[i][j]);
              } else {
                heston.advance(x[i][j], v[i][j], zv, zs);
              }
              if constexpr (Greeks) sd = heston.spot_deviation(v_before, v[i][j]);
            }
            else if constexpr (Local) {
              const Real zz = c ? -z[lane][j] : z[lane][j];
              Real slope = Real(0);
              const Real sigma = local.sigma(lv_row, origin, before, kPW ? &slope : nullptr);
              x[i][j] += drift + sigma * (vol * zz - half_dt * sigma);
              if constexpr (kPW) {
                const auto t = local.tangents(sigma, slope, zz, vol, step_time, step == 0);
                if (step == 0) gamma_weight[i][j] = t.gamma_weight;
                su_before = su[i][j], sr_before = sr[i][j];
                su[i][j] *= t.factor;
                sr[i][j] = sr[i][j] * t.factor + step_time;
                if constexpr (kBuckets) {
                  // X_b' = X_b dx'/dx + the carry's move a + dx'/dsigma d sigma / d b at x.
                  const Real dsigma = vol * zz - step_time * sigma;
                  for (int b = 0; b < Buckets; ++b) bx[i][j][b] *= t.factor;
                  each_entry([&](int b, Real ea, Real row) {
                    Real move = ea;
                    if (row >= Real(0))
                      move += dsigma * local.sigma(bucket_rows.data + static_cast<std::uint64_t>(row) * 2 * lv_nodes, origin, before);
                    bx[i][j][b] += move;
                  });
                }
              }
            } else
              x[i][j] += drift + vol * (c ? -z[lane][j] : z[lane][j]);
            if constexpr (Jumping) x[i][j] += jumps.move(jump_u[lane][j], c ? -jump_z[lane][j] : jump_z[lane][j]);
            (void)sd, (void)su_before, (void)sr_before;
            if constexpr (Greeks) {
              if constexpr (Heston) {  // the log spot's own normal
                if (step == 0) first_z[i][j] = c ? -z2[lane][j] : z2[lane][j], first_sd[i][j] = sd;
              } else if constexpr (!Local) {
                const Real zz = c ? -z[lane][j] : z[lane][j];
                if (step == 0) first_z[i][j] = zz;
                if constexpr (kPW) w_before = wv[i][j], wv[i][j] += vega_a + vega_b * zz;
                if constexpr (kBuckets) {
                  const Real levels_before = P == StepPayoff::ArithmeticAverage ? sum[i][j] : static_cast<Real>(step);
                  each_entry([&](int b, Real ea, Real ec) {
                    const Real t = ea + ec * zz;
                    bx[i][j][b] += t;
                    if constexpr (kAverage) by[i][j][b] += t * levels_before;
                  });
                }
                if constexpr (kLRBuckets)  // the step's normal's score in the input: its mean moves by a, its deviation by c
                  each_entry([&](int b, Real ea, Real ec) { sb[i][j][b] += (zz * ea + (zz * zz - Real(1)) * ec) / vol; });
                if constexpr (kLR) sv[i][j] += zz * zz - Real(1) - zz * vol, st[i][j] += zz * vol;
              }
            }
            // The log spot the diffusion reached, before a cash dividend is paid.
            const Real moved = x[i][j];
            if constexpr (Cash)
              if (paid > Real(0)) {
                const Real left = fast_exp(moved) - paid;  // floored: a spot below the dividend pays what it has
                x[i][j] = fast_log(left > kLeastSpot ? left : kLeastSpot);
              }
            const Real now = x[i][j];
            if constexpr (M == Monitor::Continuous) {
              // Clear of the barrier at both fixings, the bridge between them stays
              // clear with probability 1 - exp(-2ab / var); a dividend's drop is checked after it.
              const Real a = before - log_barrier, b = moved - log_barrier;
              const bool crossed = side * b <= Real(0) || (Cash && side * (now - log_barrier) <= Real(0));
              const Real e = fast_exp(Real(-2) * a * b / (vol * vol));
              const Real f = crossed ? Real(0) : Real(1) - e;
              if constexpr (kPW) {
                // live *= f by the product rule; f's tangent is 2 e (a' b + a b' - 2 a b vol' / vol) / vol^2.
                const Real g = crossed ? Real(0) : Real(2) * e / (vol * vol), l = live[i][j];
                lu[i][j] = lu[i][j] * f + l * g * (a + b);
                lv[i][j] = lv[i][j] * f + l * g * (w_before * b + a * wv[i][j] - Real(2) * a * b * inv_vol);
                lt[i][j] = lt[i][j] * f + l * g * (clock_before * b + a * clock);
              }
              if constexpr (kBuckets && M == Monitor::Continuous) {
                // In input k the step's end moves by X_k, its start by X_k less this
                // step's move t, and vol by c: the tangent is X_k (a + b) - t b - 2 a b c / vol.
                const Real l = live[i][j], g = crossed ? Real(0) : Real(2) * e / (vol * vol);
                for (int k = 0; k < Buckets; ++k) sk[i][j][k] = sk[i][j][k] * f + l * g * bx[i][j][k] * (a + b);
                const Real zz = c ? -z[lane][j] : z[lane][j];
                each_entry([&](int k, Real ea, Real ec) {
                  sk[i][j][k] -= l * g * ((ea + ec * zz) * b + Real(2) * a * b * ec / vol);
                });
              }
              live[i][j] *= f;
            }
            if constexpr (kLookback && BridgeExtreme) {
              // Extreme of the Brownian bridge from `before` to `moved` over the step,
              // and the spot after a dividend.
              const Real d = moved - before, log_u = fast_log(u[lane][j]);
              const Real spread = sqrt(d * d - Real(2) * vol * vol * log_u);
              Real reach = Real(0.5) * (turn * (before + moved) + spread);
              if constexpr (Cash) reach = turn * now > reach ? turn * now : reach;
              if constexpr (kPW)
                if (reach > extreme[i][j]) {  // the log extreme's tangents, through d and vol
                  const Real w = wv[i][j];
                  pv[i][j] = Real(0.5) * (w_before + w + turn * (d * (w - w_before) - Real(2) * vol * vol * inv_vol * log_u) / spread);
                  pt[i][j] = Real(0.5) * (clock_before + clock + turn * d * step_time / spread);
                  if constexpr (kBuckets) {  // likewise in each input: X_k at the step's end, less half its move t
                    for (int k = 0; k < Buckets; ++k) by[i][j][k] = bx[i][j][k];
                    const Real zz = c ? -z[lane][j] : z[lane][j];
                    each_entry([&](int k, Real ea, Real ec) {
                      const Real t = ea + ec * zz;
                      by[i][j][k] += Real(0.5) * (turn * (d * t - Real(2) * vol * ec * log_u) / spread - t);
                    });
                  }
                }
              extreme[i][j] = reach > extreme[i][j] ? reach : extreme[i][j];
            }
            if (!fixing) continue;
            // Pathwise, each state's tangents beside it: in the volatility (pv), the rate
            // (pt) and, for a local volatility, a shift of log S_0 (pu; GBM's is the state's
            // own level). The log spot's tangent in the rate is its time under GBM.
            Real rate_tangent = clock, spot_tangent = Real(1);
            if constexpr (Local && kPW) rate_tangent = sr[i][j], spot_tangent = su[i][j];
            (void)rate_tangent, (void)spot_tangent;
            if constexpr (P == StepPayoff::ArithmeticAverage) {
              const Real level = fast_exp(now);
              sum[i][j] += level;
              if constexpr (kPW) pv[i][j] += level * wv[i][j], pt[i][j] += level * rate_tangent;
              if constexpr (Local && kPW) pu[i][j] += level * spot_tangent;
              if constexpr (Local && kBuckets)  // like pv: each level times its tangent
                for (int b = 0; b < Buckets; ++b) by[i][j][b] += level * bx[i][j][b];
            }
            if constexpr (WithControl && P == StepPayoff::ArithmeticAverage) log_sum[i][j] += now;
            if constexpr (P == StepPayoff::GeometricAverage) {
              sum[i][j] += now;
              if constexpr (kPW) pv[i][j] += wv[i][j], pt[i][j] += rate_tangent;
              if constexpr (Local && kPW) pu[i][j] += spot_tangent;
              if constexpr (Local && kBuckets)
                for (int b = 0; b < Buckets; ++b) by[i][j][b] += bx[i][j][b];
            }
            if constexpr (P == StepPayoff::ForwardStart) {  // the log spot the strike is set on
              sum[i][j] = step == start_step ? now : sum[i][j];
              if constexpr (kPW)
                if (step == start_step) {
                  pv[i][j] = wv[i][j], pt[i][j] = rate_tangent;
                  if constexpr (Local) pu[i][j] = spot_tangent;
                  if constexpr (kBuckets)
                    for (int b = 0; b < Buckets; ++b) by[i][j][b] = bx[i][j][b];
                }
            }
            if constexpr (P == StepPayoff::Cliquet) {  // the return since the last fixing
              Real from = before;
              if constexpr (kAnchor) from = anchor[i][j], anchor[i][j] = now;
              const Real growth = fast_exp(now - from), r = growth - Real(1);
              sum[i][j] += r < local_floor ? local_floor : r > local_cap ? local_cap : r;
              if constexpr (kPW) {  // a return within its bounds moves with the path
                const Real k = r < local_floor || r > local_cap ? Real(0) : growth;
                if constexpr (Local) {
                  pu[i][j] += k * (spot_tangent - su_before), pt[i][j] += k * (rate_tangent - sr_before);
                } else {
                  pv[i][j] += k * (wv[i][j] - w_before), pt[i][j] += k * step_time;
                }
                if constexpr (kBuckets) {
                  const Real zz = c ? -z[lane][j] : z[lane][j];
                  each_entry([&](int b, Real ea, Real ec) { by[i][j][b] += k * (ea + ec * zz); });
                }
              }
            }
            if constexpr (kLookback && !BridgeExtreme) {
              const Real reach = turn * now;
              if constexpr (kPW)
                if (reach > extreme[i][j]) {
                  pv[i][j] = wv[i][j], pt[i][j] = rate_tangent;
                  if constexpr (Local) pu[i][j] = spot_tangent;
                  if constexpr (kBuckets)
                    for (int b = 0; b < Buckets; ++b) by[i][j][b] = bx[i][j][b];
                }
              extreme[i][j] = reach > extreme[i][j] ? reach : extreme[i][j];
            }
            if constexpr (M == Monitor::Discrete) {
              // Only the extreme on the barrier's side matters; checked at the end.
              const Real low = side * now;
              live[i][j] = low < live[i][j] ? low : live[i][j];
            }
          }
        }
      }
    }

    const bool out = knock == Knock::DownOut || knock == Knock::UpOut;
    const Real n = static_cast<Real>(fixings);
    constexpr int NE = kBuckets ? Buckets : 1;
    for (int j = 0; j < W; ++j)
      for (int lane = 0; lane < lanes[j]; ++lane) {
        Real total = Real(0), control_total = Real(0), first = Real(0);
        Real greek[Greeks ? kGreeks : 1] = {};
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const int i = c * G + lane;
          Real value = payoff_value<P>(*this, x[i][j], sum[i][j], extreme[i][j], n, turn);
          // Pathwise, the value's tangents (step_payoff.hpp): GBM's log spots move with
          // log S_0 by 1 and with the rate by their time, a local volatility's by their
          // own tangents (the final one's su, sr).
          ValueTangents<Real, NE> tangents{Real(0), Real(0), Real(0), {}};
          if constexpr (kPW) {
            PathEnd<Real, NE> end{x[i][j], sum[i][j], extreme[i][j], Real(1), Real(0), wv[i][j], pv[i][j], clock, pt[i][j], {}, {}};
            if constexpr (Local) end.u = su[i][j], end.r = sr[i][j], end.pu = pu[i][j];
            if constexpr (kBuckets)
              for (int b = 0; b < Buckets; ++b) end.bx[b] = bx[i][j][b], end.by[b] = by[i][j][b];
            tangents = value_tangents<P, Local, kBuckets>(*this, end, n, turn);
          }
          Real du = tangents.du, dv = tangents.dv, dt = tangents.dt;
          auto& bucket = tangents.bucket;
          if constexpr (M != Monitor::None) {
            Real survive = live[i][j];
            if constexpr (M == Monitor::Discrete) survive = live[i][j] > side * log_barrier ? Real(1) : Real(0);
            if constexpr (kPW) {  // continuous: the survival's tangents weigh the gap to the rebate
              const Real keep = out ? survive : Real(1) - survive, gap = out ? value - rebate_pv : rebate_pv - value;
              du = keep * du + lu[i][j] * gap, dv = keep * dv + lv[i][j] * gap, dt = keep * dt + lt[i][j] * gap;
              if constexpr (kBuckets)
                for (int b = 0; b < Buckets; ++b) bucket[b] = keep * bucket[b] + sk[i][j][b] * gap;
            }
            value = out ? survive * value + (Real(1) - survive) * rebate_pv
                        : (Real(1) - survive) * value + survive * rebate_pv;
          }
          if constexpr (Greeks) {
            Real sd = first_vol;  // of the first step's log spot
            if constexpr (Heston) sd = first_sd[i][j];
            const Real zn = first_z[i][j] / sd;  // S_0's score is zn / S_0
            if constexpr (kPW) {
              const Real delta = du * inv_spot;
              greek[0] += delta;
              if constexpr (kPathGamma && Local) greek[1] += delta * gamma_weight[i][j] * inv_spot;
              if constexpr (kPathGamma && !Local) greek[1] += delta * (zn - Real(1)) * inv_spot;
              greek[2] += dv, greek[3] += dt - maturity * value, greek[4] -= dt;
              if constexpr (kBuckets)  // each input's tangent of the value, and of the discount
                for (int b = 0; b < Buckets; ++b) greek[5 + b] += bucket[b] - bucket_discount[b] * value;
            } else if constexpr (kLR) {
              const Real rate_score = st[i][j] * inv_vol * inv_vol;
              greek[0] += value * zn * inv_spot;
              greek[1] += value * (zn * zn - Real(1) / (sd * sd) - zn) * inv_spot * inv_spot;
              greek[2] += value * sv[i][j] * inv_vol;
              greek[3] += value * (rate_score - maturity), greek[4] -= value * rate_score;
              if constexpr (kLRBuckets)
                for (int b = 0; b < Buckets; ++b) greek[5 + b] += value * sb[i][j][b] - bucket_discount[b] * value;
            }
          }
          total += value;
          if (c == 0) first = value;
          if constexpr (WithControl) {  // the vanilla on the control's level
            const Real level = control == ControlKind::GeometricAsian ? fast_exp(log_sum[i][j] / n) : fast_exp(x[i][j]);
            control_total += vanilla_payoff(level, strike, sign, discount);
          }
        }
        const Real y = total / static_cast<Real>(Copies);
        acc[j].add(0, y);
        if constexpr (Greeks)
          for (int g = 0; g < kGreeks; ++g) acc[j].add(1 + g, greek[g] / static_cast<Real>(Copies));
        if constexpr (WithControl) {
          const Real c = control_total / static_cast<Real>(Copies);
          acc[j].add(1, c);
          acc[j].add(2, y * c);
        }
        if constexpr (Copies == 2) acc[j].add(kOutputs - 1, first);
      }
  }
};

}  // namespace mcsim::option
