// The discounted vanilla payoff, shared by every path kernel that pays one.
#pragma once
#include "rng/hd.hpp"

namespace mcsim::option {

// discount * max(sign * (level - strike), 0): sign +1 for a call, -1 for a put.
template <class Real>
MCSIM_HD Real vanilla_payoff(Real level, Real strike, Real sign, Real discount) {
  const Real paid = sign * (level - strike);
  return discount * (paid > Real(0) ? paid : Real(0));
}

// Its derivative in the level (minus that in the strike): discount * sign in the
// money, else 0; what a pathwise Greek multiplies the level's tangent by.
template <class Real>
MCSIM_HD Real vanilla_slope(Real level, Real strike, Real sign, Real discount) {
  return sign * (level - strike) > Real(0) ? discount * sign : Real(0);
}

}  // namespace mcsim::option
