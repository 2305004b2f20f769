// Results as people read them in a terminal (mcsim run, mcsim show): values
// rounded to the digits their error supports, what samples count, units, the
// reference or its band, differences from the base scenario, diagnostics and the
// model's tables.
#pragma once
#include <cstddef>
#include <string>

#include "io/results.hpp"

namespace mcsim {

// A value and its standard error rounded to the error's two leading digits
// ("10.49", "0.10"); with no finite, positive error the value keeps 10 digits.
struct Rounded {
  std::string value, std_error;
  int decimals = -1;  // digits after the point the error supports (-1: none)
};
Rounded rounded(double value, double std_error);
// 1,000,000: a count at a glance.
std::string grouped(std::uint64_t n);
// A number written with `decimals` digits after the point (or 10 significant
// digits when decimals < 0), as `rounded` writes values.
std::string with_decimals(double value, int decimals);

// A reference against an estimate: z for an exact one; for an approximate one
// (a stated tolerance) "in band", or how many standard errors past the band.
std::string reference_verdict(double value, double std_error, double reference, double tolerance);

// The estimates of a scenario, then its differences from the base scenario.
std::string format_estimates(const io::ScenarioResult& s);
std::string format_diagnostics(const io::ScenarioResult& s);
// A table with aligned columns and its units under their names; past max_rows
// its first and last rows only (0: every row).
std::string format_table(const io::Table& t, std::size_t max_rows);

// The provenance line, then each scenario's estimates and diagnostics; with
// `tables`, each scenario's tables too (mcsim show).
std::string format_results(const io::Results& r, bool tables);

}  // namespace mcsim
