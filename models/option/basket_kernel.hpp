// A basket's path kernel (BasketPath) from its spec, and when it scores its Greeks.
#pragma once
#include <cstddef>
#include <string>

#include "models/option/lsm.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

// The path scores the basket's Greeks for a size it has a kernel of
// (kMaxPathGreekAssets), without a control variate, and where its likelihood-ratio
// weight A^-T Z exists: volatilities above zero and a correlation matrix clear of
// singular (no asset a combination of the others).
bool basket_greeks_on_path(const OptionSpec& s);

// The kernel for a job of several assets: with `greeks`, the one of its size that
// scores them (basket_greeks_on_path must hold).
PathKernel basket_kernel(const OptionSpec& s, Precision precision, bool greeks);

// A walked basket (OptionSpec::basket_steps) scores its Greeks on the path where
// each asset's first step has a spot deviation to divide by (gbm: a volatility;
// heston: v0 > 0 and |rho| < 1) and the correlation matrix is clear of singular.
bool exercise_greeks_on_path(const OptionSpec& s);

// Its Longstaff-Schwartz rule, fitted from `seed` on the regression paths walked in
// double on the host; with one date, none, but for the in-sample price a Heston
// basket's correlation scores take as their baseline (`greeks`).
ExerciseRule fit_walked_basket(const OptionSpec& s, std::uint64_t seed, bool greeks);

// Its kernel (BasketExercisePath of its size), following `rule`; with `greeks`, the
// one that scores them.
PathKernel basket_exercise_kernel(const OptionSpec& s, Precision precision, const ExerciseRule& rule, bool greeks);

// correlation_<a>_<b>: the name of the sensitivity to assets a's and b's correlation.
std::string correlation_greek(const OptionSpec& s, std::size_t a, std::size_t b);

}  // namespace mcsim::option
