#pragma once
// What an option spec gives both its kernels (option_model.cpp) and its exact
// references (references.cpp): the flat inputs of the closed forms, the fixing
// dates, the steps cash dividends add to a path, the control variate's mean.

#include <vector>

#include "models/option/analytic.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

BsmInput bsm_input(const OptionSpec& s);
BasketInput basket_input(const OptionSpec& s);

// The fixing dates: `times` where given, else `steps` equal steps to maturity.
std::vector<double> fixing_times(const OptionSpec& s);

// A path's step under cash dividends: its end, the cash paid there, whether it is a fixing.
struct CashStep {
  double time, cash;
  bool fixing;
};

std::vector<CashStep> cash_steps(const OptionSpec& s);

// The control's mean: the exact geometric Asian or geometric basket, or the
// Black-Scholes-Merton price.
double control_mean(const OptionSpec& s);

}  // namespace mcsim::option
