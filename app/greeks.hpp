// Greeks by bump and revalue on common random numbers: the job is rerun with one
// config key moved, on the same streams and chunks, so the per-chunk differences
// carry little noise; the standard error comes from the spread of the per-chunk
// Greeks across chunks.
#pragma once
#include <functional>

#include "app/driver.hpp"

namespace mcsim {

using RunFn = std::function<io::Results(const io::Job&, const RunOptions&)>;

// Appends an estimate per Greek the job's model asks for to base's scenario (on
// rank 0; every rank takes part in the reruns).
void add_greeks(const io::Job& job, const RunOptions& options, const RunFn& run, io::Results& base);

}  // namespace mcsim
