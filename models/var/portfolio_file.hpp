// A risk job's positions from a CSV file (model.portfolio: {file, groups}): one row
// a position, with the columns id, type, underlying, quantity and, as its type needs
// them, option, strike and maturity, and the grouping columns the config names
// (desk, book, ...). Errors name FILE:LINE:COLUMN.
#pragma once
#include <string>
#include <vector>

#include "io/block.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

// Appends the file's positions to s.portfolio and its group columns to
// s.group_columns; `assets` are the risk factors' names. Errors go to the block.
void read_portfolio_file(io::Block& portfolio, VarSpec& s);

}  // namespace mcsim::var
