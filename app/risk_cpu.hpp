// The CPU backend's portfolio-risk work (risk_cpu.cpp): Backend::scenario_losses
// and Backend::position_sums on OpenMP threads.
#pragma once
#include <cstdint>
#include <vector>

#include "reduce/exact_sum.hpp"

namespace mcsim {

namespace var {
struct RiskKernel;  // models/var/risk_kernel.hpp
}

void cpu_scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out);
void cpu_position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                       const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums);

}  // namespace mcsim
