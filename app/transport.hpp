// Runs a particle-transport job (type: transport, app/transport.cpp): fixed-source
// histories in chunks, or eigenvalue generations with a fission bank.
#pragma once
#include "app/driver.hpp"
#include "models/transport/transport_model.hpp"

namespace mcsim {

io::Results run_transport_job(const io::Job& job, const transport::TransportModel& model, const RunOptions& options);

}  // namespace mcsim
