// Runs a portfolio-risk job (type: var): scenario passes for exact quantiles, then
// VaR, ES, their errors and each position's contributions (app/risk.cpp).
#pragma once
#include <cstdint>

#include "app/driver.hpp"
#include "models/var/var_model.hpp"

namespace mcsim {

// How much pass 2 may keep: a level whose bins around its order statistic hold more
// than max_kept losses gets a narrower histogram pass, up to max_histogram_passes.
struct RiskLimits {
  std::uint64_t max_kept = std::uint64_t{1} << 22;
  int max_histogram_passes = 6;
};

io::Results run_risk_job(const io::Job& job, const var::VarModel& model, const RunOptions& options,
                         const RiskLimits& limits = {});

}  // namespace mcsim
