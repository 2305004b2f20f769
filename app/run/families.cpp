#include "app/run/families.hpp"

#include <stdexcept>
#include <vector>

#include "app/run/option/job.hpp"
#include "app/run/risk/job.hpp"
#include "app/run/transport/job.hpp"

namespace mcsim {

const FamilyRun& family_run(const std::string& type) {
  static const std::vector<FamilyRun> families = {
      {"option", &run_option_scenario},
      {"rates", &run_option_scenario},  // path kernels, as option pricing
      {"var", &run_risk_scenario},
      {"transport", &run_transport_scenario},
  };
  for (const FamilyRun& f : families)
    if (f.type == type) return f;
  throw std::logic_error("no run for model type '" + type + "'");
}

}  // namespace mcsim
