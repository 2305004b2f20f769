// The portfolio-risk job as read from `model:` (type: var): risk factors moving
// over a horizon, and a portfolio revalued in full at its end.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "models/var/revalue.hpp"

namespace mcsim::var {

constexpr double kTradingDays = 252;  // a horizon of 252 days is one year
constexpr std::size_t kMaxLevels = 10;  // confidence levels a job may ask for

struct RiskAsset {
  std::string name;
  double spot = 0, volatility = 0, drift = 0;  // GBM: d ln S = (drift - vol^2 / 2) dt + vol dW
};

struct Position {
  Instrument instrument = Instrument::Stock;
  int asset = 0;          // index into VarSpec::assets
  double quantity = 0;    // negative: short
  double strike = 0;      // forward: delivery price; option: strike
  double maturity = 0;    // years from today (forwards and options)
  std::string name;       // default p<index>: names its contributions
};

struct VarSpec {
  std::uint64_t horizon_days = 1;
  std::vector<double> confidence;  // levels, each in (0, 1)
  bool student_t = false;
  double dof = 0;                  // student_t: degrees of freedom (> 2: unit variance)
  std::vector<RiskAsset> assets;
  std::vector<std::vector<double>> correlation;
  std::vector<double> cholesky;    // row-major factor of `correlation`
  double rate = 0;
  std::vector<Position> portfolio;
  double horizon() const { return static_cast<double>(horizon_days) / kTradingDays; }
};

// Reads and checks the block; errors name the key and its line. Returns false
// after an error (the diagnostics hold them all).
bool parse_var_spec(io::Block& model, VarSpec& out);

}  // namespace mcsim::var
