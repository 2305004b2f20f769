// Runs a portfolio-risk job (type: var): scenario passes for exact quantiles, then
// VaR, ES, their errors and each position's contributions (job.cpp).
#pragma once
#include <cstdint>

#include "app/run/runner.hpp"
#include "models/var/var_model.hpp"

namespace mcsim {

// How much pass 2 may keep: a level whose bins around its order statistic hold more
// than max_kept losses gets a narrower histogram pass, up to max_histogram_passes.
// The first pass keeps the losses it computes on the host, up to kept_loss_bytes
// of them, so the passes after it read them instead of revaluing the scenarios.
// `overlap`: the host tallies a unit while the next one's losses are computed and
// the last one finished, on every device (tests; by default only beside a GPU).
struct RiskLimits {
  std::uint64_t max_kept = std::uint64_t{1} << 22;
  int max_histogram_passes = 6;
  std::uint64_t kept_loss_bytes = std::uint64_t{1} << 30;
  bool overlap = false;
};

ScenarioRun run_risk_job(const io::Job& job, const var::VarModel& model, const RunOptions& options,
                         const DeviceList& devices, const RiskLimits& limits = {});
// The family's run (app/run/families.cpp): run_risk_job with the default limits.
ScenarioRun run_risk_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices);

}  // namespace mcsim
