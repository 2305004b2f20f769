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

}  // namespace mcsim::option
