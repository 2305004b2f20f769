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

template <class Real>
struct StepPath {
  using real_type = Real;
  static constexpr int kOutputs = 1;  // price
  static constexpr int kGroup = rng::NormalBlock<Real>::size;
  static constexpr int kMaxTimes = 256;  // given fixing times; equal steps have no limit

  StepPayoff payoff;
  int steps;
  Real log_spot, strike, sign, discount;  // sign: +1 call, -1 put
  bool equal_steps;
  Real drift_dt, vol_sqrt_dt;                 // equal steps: (r - q - sigma^2/2) dt, sigma sqrt(dt)
  Real drift_at[kMaxTimes], vol_at[kMaxTimes];  // given times, per step
  Knock knock;
  bool continuous;  // barrier and extremes monitored between fixings too
  Real log_barrier, rebate_pv;  // rebate discounted from expiry
  bool antithetic;

  // Uses the running maximum (else the minimum) of the path.
  MCSIM_HD bool wants_max() const {
    return (payoff == StepPayoff::LookbackFixed) == (sign > Real(0));
  }

  template <class Acc>
  MCSIM_HD void simulate(rng::Stream& stream, int lanes, Acc& acc) const {
    constexpr int G = kGroup;
    const int copies = antithetic ? 2 : 1;  // copy 1 follows -Z
    const bool down = knock == Knock::DownOut || knock == Knock::DownIn;
    const bool lookback = payoff == StepPayoff::LookbackFixed || payoff == StepPayoff::LookbackFloating;
    const bool upper = wants_max();
    Real x[2 * G], sum[2 * G], extreme[2 * G], live[2 * G];  // log spot, average sum, log extreme, survival
    for (int i = 0; i < 2 * G; ++i) x[i] = log_spot, sum[i] = Real(0), extreme[i] = log_spot, live[i] = Real(1);

    for (int step = 0; step < steps; ++step) {
      const Real drift = equal_steps ? drift_dt : drift_at[step];
      const Real vol = equal_steps ? vol_sqrt_dt : vol_at[step];
      const auto z = rng::normals<Real>(stream);
      // The bridge's extreme between fixings needs a uniform (a barrier uses its probability).
      rng::NormalBlock<Real> u{};
      if (continuous && lookback) u = rng::uniforms<Real>(stream);
      MCSIM_UNROLL
      for (int lane = 0; lane < G; ++lane) {
        for (int c = 0; c < copies; ++c) {
          const int i = c * G + lane;
          const Real before = x[i];
          x[i] += drift + vol * (c ? -z.z[lane] : z.z[lane]);
          if (payoff == StepPayoff::ArithmeticAverage) sum[i] += fast_exp(x[i]);
          if (payoff == StepPayoff::GeometricAverage) sum[i] += x[i];
          Real hi = x[i] > before ? x[i] : before, lo = x[i] > before ? before : x[i];
          if (continuous && lookback) {
            // Extreme of the Brownian bridge from `before` to x over the step.
            const Real d = x[i] - before;
            const Real reach = sqrt(d * d - Real(2) * vol * vol * fast_log(u.z[lane]));
            hi = Real(0.5) * (before + x[i] + reach);
            lo = Real(0.5) * (before + x[i] - reach);
          }
          if (lookback) extreme[i] = upper ? (hi > extreme[i] ? hi : extreme[i]) : (lo < extreme[i] ? lo : extreme[i]);
          if (knock != Knock::None) {
            const Real a = before - log_barrier, b = x[i] - log_barrier;
            const bool crossed = down ? b <= Real(0) : b >= Real(0);
            Real survive = crossed ? Real(0) : Real(1);
            // Between fixings: the bridge stays clear with probability 1 - exp(-2ab / var).
            if (continuous && !crossed) survive = Real(1) - fast_exp(Real(-2) * a * b / (vol * vol));
            live[i] *= survive;
          }
        }
      }
    }

    for (int lane = 0; lane < lanes; ++lane) {
      Real total = Real(0);
      for (int c = 0; c < copies; ++c) {
        const int i = c * G + lane;
        const Real n = static_cast<Real>(steps);
        Real value = Real(0);
        switch (payoff) {
          case StepPayoff::European: value = sign * (fast_exp(x[i]) - strike); break;
          case StepPayoff::ArithmeticAverage: value = sign * (sum[i] / n - strike); break;
          case StepPayoff::GeometricAverage: value = sign * (fast_exp(sum[i] / n) - strike); break;
          case StepPayoff::LookbackFixed: value = sign * (fast_exp(extreme[i]) - strike); break;
          case StepPayoff::LookbackFloating: value = sign * (fast_exp(x[i]) - fast_exp(extreme[i])); break;
        }
        value = discount * (value > Real(0) ? value : Real(0));
        if (knock == Knock::DownOut || knock == Knock::UpOut)
          value = live[i] * value + (Real(1) - live[i]) * rebate_pv;
        else if (knock != Knock::None)
          value = (Real(1) - live[i]) * value + live[i] * rebate_pv;
        total += value;
      }
      acc.add(0, total / static_cast<Real>(copies));
    }
  }
};

}  // namespace mcsim::option
