// Every unit's (position's or group's) loss in a few scenarios, from the device:
// what age-weighted historical simulation's figures and shares sum
// (models/var/age_weights.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "app/exec/risk/executor.hpp"
#include "app/run/runner.hpp"
#include "models/var/age_weights.hpp"
#include "models/var/risk_kernel.hpp"

namespace mcsim::risk {

// Every unit's loss in each scenario some age-weighted figure sums (its ES tail and
// its VaR's band), from the device: one band per scenario, so each sum holds one term.
class ScenarioUnits {
 public:
  ScenarioUnits() = default;
  ScenarioUnits(std::map<std::uint64_t, std::vector<double>> losses, std::size_t positions)
      : losses_(std::move(losses)), positions_(positions) {}
  var::UnitLoss unit(std::size_t k) const {
    return [this, k](std::uint64_t s) { return losses_.at(s)[k]; };
  }
  // The positions' losses added: the portfolio's, as its shares add up.
  var::UnitLoss portfolio() const {
    return [this](std::uint64_t s) {
      const std::vector<double>& u = losses_.at(s);
      return std::accumulate(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(positions_), 0.0);
    };
  }

 private:
  std::map<std::uint64_t, std::vector<double>> losses_;
  std::size_t positions_ = 0;
};

inline ScenarioUnits scenario_units(const DeviceList& devices, const var::RiskKernel& kernel,
                             const std::vector<var::WeightedLevel>& levels) {
  std::set<std::uint64_t> wanted;
  for (const var::WeightedLevel& l : levels) {
    for (const var::Coefficient& c : l.es_terms) wanted.insert(c.scenario);
    for (const var::Coefficient& c : l.band) wanted.insert(c.scenario);
  }
  const std::vector<std::uint64_t> list(wanted.begin(), wanted.end());
  const auto units = static_cast<std::size_t>(kernel.units());
  constexpr std::size_t kBatch = 32;  // bands a mask holds
  std::map<std::uint64_t, std::vector<double>> out;
  for (std::size_t at = 0; at < list.size(); at += kBatch) {
    const std::size_t m = std::min(kBatch, list.size() - at);
    const std::vector<std::uint64_t> batch(list.begin() + static_cast<std::ptrdiff_t>(at),
                                           list.begin() + static_cast<std::ptrdiff_t>(at + m));
    std::vector<std::uint32_t> masks(m);
    for (std::size_t b = 0; b < m; ++b) masks[b] = 1u << b;
    std::vector<reduce::Fixed> sums(2 * m * units, 0);
    devices.front()->executor<RiskExecutor>().position_sums(kernel, batch, masks, static_cast<int>(m), sums.data());
    for (std::size_t b = 0; b < m; ++b) {
      std::vector<double>& u = out[batch[b]];
      for (std::size_t k = 0; k < units; ++k) u.push_back(kernel.unit.to_double(sums[2 * b * units + k]));
    }
  }
  return {std::move(out), static_cast<std::size_t>(kernel.positions())};
}

}  // namespace mcsim::risk
