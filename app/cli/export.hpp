// Results for scripts: `mcsim show --csv | --json [--table NAME]`. Numbers keep
// every digit (the terminal rounds them; these do not); NaN is empty (CSV) or null.
#pragma once
#include <string>

#include "io/results.hpp"

namespace mcsim {

// Tidy: one row per scenario and estimate, each scenario's overridden keys as
// their own columns (empty where a scenario keeps the job's value):
// scenario,<keys...>,estimate,value,std_error,ci_low,ci_high,samples,samples_of,unit,
// reference,reference_tolerance,z,minus_base,paired_std_error,unpaired_std_error,reference_minus_base
// (z empty where there is no exact reference).
std::string results_csv(const io::Results& r);
// One table of every scenario that has it: scenario,<keys...>,[name,]<its columns>.
// Throws, naming the tables the file has, when none is called `table`.
std::string table_csv(const io::Results& r, const std::string& table);
// The provenance and timing, then per scenario its overrides, estimates (with
// what samples count, unit, reference and z), differences, diagnostics and tables.
std::string results_json(const io::Results& r);

}  // namespace mcsim
