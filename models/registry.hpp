// Model families by their `model.type` name.
#pragma once
#include <cstdint>
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
  // The paths its model's input fixes (historical simulation's scenarios), 0 when
  // run.paths says; null: always run.paths.
  std::uint64_t (*fixed_paths)(const Model& model) = nullptr;
};

const std::vector<ModelFamily>& model_families();
// The paths a parsed model of family `type` fixes (0: run.paths says).
std::uint64_t fixed_paths(const std::string& type, const Model& model);

}  // namespace mcsim
