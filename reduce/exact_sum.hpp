// Sums that do not depend on the order of their terms: each term is rounded once to
// a multiple of a fixed unit and added as a 128-bit integer, and integer adds
// commute. Tallies of the risk passes use them, so any split of the scenarios over
// threads, devices and ranks gives the same bits.
#pragma once
#include <cmath>
#include <cstdint>

#include "rng/hd.hpp"

namespace mcsim::reduce {

__extension__ typedef __int128 Fixed;

// A job picks the unit from its scale (a 2^-40 part of its loss's spread): terms
// are then exact to 12 digits and sums of 2^40 terms of 2^40 spreads still fit.
struct FixedUnit {
  double unit = 1, inverse = 1;
  static FixedUnit of_scale(double scale) {
    const double u = std::ldexp(scale > 0 && std::isfinite(scale) ? scale : 1.0, -40);
    return {u, 1 / u};
  }
  MCSIM_HD Fixed to_fixed(double x) const {
    const double y = rint(x * inverse);
    const double a = fabs(y);
    const double hi = floor(a * 0x1p-64);  // exact: a is an integer-valued double
    const Fixed m = (static_cast<Fixed>(static_cast<std::uint64_t>(hi)) << 64) |
                    static_cast<Fixed>(static_cast<std::uint64_t>(a - hi * 0x1p64));
    return y < 0 ? -m : m;
  }
  double to_double(Fixed f) const {
    const bool negative = f < 0;
    __extension__ typedef unsigned __int128 UFixed;
    const UFixed m = negative ? -static_cast<UFixed>(f) : static_cast<UFixed>(f);
    const double v = (static_cast<double>(static_cast<std::uint64_t>(m >> 64)) * 0x1p64 +
                      static_cast<double>(static_cast<std::uint64_t>(m))) * unit;
    return negative ? -v : v;
  }
};

}  // namespace mcsim::reduce
