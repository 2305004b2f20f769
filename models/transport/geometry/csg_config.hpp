// The `geometry: {type: csg}` block of a transport config: surfaces, cells and
// lattices by name, as OpenMC describes them, and a CSG job's source and tallies.
// Errors name the key and its line.
#pragma once
#include <string>
#include <vector>

#include "io/block.hpp"
#include "models/transport/geometry/csg_geometry.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport::geometry {

// Reads the block's surfaces, cells and lattices (the caller reads `type`). Errors
// go to the block's diagnostics; what follows one is best effort.
CsgSpec read_csg(io::Block& g);

// The whole geometry block (its `type` read by the caller): the model, its
// bounds, and the geometry check; geo.csg stays empty after an error.
void read_csg_geometry(io::Block& g, const std::vector<std::string>& materials, Geometry& geo);
// A CSG job's source block, and one of its tally blocks.
void read_csg_source(io::Block& b, TransportSpec& s);
CsgTallySpec read_csg_tally(io::Block& b, const Geometry& geo);

}  // namespace mcsim::transport::geometry
