// Every path kernel the backends can run, one entry per model and precision.
// Registering a model adds its kernels here and its parser in registry.cpp.
#pragma once
#include <variant>

#include "models/option/american_path.hpp"
#include "models/option/basket_path.hpp"
#include "models/option/european.hpp"
#include "models/option/step_path.hpp"

namespace mcsim {

using PathKernel =
    std::variant<option::EuropeanPath<float>, option::EuropeanPath<double>,  //
                 option::EuropeanPath<float, true>, option::EuropeanPath<double, true>,  // with Greeks
                 option::EuropeanPath<float, false, true>, option::EuropeanPath<double, false, true>,  // antithetic
                 option::EuropeanPath<float, true, true>, option::EuropeanPath<double, true, true>,
                 option::StepPath<float, 1>, option::StepPath<double, 1>,      // plain
                 option::StepPath<float, 2>, option::StepPath<double, 2>,      // antithetic
                 option::StepPath<float, 1, true>, option::StepPath<double, 1, true>,  // control variate
                 option::StepPath<float, 2, true>, option::StepPath<double, 2, true>,
                 option::StepPath<float, 1, false, true>, option::StepPath<double, 1, false, true>,  // Sobol
                 option::StepPath<float, 1, true, true>, option::StepPath<double, 1, true, true>,
                 option::StepPath<float, 1, false, false, option::Dynamics::Heston>,
                 option::StepPath<double, 1, false, false, option::Dynamics::Heston>,
                 option::StepPath<float, 2, false, false, option::Dynamics::Heston>,
                 option::StepPath<double, 2, false, false, option::Dynamics::Heston>,
                 option::StepPath<float, 1, false, false, option::Dynamics::LocalVol>,
                 option::StepPath<double, 1, false, false, option::Dynamics::LocalVol>,
                 option::StepPath<float, 2, false, false, option::Dynamics::LocalVol>,
                 option::StepPath<double, 2, false, false, option::Dynamics::LocalVol>,
                 option::StepPath<float, 1, false, false, option::Dynamics::Cev>,
                 option::StepPath<double, 1, false, false, option::Dynamics::Cev>,
                 option::StepPath<float, 2, false, false, option::Dynamics::Cev>,
                 option::StepPath<double, 2, false, false, option::Dynamics::Cev>,
                 option::BasketPath<float>, option::BasketPath<double>,  //
                 option::BasketPath<float, true>, option::BasketPath<double, true>,
                 option::AmericanPath<float>, option::AmericanPath<double>>;

}  // namespace mcsim
