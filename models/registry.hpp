// Model families by their `model.type` name.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/model.hpp"

namespace mcsim {

struct ModelFamily {
  std::string type;
  // Reads and validates the `model:` block; returns null when it reported errors.
  std::unique_ptr<Model> (*parse)(io::Block& model);
  // Every key of its model: block, declared (mcsim schema).
  const std::vector<io::KeySchema>& (*keys)();
};

const std::vector<ModelFamily>& model_families();

}  // namespace mcsim
