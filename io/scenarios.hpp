// What-if scenarios: the `scenarios:` list (named sets of overrides) and the
// `sweep:` grid (every combination of the values given per key), expanded into one
// list. Scenarios share the run: block, so each draws the same random numbers as
// the base scenario, and their differences from it are paired.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"

namespace mcsim::io {

// More scenarios than this is almost surely a grid written by mistake.
constexpr std::size_t kMaxScenarios = 4096;

struct ScenarioSpec {
  std::string name;
  std::vector<std::pair<std::string, YAML::Node>> sets;  // dotted key -> value as written
};

// The scenarios of the top block, `base` first: the one the list names base, or
// else the config as written. Then the listed ones, then the grid's points in order
// (the last key varying fastest). Errors go to the block's diagnostics.
std::vector<ScenarioSpec> read_scenarios(Block& top);
// The scenarios: and sweep: blocks' keys (mcsim schema).
const std::vector<KeySchema>& scenario_keys();

// A value as one line of YAML: 0.25, [1, 2], {a: 1}.
std::string yaml_text(const YAML::Node& value);

}  // namespace mcsim::io
