// Every path kernel the backends can run, one entry per model and precision, in
// families. Registering a model adds its kernels to a family here (or a new
// family, with its CUDA file in app/exec/option/families/) and its parser in
// registry.cpp.
#pragma once
#include "models/kernel_list.hpp"
#include "models/option/american_path.hpp"
#include "models/option/basket_exercise_path.hpp"
#include "models/option/basket_path.hpp"
#include "models/option/european.hpp"
#include "models/option/hybrid_path.hpp"
#include "models/option/step_path.hpp"
#include "models/rates/short_rate_path.hpp"

namespace mcsim {

namespace kernels {
using option::Dynamics;
using option::StepPath;

using European = KernelList<option::EuropeanPath<float>, option::EuropeanPath<double>,  //
                            option::EuropeanPath<float, true>, option::EuropeanPath<double, true>,  // with Greeks
                            option::EuropeanPath<float, false, true>,
                            option::EuropeanPath<double, false, true>,  // antithetic
                            option::EuropeanPath<float, true, true>, option::EuropeanPath<double, true, true>>;
using GbmSteps = KernelList<StepPath<float, 1>, StepPath<double, 1>,   // plain
                            StepPath<float, 2>, StepPath<double, 2>>;  // antithetic
using GreekSteps = KernelList<StepPath<float, 1, false, false, Dynamics::Gbm, true>,  // with path Greeks
                              StepPath<double, 1, false, false, Dynamics::Gbm, true>,
                              StepPath<float, 2, false, false, Dynamics::Gbm, true>,
                              StepPath<double, 2, false, false, Dynamics::Gbm, true>>;
using BucketSteps = KernelList<  // ... and the Greeks in an average's market inputs (market_inputs.hpp)
    StepPath<float, 1, false, false, Dynamics::Gbm, true, option::kPathBuckets>,
    StepPath<double, 1, false, false, Dynamics::Gbm, true, option::kPathBuckets>>;
using AntitheticBucketSteps = KernelList<  // the same, antithetic (a family of its own: each compiles for minutes)
    StepPath<float, 2, false, false, Dynamics::Gbm, true, option::kPathBuckets>,
    StepPath<double, 2, false, false, Dynamics::Gbm, true, option::kPathBuckets>>;
using ControlSteps = KernelList<StepPath<float, 1, true>, StepPath<double, 1, true>,  // control variate
                                StepPath<float, 2, true>, StepPath<double, 2, true>>;
using SobolSteps = KernelList<StepPath<float, 1, false, true>, StepPath<double, 1, false, true>,  // Sobol
                              StepPath<float, 1, true, true>, StepPath<double, 1, true, true>>;
using HestonSteps =
    KernelList<StepPath<float, 1, false, false, Dynamics::Heston>, StepPath<double, 1, false, false, Dynamics::Heston>,
               StepPath<float, 2, false, false, Dynamics::Heston>, StepPath<double, 2, false, false, Dynamics::Heston>>;
using HestonGreekSteps = KernelList<  // with path Greeks
    StepPath<float, 1, false, false, Dynamics::Heston, true>, StepPath<double, 1, false, false, Dynamics::Heston, true>,
    StepPath<float, 2, false, false, Dynamics::Heston, true>, StepPath<double, 2, false, false, Dynamics::Heston, true>>;
using LocalVolSteps = KernelList<
    StepPath<float, 1, false, false, Dynamics::LocalVol>, StepPath<double, 1, false, false, Dynamics::LocalVol>,
    StepPath<float, 2, false, false, Dynamics::LocalVol>, StepPath<double, 2, false, false, Dynamics::LocalVol>>;
using CevSteps =
    KernelList<StepPath<float, 1, false, false, Dynamics::Cev>, StepPath<double, 1, false, false, Dynamics::Cev>,
               StepPath<float, 2, false, false, Dynamics::Cev>, StepPath<double, 2, false, false, Dynamics::Cev>>;
using LocalGreekSteps = KernelList<  // with path Greeks
    StepPath<float, 1, false, false, Dynamics::LocalVol, true>, StepPath<double, 1, false, false, Dynamics::LocalVol, true>,
    StepPath<float, 2, false, false, Dynamics::LocalVol, true>, StepPath<double, 2, false, false, Dynamics::LocalVol, true>,
    StepPath<float, 1, false, false, Dynamics::Cev, true>, StepPath<double, 1, false, false, Dynamics::Cev, true>,
    StepPath<float, 2, false, false, Dynamics::Cev, true>, StepPath<double, 2, false, false, Dynamics::Cev, true>>;
using LocalBucketSteps = KernelList<  // ... and the Greeks in its curves' pillars and surface's quotes
    StepPath<float, 1, false, false, Dynamics::LocalVol, true, option::kLocalPathBuckets>,
    StepPath<double, 1, false, false, Dynamics::LocalVol, true, option::kLocalPathBuckets>,
    StepPath<float, 2, false, false, Dynamics::LocalVol, true, option::kLocalPathBuckets>,
    StepPath<double, 2, false, false, Dynamics::LocalVol, true, option::kLocalPathBuckets>>;
using MertonSteps =
    KernelList<StepPath<float, 1, false, false, Dynamics::Merton>, StepPath<double, 1, false, false, Dynamics::Merton>,
               StepPath<float, 2, false, false, Dynamics::Merton>, StepPath<double, 2, false, false, Dynamics::Merton>>;
using BatesSteps =
    KernelList<StepPath<float, 1, false, false, Dynamics::Bates>, StepPath<double, 1, false, false, Dynamics::Bates>,
               StepPath<float, 2, false, false, Dynamics::Bates>, StepPath<double, 2, false, false, Dynamics::Bates>>;
using CashSteps = KernelList<  // GBM paying cash dividends
    StepPath<float, 1, false, false, Dynamics::CashGbm>, StepPath<double, 1, false, false, Dynamics::CashGbm>,
    StepPath<float, 2, false, false, Dynamics::CashGbm>, StepPath<double, 2, false, false, Dynamics::CashGbm>>;
using Basket = KernelList<option::BasketPath<float>, option::BasketPath<double>,  //
                          option::BasketPath<float, true>, option::BasketPath<double, true>>;
using option::BasketPath;
using BasketGreeks = KernelList<  // with path Greeks, one kernel per size up to kMaxPathGreekAssets
    BasketPath<float, false, 2>, BasketPath<double, false, 2>, BasketPath<float, false, 3>, BasketPath<double, false, 3>,
    BasketPath<float, false, 4>, BasketPath<double, false, 4>, BasketPath<float, false, 5>, BasketPath<double, false, 5>,
    BasketPath<float, false, 6>, BasketPath<double, false, 6>, BasketPath<float, false, 7>, BasketPath<double, false, 7>,
    BasketPath<float, false, 8>, BasketPath<double, false, 8>>;
using option::BasketExercisePath;
using BasketSteps = KernelList<  // walked baskets (heston assets, early exercise), one kernel per size
    BasketExercisePath<float, 1>, BasketExercisePath<double, 1>, BasketExercisePath<float, 2>, BasketExercisePath<double, 2>,
    BasketExercisePath<float, 3>, BasketExercisePath<double, 3>, BasketExercisePath<float, 4>, BasketExercisePath<double, 4>,
    BasketExercisePath<float, 5>, BasketExercisePath<double, 5>, BasketExercisePath<float, 6>, BasketExercisePath<double, 6>,
    BasketExercisePath<float, 7>, BasketExercisePath<double, 7>, BasketExercisePath<float, 8>, BasketExercisePath<double, 8>>;
// ... with path Greeks. A size's compile time grows as its square, so the largest
// sizes are families of their own, each compiled in parallel with the rest.
using BasketStepGreeks = KernelList<
    BasketExercisePath<float, 1, true>, BasketExercisePath<double, 1, true>, BasketExercisePath<float, 2, true>, BasketExercisePath<double, 2, true>,
    BasketExercisePath<float, 3, true>, BasketExercisePath<double, 3, true>, BasketExercisePath<float, 4, true>, BasketExercisePath<double, 4, true>,
    BasketExercisePath<float, 5, true>, BasketExercisePath<double, 5, true>>;
using BasketStepGreeks6 = KernelList<BasketExercisePath<float, 6, true>, BasketExercisePath<double, 6, true>>;
using BasketStepGreeks7 = KernelList<BasketExercisePath<float, 7, true>, BasketExercisePath<double, 7, true>>;
using BasketStepGreeks8 = KernelList<BasketExercisePath<float, 8, true>, BasketExercisePath<double, 8, true>>;
using American = KernelList<option::AmericanPath<float>, option::AmericanPath<double>,  //
                            option::AmericanPath<float, true>, option::AmericanPath<double, true>>;  // with Greeks
using ShortRate = KernelList<rates::ShortRatePath<float, 1>, rates::ShortRatePath<double, 1>,
                             rates::ShortRatePath<float, 2>, rates::ShortRatePath<double, 2>>;

using option::HybridPath;
using Hybrid = KernelList<HybridPath<float, 1, false>, HybridPath<double, 1, false>,  // Black-Scholes-Hull-White
                          HybridPath<float, 2, false>, HybridPath<double, 2, false>,
                          HybridPath<float, 1, false, true>, HybridPath<double, 1, false, true>,  // with delta and gamma
                          HybridPath<float, 2, false, true>, HybridPath<double, 2, false, true>>;
using HestonHybrid = KernelList<HybridPath<float, 1, true>, HybridPath<double, 1, true>,  // Heston-Hull-White
                                HybridPath<float, 2, true>, HybridPath<double, 2, true>,
                                HybridPath<float, 1, true, true>, HybridPath<double, 1, true, true>,
                                HybridPath<float, 2, true, true>, HybridPath<double, 2, true, true>>;

using Families = std::tuple<European, GbmSteps, GreekSteps, BucketSteps, AntitheticBucketSteps, ControlSteps, SobolSteps, HestonSteps, HestonGreekSteps, LocalVolSteps, CevSteps, LocalGreekSteps, LocalBucketSteps,
                            MertonSteps,
                            BatesSteps, CashSteps, Basket, BasketGreeks, BasketSteps, BasketStepGreeks,
                            BasketStepGreeks6, BasketStepGreeks7, BasketStepGreeks8, American, ShortRate, Hybrid, HestonHybrid>;
}  // namespace kernels

using PathKernel = KernelVariant<kernels::Families>;
template <class K>
using FamilyOf = FamilyIn<kernels::Families, K>;

}  // namespace mcsim
