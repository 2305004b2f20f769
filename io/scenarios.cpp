#include "io/scenarios.hpp"

#include "io/output_files.hpp"

#include <set>

namespace mcsim::io {

std::string yaml_text(const YAML::Node& value) {
  if (value.IsScalar()) return value.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << value;
  return out.c_str();
}

namespace {

// Only the model may differ between scenarios: the run: block fixes the paths,
// seed and chunks that make them paired.
bool check_key(Block& block, const std::string& where, const std::string& key, const YAML::Mark& mark) {
  Diagnostics& diag = block.diagnostics();
  if (key.rfind("model.", 0) != 0 || key.size() <= 6) {
    diag.error(mark, where, "'" + key + "' cannot vary between scenarios: only model keys can (model.KEY...), "
                            "as every scenario shares the run: block and so the same random numbers");
    return false;
  }
  if (key == "model.type") {
    diag.error(mark, where, "model.type cannot vary between scenarios; run another job for another model");
    return false;
  }
  return true;
}

// A scenario's name becomes an HDF5 group and a column of tables.
bool check_name(Block& block, const std::string& where, const std::string& name, const YAML::Mark& mark,
                std::set<std::string>& seen) {
  std::string why;
  const std::string problem = file_name_problem(name);
  if (name.empty()) why = "a scenario needs a name";
  else if (!problem.empty()) why = "a scenario's name becomes part of its checkpoint's file name, and this one " + problem;
  else if (!seen.insert(name).second) why = "two scenarios are named '" + name + "'";
  if (!why.empty()) block.diagnostics().error(mark, where, why);
  return why.empty();
}

void read_list(Block& top, std::vector<ScenarioSpec>& out, std::set<std::string>& seen) {
  for (Block& s : top.children("scenarios")) {
    ScenarioSpec spec;
    spec.name = s.text("name", std::nullopt);
    if (!spec.name.empty() && !check_name(s, s.key_path("name"), spec.name, s.mark("name"), seen)) spec.name.clear();
    const YAML::Node set = s.raw("set");
    if (set.IsDefined() && !set.IsMap()) {
      s.error("set", "expected a mapping of dotted keys to values, e.g. { model.process.volatility: 0.25 }");
    } else if (set.IsDefined()) {
      for (const auto& kv : set) {
        const std::string key = kv.first.Scalar();
        if (check_key(s, s.key_path("set." + key), key, kv.first.Mark())) spec.sets.emplace_back(key, kv.second);
      }
    }
    s.finish();
    if (spec.name.empty()) continue;
    if (spec.name == "base") out.insert(out.begin(), spec);
    else out.push_back(spec);
  }
}

void read_grid(Block& top, std::vector<ScenarioSpec>& out, std::set<std::string>& seen) {
  const YAML::Node grid = top.raw("sweep");
  if (!grid.IsDefined()) return;
  if (!grid.IsMap() || grid.size() == 0) {
    top.error("sweep", "expected a mapping of dotted keys to lists of values, e.g. { model.process.volatility: [0.1, 0.2] }");
    return;
  }
  std::vector<std::pair<std::string, std::vector<YAML::Node>>> axes;
  std::size_t points = 1;
  for (const auto& kv : grid) {
    const std::string key = kv.first.Scalar(), where = "sweep." + key;
    if (!check_key(top, where, key, kv.first.Mark())) continue;
    if (!kv.second.IsSequence() || kv.second.size() == 0) {
      top.diagnostics().error(kv.second.Mark(), where, "expected a list of one or more values, e.g. [0.1, 0.2, 0.3]");
      continue;
    }
    axes.emplace_back(key, std::vector<YAML::Node>(kv.second.begin(), kv.second.end()));
    points *= kv.second.size();
    if (points > kMaxScenarios) {
      top.error("sweep", "the grid has more than " + std::to_string(kMaxScenarios) + " points");
      return;
    }
  }
  if (axes.empty()) return;
  // Names from the keys' last parts (volatility=0.1,strike=90), or the whole keys
  // where two axes end alike.
  std::set<std::string> last_parts;
  for (const auto& [key, values] : axes) last_parts.insert(key.substr(key.rfind('.') + 1));
  const bool short_names = last_parts.size() == axes.size();
  for (std::size_t p = 0; p < points; ++p) {
    ScenarioSpec spec;
    std::size_t rest = p;
    std::vector<std::string> parts(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {  // the last key varies fastest
      const auto& [key, values] = axes[a];
      const YAML::Node& v = values[rest % values.size()];
      rest /= values.size();
      spec.sets.emplace(spec.sets.begin(), key, v);
      parts[a] = (short_names ? key.substr(key.rfind('.') + 1) : key) + "=" + yaml_text(v);
    }
    for (const auto& part : parts) spec.name += (spec.name.empty() ? "" : ",") + part;
    if (check_name(top, "sweep", spec.name, grid.Mark(), seen)) out.push_back(spec);
  }
}

}  // namespace

std::vector<ScenarioSpec> read_scenarios(Block& top) {
  std::vector<ScenarioSpec> out;
  std::set<std::string> seen;
  read_list(top, out, seen);
  if (out.empty() || out.front().name != "base") out.insert(out.begin(), ScenarioSpec{"base", {}});
  read_grid(top, out, seen);
  if (out.size() > kMaxScenarios)
    top.error("scenarios", "a job has at most " + std::to_string(kMaxScenarios) + " scenarios");
  return out;
}


// The scenarios: and sweep: blocks' keys.
// Each key once: its type, default, range or choices and meaning as its reader
// above describes them (a test loads every job the tests do and fails on a key
// read that is missing here or described otherwise).
const std::vector<io::KeySchema>& scenario_keys() {
  static const std::vector<io::KeySchema> keys{
      {"scenarios", "list of blocks", "-", "",
       "what-if runs on the same random numbers as base, each reported with its difference from base"},
      {"scenarios[].name", "text", "", "",
       "the scenario's name (base: the reference scenario)"},
      {"scenarios[].set", "any", "-", "",
       "model keys by dotted path and their values in this scenario"},
      {"sweep", "any", "-", "",
       "a grid: model keys by dotted path, each with a list of values; every combination is a scenario"},
  };
  return keys;
}

}  // namespace mcsim::io
