// What a stepped path (StepPath) walks and pays: its payoff, its knock condition,
// its control variate, and how its log spot moves. The job's setup and the kernel
// list name them without the kernel.
#pragma once

namespace mcsim::option {

enum class StepPayoff : int {
  European, Digital, ArithmeticAverage, GeometricAverage, LookbackFixed, LookbackFloating,
  ForwardStart,  // struck at moneyness x the spot at the end of step start_step
  Cliquet,       // each step a period: its return within local bounds, summed, within global bounds
};
enum class Knock : int { None, DownOut, UpOut, DownIn, UpIn };

enum class ControlKind : int { GeometricAsian, European };

// The market inputs a stepped payoff's kernel with their Greeks has room for: GBM's
// (curve pillars, volatility nodes), and a local volatility's (curve pillars, and
// the quotes of the surface its grid is built from: two expiries' strikes a step).
constexpr int kPathBuckets = 12;
constexpr int kLocalPathBuckets = 24;

// How the log spot moves from one step to the next: Merton is GBM with jumps,
// Bates Heston with jumps; CashGbm is GBM whose spot drops by a cash amount at the
// end of some steps, and whose steps need not all be fixings.
enum class Dynamics : int { Gbm, Heston, LocalVol, Cev, Merton, Bates, CashGbm };

}  // namespace mcsim::option
