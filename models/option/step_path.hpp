// Path-dependent payoffs on a GBM path observed at fixing times t_1..t_n (equal
// steps, or given times), exact log steps: the average (arithmetic or geometric,
// Asian), the running extreme (lookback), and an optional single barrier checked
// at the fixings or continuously, through the Brownian bridge between them.
// Written once for both backends; one thread walks the G paths of a stream group,
// one Philox block per step giving each path its normal.
#pragma once
#include "rng/hd.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

enum class StepPayoff : int { European, ArithmeticAverage, GeometricAverage, LookbackFixed, LookbackFloating };
enum class Knock : int { None, DownOut, UpOut, DownIn, UpIn };

enum class ControlKind : int { GeometricAsian, European };

// Copies = 2 adds the antithetic path (-Z) to each path; fixed at compile time so
// the path state stays in registers. WithControl also scores a control variate on
// the same path (the geometric Asian, or the European payoff) and the product of
// the two, from which the estimate is corrected (reduce::control_variate).
template <class Real, int Copies, bool WithControl = false>
struct StepPath {
  using real_type = Real;
  static constexpr int kOutputs = WithControl ? 3 : 1;  // price [, control, price x control]
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMaxTimes = 256;  // given fixing times; equal steps have no limit
  // CUDA launch bound: blocks of 256 threads resident per SM, which caps registers
  // (64 at 4, 128 at 2). Plain float paths fit in 64 without spilling; antithetic
  // double pairs with a control need more than 128.
  static constexpr int kMinBlocksPerSM = sizeof(Real) == 4 && Copies == 1 && !WithControl ? 4
                                         : sizeof(Real) == 8 && Copies == 2 && WithControl ? 1
                                                                                          : 2;

  StepPayoff payoff;
  int steps;
  Real log_spot, strike, sign, discount;  // sign: +1 call, -1 put
  bool equal_steps;
  Real drift_dt, vol_sqrt_dt;                 // equal steps: (r - q - sigma^2/2) dt, sigma sqrt(dt)
  Real drift_at[kMaxTimes], vol_at[kMaxTimes];  // given times, per step
  Knock knock;
  bool continuous;  // barrier and extremes monitored between fixings too
  Real log_barrier, rebate_pv;  // rebate discounted from expiry
  ControlKind control;

  // Uses the running maximum (else the minimum) of the path.
  MCSIM_HD bool wants_max() const {
    return (payoff == StepPayoff::LookbackFixed) == (sign > Real(0));
  }

  // Picks the step loop compiled for this payoff and barrier monitoring, so no
  // per-step test is spent on features the job does not have.
  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    switch (payoff) {
      case StepPayoff::European: return with_barrier<StepPayoff::European>(stream, lanes, acc);
      case StepPayoff::ArithmeticAverage: return with_barrier<StepPayoff::ArithmeticAverage>(stream, lanes, acc);
      case StepPayoff::GeometricAverage: return with_barrier<StepPayoff::GeometricAverage>(stream, lanes, acc);
      case StepPayoff::LookbackFixed: return with_barrier<StepPayoff::LookbackFixed>(stream, lanes, acc);
      case StepPayoff::LookbackFloating: return with_barrier<StepPayoff::LookbackFloating>(stream, lanes, acc);
    }
  }

 private:
  enum class Monitor { None, Discrete, Continuous };

  template <StepPayoff P, class Acc>
  MCSIM_HD void with_barrier(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr bool kLookback = P == StepPayoff::LookbackFixed || P == StepPayoff::LookbackFloating;
    if constexpr (kLookback) {  // lookbacks carry no barrier; `continuous` is for their extreme
      if (continuous) return walk<P, Monitor::None, true>(stream, lanes, acc);
      return walk<P, Monitor::None, false>(stream, lanes, acc);
    } else {
      if (knock == Knock::None) return walk<P, Monitor::None, false>(stream, lanes, acc);
      if (continuous) return walk<P, Monitor::Continuous, false>(stream, lanes, acc);
      walk<P, Monitor::Discrete, false>(stream, lanes, acc);
    }
  }

  // B: how the barrier is watched; BridgeExtreme: a lookback's extreme includes the
  // Brownian bridge between fixings.
  template <StepPayoff P, Monitor B, bool BridgeExtreme, class Acc>
  MCSIM_HD void walk(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup, N = Copies * G;  // copy c of lane l is path c * G + l
    constexpr bool kLookback = P == StepPayoff::LookbackFixed || P == StepPayoff::LookbackFloating;
    const bool down = knock == Knock::DownOut || knock == Knock::DownIn;
    const bool upper = wants_max();
    // Per path: log spot; average sum; log extreme (lookback); for a discrete
    // barrier the log extreme on its side, for a continuous one the survival probability.
    Real x[N], sum[N], extreme[N], live[N];
    Real log_sum[WithControl ? N : 1];  // the geometric control of an arithmetic average
    for (int i = 0; i < (WithControl ? N : 1); ++i) log_sum[i] = Real(0);
    // The spot is on the live side, so a discrete barrier's extreme may start from it.
    const Real live0 = B == Monitor::Discrete ? log_spot : Real(1);
    for (int i = 0; i < N; ++i) x[i] = log_spot, sum[i] = Real(0), extreme[i] = log_spot, live[i] = live0;

    for (int step = 0; step < steps; ++step) {
      const Real drift = equal_steps ? drift_dt : drift_at[step];
      const Real vol = equal_steps ? vol_sqrt_dt : vol_at[step];
      const auto z = rng::normals<Real>(stream);
      rng::NormalBlock<Real> u{};  // the bridge's extreme between fixings needs a uniform
      if constexpr (BridgeExtreme) u = rng::uniforms<Real>(stream);
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) {
        MCSIM_UNROLL
        for (int c = 0; c < Copies; ++c) {
          const int i = c * G + lane;
          const Real before = x[i];
          x[i] += drift + vol * (c ? -z.z[lane] : z.z[lane]);
          if constexpr (P == StepPayoff::ArithmeticAverage) sum[i] += fast_exp(x[i]);
          if constexpr (WithControl && P == StepPayoff::ArithmeticAverage) log_sum[i] += x[i];
          if constexpr (P == StepPayoff::GeometricAverage) sum[i] += x[i];
          if constexpr (kLookback) {
            Real hi = x[i], lo = x[i];
            if constexpr (BridgeExtreme) {
              // Extreme of the Brownian bridge from `before` to x over the step.
              const Real d = x[i] - before;
              const Real reach = sqrt(d * d - Real(2) * vol * vol * fast_log(u.z[lane]));
              hi = Real(0.5) * (before + x[i] + reach);
              lo = Real(0.5) * (before + x[i] - reach);
            }
            extreme[i] = upper ? (hi > extreme[i] ? hi : extreme[i]) : (lo < extreme[i] ? lo : extreme[i]);
          }
          if constexpr (B == Monitor::Discrete) {
            // Only the extreme on the barrier's side matters; checked at the end.
            live[i] = down ? (x[i] < live[i] ? x[i] : live[i]) : (x[i] > live[i] ? x[i] : live[i]);
          }
          if constexpr (B == Monitor::Continuous) {
            // Clear of the barrier at both fixings, the bridge between them stays
            // clear with probability 1 - exp(-2ab / var).
            const Real a = before - log_barrier, b = x[i] - log_barrier;
            const bool crossed = down ? b <= Real(0) : b >= Real(0);
            live[i] *= crossed ? Real(0) : Real(1) - fast_exp(Real(-2) * a * b / (vol * vol));
          }
        }
      }
    }

    const bool out = knock == Knock::DownOut || knock == Knock::UpOut;
    const Real n = static_cast<Real>(steps);
    // The discounted vanilla payoff on a level: the payoff proper and the control share it.
    const auto vanilla = [&](Real level) {
      const Real paid = sign * (level - strike);
      return discount * (paid > Real(0) ? paid : Real(0));
    };
    for (int lane = 0; lane < lanes; ++lane) {
      Real total = Real(0), control_total = Real(0);
      MCSIM_UNROLL
      for (int c = 0; c < Copies; ++c) {
        const int i = c * G + lane;
        Real value = Real(0);
        if constexpr (P == StepPayoff::European) value = vanilla(fast_exp(x[i]));
        if constexpr (P == StepPayoff::ArithmeticAverage) value = vanilla(sum[i] / n);
        if constexpr (P == StepPayoff::GeometricAverage) value = vanilla(fast_exp(sum[i] / n));
        if constexpr (P == StepPayoff::LookbackFixed) value = vanilla(fast_exp(extreme[i]));
        if constexpr (P == StepPayoff::LookbackFloating) {  // the extreme is the strike
          const Real paid = sign * (fast_exp(x[i]) - fast_exp(extreme[i]));
          value = discount * (paid > Real(0) ? paid : Real(0));
        }
        if constexpr (B != Monitor::None) {
          Real survive = live[i];
          if constexpr (B == Monitor::Discrete)
            survive = (down ? live[i] <= log_barrier : live[i] >= log_barrier) ? Real(0) : Real(1);
          value = out ? survive * value + (Real(1) - survive) * rebate_pv
                      : (Real(1) - survive) * value + survive * rebate_pv;
        }
        total += value;
        if constexpr (WithControl)
          control_total += vanilla(control == ControlKind::GeometricAsian ? fast_exp(log_sum[i] / n) : fast_exp(x[i]));
      }
      const Real y = total / static_cast<Real>(Copies);
      acc.add(0, y);
      if constexpr (WithControl) {
        const Real c = control_total / static_cast<Real>(Copies);
        acc.add(1, c);
        acc.add(2, y * c);
      }
    }
  }
};

}  // namespace mcsim::option
