// A rate position's value on a Hull-White factor's state x, written once for host
// and device: a sum of legs, each a cash flow or an option on a zero-coupon bond
// (Jamshidian's split of a swaption, a cap's caplets), with everything but x
// computed once per job (rate_positions.hpp builds them).
#pragma once
#include "models/option/bsm.hpp"
#include "rng/hd.hpp"

namespace mcsim::var {

// A leg valued at time h: c, ln A_t, B_t, ln(K A_T), B_T, sd, w, where
// P(h, t | x) = A_t e^{-B_t x}. w = 0: the cash flow c P(h, t) (one paid by h has
// A = 1, B = 0). w = +1 (-1): c times a call (put) expiring at T on the bond P(T, t)
// struck at K: Black's formula on P(h, t) against K P(h, T), sd that of ln P(T, t).
constexpr int kLegTerms = 7;

template <class Real>
MCSIM_HD Real legs_value(const Real* leg, int n, Real x) {
  Real v = 0;
  for (int k = 0; k < n; ++k, leg += kLegTerms) {
    const Real log_bond = leg[1] - leg[2] * x, bond = exp(log_bond), w = leg[6];
    if (w == Real(0)) {
      v += leg[0] * bond;
      continue;
    }
    const Real log_strike = leg[3] - leg[4] * x;
    v += leg[0] * option::bsm_core(bond, Real(exp(log_strike)), log_bond - log_strike, leg[5], w);
  }
  return v;
}

}  // namespace mcsim::var
