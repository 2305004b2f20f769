// Greeks by bump and revalue on common random numbers: the job is rerun with one
// config key moved, on the same streams and chunks, so the per-chunk differences
// carry little noise; the standard error comes from the spread of the per-chunk
// Greeks across chunks.
#pragma once
#include "app/run/runner.hpp"

namespace mcsim {

using RunFn = ScenarioRun (*)(const io::Job&, const RunOptions&, const DeviceList&);

// Appends an estimate per Greek the job's model asks for to base's scenario (on
// rank 0; every rank takes part in the reruns, on the same devices). Returns
// whether the job asked for any.
bool add_greeks(const io::Job& job, const RunOptions& options, const DeviceList& devices, RunFn run, ScenarioRun& base);

}  // namespace mcsim
