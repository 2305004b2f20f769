// The option-pricing model: its parameters as read from `model:`, the analytic
// references, and the path kernel for each precision.
#pragma once
#include <memory>
#include <string>

#include "io/block.hpp"
#include "models/model.hpp"

namespace mcsim::option {

struct OptionSpec {
  // process: gbm
  double spot = 0, rate = 0, dividend = 0, volatility = 0;
  // instrument
  std::string instrument;  // european | digital
  bool call = true;
  double strike = 0, maturity = 0, cash = 1;
  std::uint64_t steps = 1;
  bool antithetic = false;
};

class OptionModel : public Model {
 public:
  explicit OptionModel(OptionSpec spec) : spec_(spec) {}
  std::vector<std::string> outputs() const override { return {"price"}; }
  std::vector<Reference> references() const override;
  PathKernel kernel(Precision precision) const override;
  std::string describe() const override;
  const OptionSpec& spec() const { return spec_; }

 private:
  OptionSpec spec_;
};

std::unique_ptr<Model> parse_option_model(io::Block& model);

}  // namespace mcsim::option
