// Limits the option family's readers share: what a path's tables may hold and which
// inputs are legal but absurd.
#pragma once
#include <cstdint>

#include "io/block.hpp"
#include "models/option/american_path.hpp"

namespace mcsim::option {

// A path's steps and fixings: their tables are built on the host and copied to
// the device, so a mistyped count is refused rather than allocated.
constexpr std::uint64_t kMaxSteps = 1000000;
// An American or Bermudan option's exercise dates: the path's table of them.
constexpr std::uint64_t kMaxDates = AmericanPath<double>::kMaxDates;
// Legal but absurd inputs are refused, not priced as 0 +- 0: a volatility above
// 500% a year, or a maturity past 100 years.
constexpr io::Range kVolatility{0, 5, true, false};
constexpr io::Range kMaturity{0, 100, true, false};

}  // namespace mcsim::option
