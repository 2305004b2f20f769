#include "models/registry.hpp"

#include "models/option/option_model.hpp"
#include "models/rates/rate_model.hpp"
#include "models/transport/transport_model.hpp"
#include "models/var/var_model.hpp"

namespace mcsim {

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> families = {
      {"option", &option::parse_option_model, &option::option_keys},
      {"rates", &rates::parse_rate_model, &rates::rate_keys},
      {"var", &var::parse_var_model, &var::var_keys,
       [](const Model& m) { return static_cast<const var::VarModel&>(m).fixed_paths(); }},
      {"transport", &transport::parse_transport_model, &transport::transport_keys},
  };
  return families;
}

std::uint64_t fixed_paths(const std::string& type, const Model& model) {
  for (const ModelFamily& f : model_families())
    if (f.type == type && f.fixed_paths) return f.fixed_paths(model);
  return 0;
}

}  // namespace mcsim
