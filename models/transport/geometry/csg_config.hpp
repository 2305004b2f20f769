// The `geometry: {type: csg}` block of a transport config: surfaces, cells and
// lattices by name, as OpenMC describes them. Errors name the key and its line.
#pragma once
#include "io/block.hpp"
#include "models/transport/geometry/csg_geometry.hpp"

namespace mcsim::transport::geometry {

// Reads the block's surfaces, cells and lattices (the caller reads `type`). Errors
// go to the block's diagnostics; what follows one is best effort.
CsgSpec read_csg(io::Block& g);

}  // namespace mcsim::transport::geometry
