// Reading an option job's model.instrument block: the payoff, its strike or basket,
// fixings, exercise dates, barrier and monitoring.
#pragma once
#include "io/block.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

// Reads `inst` into s; `process` is the model's process block, already read.
void parse_instrument(io::Block& inst, const io::Block& process, OptionSpec& s);

}  // namespace mcsim::option
