// What the driver knows of a model: its tally layout, how estimates come from the
// summed tally, its analytic references and a path kernel to run. The maths stays
// behind kernel() and summarise().
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/kernels.hpp"
#include "reduce/stats.hpp"

namespace mcsim {

enum class Precision { Float, Double };

class Model;

// What a kernel is built for: `seed` is the job's (a model that draws random numbers
// to build its kernel, such as an American option's exercise rule, draws them from
// the job's streams, and scrambled Sobol points are keyed by it); `chunk_paths` is
// the chunk size (a Sobol chunk is one scrambled point set).
struct KernelSetup {
  Precision precision;
  std::uint64_t seed;
  std::uint64_t chunk_paths;
  // A bumped rerun's base model (GreekBump::holds_fit): the kernel follows what the
  // base built (a local volatility grid) instead of building its own.
  const Model* fitted_by = nullptr;
};

struct Reference {
  std::string name;
  double value;
  double tolerance = 0;  // stated error of an approximate closed form (0: exact)
};

// What an estimate's `samples` count ("paths", "histories", "generations",
// "scenarios") and its unit ("" where it has none or the job's money is meant).
struct EstimateInfo {
  std::string samples_of = "paths";
  std::string unit;
};

// Estimates from a summed tally, and figures about how they were made (such as a
// variance-reduction factor), stored with the scenario.
struct Summary {
  std::vector<reduce::Estimate> estimates;
  std::vector<std::pair<std::string, double>> diagnostics;
};

// One sensitivity by bump and revalue on common random numbers: the job rerun with
// `key` moved from `value` by +-step (Central, Second) or by -step (Decay: the value
// a step of time later, per unit of time).
struct GreekBump {
  enum class Scheme { Central, Second, Decay };
  std::string greek, key;
  double value, step;
  Scheme scheme;
  // The key's value at x where it is not x itself (a matrix entry: the whole matrix).
  std::function<std::string(double)> text = nullptr;
  // The reruns follow what the base job built (KernelSetup::fitted_by): its local
  // volatility grid, sigma(t, S) held as the path's own Greeks hold it.
  bool holds_fit = false;
};

class Model {
 public:
  virtual ~Model() = default;
  // Tally output names, in tally order.
  virtual std::vector<std::string> outputs() const = 0;
  // Default: one estimate per output, its mean.
  virtual Summary summarise(const std::vector<double>& total) const {
    return {reduce::estimates(total, outputs()), {}};
  }
  // Closed-form values of some outputs, where the model has them.
  virtual std::vector<Reference> references() const = 0;
  // The path kernel of a path-by-path model (portfolio risk runs scenario passes
  // instead: models/var/var_model.hpp).
  virtual PathKernel kernel(const KernelSetup& setup) const;
  // True when each chunk is an independent randomisation of the whole estimator
  // (scrambled Sobol points): chunks are then 2^m paths, and errors come from the
  // spread of the chunk means.
  virtual bool chunk_replicates() const { return false; }
  // The Greeks the job asked for, as bumps of its own config keys.
  virtual std::vector<GreekBump> greek_bumps() const { return {}; }
  // Time steps a path takes (sizes the planner's default chunks).
  virtual std::uint64_t steps_per_path() const { return 1; }
  // The most chunks the planner's default chunk size leaves a job (0: its own limit).
  virtual std::uint64_t max_default_chunks() const { return 0; }
  // What one of its estimates counts and is measured in (show, Python).
  virtual EstimateInfo describe_estimate(const std::string& /*name*/) const { return {}; }
  // One line for the terminal summary.
  virtual std::string describe() const = 0;
};

}  // namespace mcsim
