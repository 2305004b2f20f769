// The portfolio-risk model (type: var): its spec, the names of its estimates, the
// closed forms it is checked against, and the scenario kernel its passes run
// (app/risk.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/model.hpp"
#include "models/var/risk_kernel.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

// "0.99" for a level, as estimate names spell it: var_0.99, es_0.99.
std::string level_name(double level);

class VarModel : public Model {
 public:
  explicit VarModel(VarSpec spec);
  const VarSpec& spec() const { return spec_; }
  // var_<level> and es_<level> per level, pnl_mean, pnl_sd, then each position's
  // contributions var_<level>.<position> and es_<level>.<position>.
  std::vector<std::string> outputs() const override;
  // Exact VaR, ES and contributions when every position is on one asset and the
  // portfolio's value is monotone in it.
  std::vector<Reference> references() const override;
  std::string describe() const override;
  EstimateInfo describe_estimate(const std::string& name) const override;
  // The delta-normal and delta-gamma-normal VaR and ES, for comparison; under
  // Student-t shocks also `es_unbounded_positions`, the positions whose loss grows
  // without bound with the spot (short stock, forwards and calls): the spot then
  // has no finite mean, so their expected shortfall is infinite and its estimate
  // does not settle.
  std::vector<std::pair<std::string, double>> diagnostics() const;
  RiskKernel risk_kernel(Precision precision, std::uint64_t seed) const;
  // Historical simulation's scenarios, one a window of the history; else 0.
  std::uint64_t fixed_paths() const { return spec_.historical() ? spec_.scenarios() : 0; }
  // The delta-gamma-normal loss's mean and spread: where the first pass puts its bins.
  double approximate_mean() const { return mean_; }
  double approximate_sd() const { return sd_; }

 private:
  VarSpec spec_;
  double mean_ = 0, sd_ = 0;
};

std::unique_ptr<Model> parse_var_model(io::Block& model);
// The model: block's keys (mcsim schema).
const std::vector<io::KeySchema>& var_keys();

}  // namespace mcsim::var
