#include "io/config.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <map>
#include <sstream>

#include "io/block.hpp"
#include "io/scenarios.hpp"
#include "models/registry.hpp"

namespace mcsim::io {

const char* to_string(BackendChoice b) {
  switch (b) {
    case BackendChoice::Cpu: return "cpu";
    case BackendChoice::Cuda: return "cuda";
    default: return "auto";
  }
}

const char* to_string(Precision p) { return p == Precision::Float ? "float" : "double"; }

std::uint64_t default_chunk_paths(std::uint64_t paths, std::uint64_t steps, std::uint64_t max_chunks) {
  // About kDefaultChunkPaths path-steps a chunk, at least kMinDefaultChunkPaths paths.
  std::uint64_t c = kDefaultChunkPaths;
  while (c > kMinDefaultChunkPaths && c * steps > 2 * kDefaultChunkPaths) c /= 2;
  if (paths == 0) return c;
  while ((paths - 1) / c + 1 > max_chunks) c *= 2;  // ceil(paths / c)
  return c;
}

namespace {

std::string stem(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// Sets the dotted KEY to VALUE in the tree, creating mappings on the way. `label`
// names where the assignment came from in errors ("--set KEY").
bool set_key(YAML::Node root, const std::string& key, const YAML::Node& value, const std::string& label,
             Diagnostics& diag) {
  std::vector<std::string> parts;
  std::stringstream ss(key);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  // A number names an item of a list: model.process.assets.0.spot.
  const auto number = [](const std::string& part) {
    return !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
  };
  YAML::Node cur = root;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    if (cur.IsSequence()) {
      const std::size_t at = number(parts[i]) && parts[i].size() < 10 ? std::stoul(parts[i]) : cur.size();
      if (at >= cur.size()) {
        diag.error(YAML::Mark::null_mark(), "", label + ": the list has no item " + parts[i] + " (it holds " +
                                                    std::to_string(cur.size()) + ", numbered from 0)");
        return false;
      }
      if (last) cur[at] = value;
      else cur.reset(cur[at]);
      continue;
    }
    if (last) {
      if (value.IsNull()) cur.remove(parts.back());  // KEY=null removes the key
      else cur[parts.back()] = value;
      break;
    }
    YAML::Node next = cur[parts[i]];
    if (next.IsDefined() && !next.IsNull() && !next.IsMap() && !next.IsSequence()) {
      diag.error(YAML::Mark::null_mark(), "", label + ": '" + parts[i] + "' holds a value, not a block of keys");
      return false;
    }
    if (!next.IsMap() && !next.IsSequence()) cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
    cur.reset(cur[parts[i]]);
  }
  return true;
}

// YAML allows a mapping to repeat a key (the parser keeps both); a job file must
// not, since one of the two values would be silently ignored. Aliases can make the
// tree a graph: `depth` bounds the walk.
void check_duplicate_keys(const YAML::Node& node, const std::string& path, Diagnostics& diag, int depth = 0) {
  if (depth > 64) return;
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) check_duplicate_keys(node[i], path + "[" + std::to_string(i) + "]", diag, depth + 1);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const std::string at = path.empty() ? key : path + "." + key;
    const auto [first, fresh] = seen.emplace(key, kv.first.Mark());
    if (!fresh)
      diag.error(kv.first.Mark(), "", fmt::format("'{}' is given twice (first on line {}); keep one", at, first->second.line + 1));
    check_duplicate_keys(kv.second, at, diag, depth + 1);
  }
}

// --set KEY=VALUE; errors in the value are then reported against the option.
void apply_override(YAML::Node root, const std::string& assignment, Diagnostics& diag) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    diag.error(YAML::Mark::null_mark(), "",
               "--set '" + assignment + "': expected KEY=VALUE, e.g. model.process.volatility=0.3");
    return;
  }
  const std::string key = assignment.substr(0, eq);
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    diag.error(YAML::Mark::null_mark(), "", "--set " + key + ": cannot read value: " + e.msg);
    return;
  }
  if (set_key(root, key, value, "--set " + key, diag)) diag.mark_overridden(key);
}

// The model block of a config tree: its type and the model.
std::shared_ptr<const Model> parse_model(Block& top, std::string* type) {
  Block model = top.child("model", true);
  std::vector<std::string> types;
  for (const auto& f : model_families()) types.push_back(f.type);
  if (!model.valid()) return nullptr;
  *type = model.choice("type", types, std::nullopt);
  std::shared_ptr<const Model> out;
  for (const auto& f : model_families())
    if (f.type == *type) out = f.parse(model);
  if (!type->empty()) model.finish();
  return out;
}

std::string emit(const YAML::Node& root) {
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

// Each scenario's config and model; the values a scenario sets keep their place in
// the file, so its errors point there.
std::vector<Scenario> build_scenarios(const YAML::Node& root, const std::vector<ScenarioSpec>& specs, const Job& job,
                                      Diagnostics& diag) {
  YAML::Node plain = YAML::Clone(root);
  plain.remove("scenarios");
  plain.remove("sweep");
  std::vector<Scenario> out;
  for (const ScenarioSpec& spec : specs) {
    Scenario s;
    s.name = spec.name;
    s.model = job.model;
    YAML::Node tree = YAML::Clone(plain);
    if (!spec.sets.empty()) {
      diag.set_context("scenario " + spec.name);
      bool ok = true;
      for (const auto& [key, value] : spec.sets) {
        ok = set_key(tree, key, value, "set " + key, diag) && ok;
        s.overrides.emplace_back(key, yaml_text(value));
      }
      Block top(tree, "", diag);
      std::string type;
      if (ok) s.model = parse_model(top, &type);
      diag.set_context("");
    }
    s.yaml = emit(tree);
    out.push_back(std::move(s));
  }
  return out;
}

// Scenarios are compared through the spread of their differences over batches of
// chunks: without run.chunk_paths, a job with scenarios gets at least this many.
constexpr std::uint64_t kScenarioBatches = 64;

RunConfig parse_run(Block& run, const std::string& file) {
  RunConfig r;
  run.schema_note("name", "the file's name without .yaml");
  run.schema_note("output", "results/NAME.h5");
  run.schema_note("chunk_paths", "chosen by the planner (see README)");
  r.name = run.text("name", stem(file));
  r.paths = run.count("paths", std::nullopt, 1, kMaxPaths);
  r.seed = run.count("seed", 0);
  r.chunk_paths = run.count("chunk_paths", kDefaultChunkPaths, kChunkMultiple);  // default: see load_job_text
  if (r.chunk_paths % kChunkMultiple != 0)
    run.error("chunk_paths", "must be a multiple of " + std::to_string(kChunkMultiple) +
                                 " (got " + std::to_string(r.chunk_paths) + ")");
  const std::string backend = run.choice("backend", {"auto", "cpu", "cuda"}, std::string("auto"));
  r.backend = backend == "cpu" ? BackendChoice::Cpu
              : backend == "cuda" ? BackendChoice::Cuda
                                  : BackendChoice::Auto;
  r.precision = run.choice("precision", {"float", "double"}, std::string("double")) == "float"
                    ? Precision::Float
                    : Precision::Double;
  r.output = run.text("output", "results/" + r.name + ".h5");
  r.target_rel_error = run.real("target_rel_error", 0.0, Range::positive());  // 0: no target
  r.target_abs_error = run.real("target_abs_error", 0.0, Range::positive());
  r.checkpoint_s = run.real("checkpoint_s", r.checkpoint_s, Range{0, 1e308, false, false});
  run.finish();
  return r;
}

// Chunks that are independent replicates (scrambled Sobol point sets): 2^m paths
// each, the job a whole number of them, enough of them for an error bar. By
// default the largest such chunk leaving at least kReplicateChunks of them.
constexpr std::uint64_t kMinReplicatePaths = 1024, kMaxReplicatePaths = std::uint64_t{1} << 24;
constexpr std::uint64_t kReplicateChunks = 32, kMinReplicateChunks = 8;
void replicate_chunks(Block& run, RunConfig& r) {
  const auto power_of_two = [](std::uint64_t x) { return x && !(x & (x - 1)); };
  const std::string why = "with variance_reduction sobol each chunk is one scrambled point set of 2^m paths "
                          "(1024 to 2^24), and the job needs at least 8 of them for its error bar";
  if (run.has("chunk_paths")) {
    const std::uint64_t c = r.chunk_paths;
    if (!power_of_two(c) || c < kMinReplicatePaths || c > kMaxReplicatePaths)
      return run.error("chunk_paths", std::to_string(c) + " is not a power of two from 1024 to 2^24: " + why);
    if (r.paths % c || r.paths / c < kMinReplicateChunks)
      run.error("paths", std::to_string(r.paths) + " is not a multiple of 8 or more chunks of " + std::to_string(c) +
                             ": " + why);
    return;
  }
  std::uint64_t c = kMaxReplicatePaths;
  while (c > kMinReplicatePaths && (r.paths % c || r.paths / c < kReplicateChunks)) c /= 2;
  if (r.paths % c || r.paths / c < kMinReplicateChunks)
    return run.error("paths", std::to_string(r.paths) + " paths cannot be split into such chunks: " + why +
                                  " (e.g. paths: 1048576, 32 chunks of 32768)");
  r.chunk_paths = c;
}

}  // namespace

Job load_job_text(const std::string& text, const std::string& label,
                  const std::vector<std::string>& overrides, SchemaRecorder* schema) {
  Diagnostics diag(label);
  diag.schema = schema;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    diag.error_at(e.mark.line + 1, e.mark.column + 1, "YAML syntax error: " + e.msg);
    throw ConfigError(diag);
  }
  check_duplicate_keys(root, "", diag);
  if (!diag.empty()) throw ConfigError(diag);
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) {
    diag.error(root.Mark(), "", "a job file is a mapping with the blocks run: and model:");
    throw ConfigError(diag);
  }
  for (const auto& o : overrides) apply_override(root, o, diag);

  Job job;
  job.file = label;
  Block top(root, "", diag);
  Block run = top.child("run", true);
  job.run = parse_run(run, label);
  job.model = parse_model(top, &job.model_type);
  const std::vector<ScenarioSpec> specs = read_scenarios(top);
  top.finish();

  if (!diag.empty() || !job.model) throw ConfigError(diag);
  if (job.model->chunk_replicates()) {
    replicate_chunks(run, job.run);
    if (!diag.empty()) throw ConfigError(diag);
  } else if (!run.has("chunk_paths")) {
    const std::uint64_t most = job.model->max_default_chunks();
    std::uint64_t& c = job.run.chunk_paths;
    c = default_chunk_paths(job.run.paths, job.model->steps_per_path(), most ? most : kMaxDefaultChunks);
    if (specs.size() > 1)
      while (c > kMinDefaultChunkPaths && (job.run.paths - 1) / c + 1 < kScenarioBatches) c /= 2;
  }
  job.yaml = emit(root);
  job.scenarios = build_scenarios(root, specs, job, diag);
  if (!diag.empty()) throw ConfigError(diag);
  return job;
}

Job Job::scenario(std::size_t i) const {
  Job one = *this;
  one.yaml = scenarios.at(i).yaml;
  one.model = scenarios[i].model;
  one.scenarios = {scenarios[i]};
  return one;
}

Job load_job_file(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) {
    Diagnostics diag(path);
    diag.error(YAML::Mark::null_mark(), "", "cannot open the config file");
    throw ConfigError(diag);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return load_job_text(ss.str(), path, overrides);
}

}  // namespace mcsim::io
