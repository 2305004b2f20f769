// The option-pricing model: its parameters as read from `model:`, the analytic
// references, and the path kernel for each precision.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/model.hpp"

namespace mcsim::option {

struct Asset {
  std::string name;
  double spot = 0, volatility = 0, dividend = 0;
};

struct OptionSpec {
  // process: gbm (volatility) or heston (v0, kappa, theta, xi, rho; scheme qe | euler)
  std::string process = "gbm";
  double spot = 0, rate = 0, dividend = 0, volatility = 0;
  // Several correlated GBM assets (a basket) replace spot, volatility and dividend.
  std::vector<Asset> assets;
  std::vector<std::vector<double>> correlation;
  std::vector<double> cholesky;  // row-major factor of `correlation`
  double v0 = 0, kappa = 0, theta = 0, xi = 0, rho = 0;
  bool qe = true;
  // instrument
  std::string instrument;  // european | digital | asian | barrier | lookback | basket | american | bermudan
  bool call = true;
  double strike = 0, maturity = 0, cash = 1;
  std::uint64_t steps = 1;          // path steps: the fixings of an Asian, the monitoring dates
  std::vector<double> times;        // fixing times (years) when given, else equal steps
  std::string average;              // asian: arithmetic | geometric
  std::string strike_type;          // lookback: fixed | floating
  std::string knock;                // "" or down-and-out | up-and-out | down-and-in | up-and-in
  double barrier = 0, rebate = 0;   // rebate paid at expiry
  bool continuous = false;          // monitoring of barrier and extremes
  std::string basket;               // basket: average | max | min | exchange | spread
  std::vector<double> weights;      // basket: one per asset
  // american: exercise at each of `steps` dates; bermudan: at `steps` = exercise_dates
  std::uint64_t regression_paths = 0;  // Longstaff-Schwartz's fit, separate from pricing
  bool antithetic = false;
  bool control_variate = false;     // geometric Asian for an arithmetic one, else the European
  bool sobol = false;               // scrambled Sobol points through the Brownian bridge
  std::vector<std::string> greeks;  // delta, gamma, vega, rho, theta
  bool path_dependent() const { return instrument == "asian" || instrument == "barrier" || instrument == "lookback"; }
  bool multi_asset() const { return !assets.empty(); }
  bool early_exercise() const { return instrument == "american" || instrument == "bermudan"; }
  bool heston() const { return process == "heston"; }
  // Walked step by step (StepPath): path-dependent payoffs, Heston paths, and GBM paths from Sobol points.
  bool stepped() const { return path_dependent() || heston() || sobol; }
};

class OptionModel : public Model {
 public:
  explicit OptionModel(OptionSpec spec) : spec_(spec) {}
  std::vector<std::string> outputs() const override;
  Summary summarise(const std::vector<double>& total) const override;
  std::vector<GreekBump> greek_bumps() const override;
  std::vector<Reference> references() const override;
  PathKernel kernel(const KernelSetup& setup) const override;
  bool chunk_replicates() const override { return spec_.sobol; }
  std::string describe() const override;
  std::uint64_t steps_per_path() const override {
    if (spec_.multi_asset()) return spec_.assets.size();  // one normal per asset
    const bool stepped = spec_.stepped() || spec_.early_exercise();
    return stepped ? (spec_.times.empty() ? spec_.steps : spec_.times.size()) : 1;
  }
  const OptionSpec& spec() const { return spec_; }

 private:
  std::vector<Reference> price_references() const;
  std::vector<std::string> path_greeks() const;
  std::vector<std::string> path_outputs() const;
  OptionSpec spec_;
};

std::unique_ptr<Model> parse_option_model(io::Block& model);
// The model: block's keys (mcsim schema).
const std::vector<io::KeySchema>& option_keys();

}  // namespace mcsim::option
