// Runs one scenario of a particle-transport job (type: transport, job.cpp) on the
// devices given: fixed-source histories in chunks, or eigenvalue generations with
// a fission bank.
#pragma once
#include "app/run/runner.hpp"

namespace mcsim {

ScenarioRun run_transport_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices);

}  // namespace mcsim
