// Errors of historical simulation's VaR and ES by the moving-block bootstrap: its
// scenarios are overlapping windows, so neighbours share most of their days and
// are not independent draws. Each resample strings together blocks of `block`
// consecutive scenarios (the horizon's days) from starts drawn uniformly, to the
// history's length; VaR and ES are taken of it as of the history itself.
#pragma once
#include <cstdint>
#include <vector>

namespace mcsim::var {

struct BootstrapErrors {
  double var_se = 0, es_se = 0;  // the resamples' standard deviations
};

// Per level; `losses` in scenario order. Resample r draws from Philox stream
// (seed, r) alone, so the errors have the same bits on any machine. With
// `weights` (age weights, models/var/age_weights.hpp), each scenario drawn keeps its
// own, and the resample's figures are weighted.
std::vector<BootstrapErrors> bootstrap_errors(const std::vector<double>& losses, const std::vector<double>& levels,
                                              std::size_t block, std::uint64_t seed, int resamples,
                                              const std::vector<double>& weights = {});

constexpr int kBootstrapResamples = 1000;

}  // namespace mcsim::var
