// Runs one scenario of an option-pricing job (type: option) on the devices given,
// with its Greeks by bump and revalue on the same devices (app/run/greeks.hpp).
#pragma once
#include "app/run/runner.hpp"

namespace mcsim {

ScenarioRun run_option_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices);

}  // namespace mcsim
