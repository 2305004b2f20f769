// Portfolio risk on one device: the losses of a run of scenarios, and each
// position's loss summed over listed scenarios (exact fixed point).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "app/exec/device.hpp"
#include "reduce/exact_sum.hpp"

namespace mcsim {

namespace var {
struct RiskKernel;  // models/var/risk_kernel.hpp
}

class RiskExecutor : public Executor {
 public:
  static std::unique_ptr<RiskExecutor> make(Device& device);
  // The loss of each scenario in [first, first + count), scenario s drawn from
  // stream (seed, s). On a device beside the host the next losses may be asked for
  // while position_sums runs.
  virtual void scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out) = 0;
  // For each listed scenario and each band b set in its mask, adds every unit's
  // loss to sums[2 b U + u] and its square to sums[(2 b + 1) U + u] (U units: the
  // positions in revaluation order, then the book's groups; exact fixed point).
  virtual void position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                             const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums) = 0;
};

std::unique_ptr<RiskExecutor> make_cpu_risk_executor(Device& device);
std::unique_ptr<RiskExecutor> make_cuda_risk_executor(Device& device);

}  // namespace mcsim
