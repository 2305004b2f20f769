// What the driver knows of a model: its estimate names, its analytic references
// and a path kernel to run. The maths stays behind kernel().
#pragma once
#include <string>
#include <vector>

#include "models/kernels.hpp"

namespace mcsim {

enum class Precision { Float, Double };

struct Reference {
  std::string name;
  double value;
  double tolerance = 0;  // stated error of an approximate closed form (0: exact)
};

class Model {
 public:
  virtual ~Model() = default;
  // Estimate names, in tally order.
  virtual std::vector<std::string> outputs() const = 0;
  // Closed-form values of some outputs, where the model has them.
  virtual std::vector<Reference> references() const = 0;
  virtual PathKernel kernel(Precision precision) const = 0;
  // Time steps a path takes (sizes the planner's default chunks).
  virtual std::uint64_t steps_per_path() const { return 1; }
  // One line for the terminal summary.
  virtual std::string describe() const = 0;
};

}  // namespace mcsim
