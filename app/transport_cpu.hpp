// Particle transport on the CPU (app/transport_cpu.cpp): Backend::transport.
#pragma once
#include <cstdint>
#include <vector>

#include "app/backend.hpp"

namespace mcsim {

void cpu_transport(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                   std::vector<transport::Site<double>>* bank);

}  // namespace mcsim
