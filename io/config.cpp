#include "io/config.hpp"

#include "io/output_files.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
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
// tree a graph whose expansion is exponential in the file's size (ten levels of
// nine-fold aliases: 9^10 values): `budget` bounds the values visited, and running
// out of it is an error.
struct Walk {
  std::uint64_t budget;
  bool exhausted = false;
};
void check_duplicate_keys(const YAML::Node& node, const std::string& path, Diagnostics& diag, Walk& walk, int depth = 0) {
  if (depth > 64 || walk.exhausted) return;
  if (walk.budget-- == 0) {
    walk.exhausted = true;
    diag.error(node.Mark(), "", fmt::format("at '{}' the file expands (through YAML aliases) to more values than "
                                            "its size allows; write the values out, or use fewer aliases", path));
    return;
  }
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_duplicate_keys(node[i], path + "[" + std::to_string(i) + "]", diag, walk, depth + 1);
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
    check_duplicate_keys(kv.second, at, diag, walk, depth + 1);
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
  // Every scenario's tree in one node memory: a value set into a tree brings its
  // document's memory along (yaml-cpp merges the two), so in a memory of its own
  // each tree would take in the whole config again, a sweep's every point.
  YAML::Node trees;
  for (const ScenarioSpec& spec : specs) {
    Scenario s;
    s.name = spec.name;
    s.model = job.model;
    YAML::Node tree = YAML::Clone(plain);
    trees.push_back(tree);
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
      if (const std::uint64_t fixed = s.model ? fixed_paths(type, *s.model) : 0; fixed && fixed != job.run.paths)
        diag.error(YAML::Mark::null_mark(), "", fmt::format("the scenario's history gives {} scenarios, the job's {}: a "
                                                            "scenario keeps the job's paths", fixed, job.run.paths));
      diag.set_context("");
    }
    s.yaml = emit(tree);
    out.push_back(std::move(s));
  }
  return out;
}

RunConfig parse_run(Block& run, const std::string& file) {
  RunConfig r;
  run.schema_note("name", "the file's name without .yaml");
  run.schema_note("output", "results/NAME.h5");
  run.schema_note("chunk_paths", "chosen by the planner (see README)");
  r.name = run.text("name", stem(file));
  if (const std::string problem = file_name_problem(r.name); !problem.empty()) {
    if (run.has("name")) run.error("name", "names the default results file (results/NAME.h5), and this one " + problem);
    r.name = "job";  // a file's own name that cannot serve: the output must be given
  }
  // Required unless the model's input fixes it (check_paths).
  r.paths = run.has("paths") ? run.count("paths", std::nullopt, 1, kMaxPaths) : 0;
  r.seed = run.count("seed", 0);
  r.chunk_paths = run.count("chunk_paths", 0, kChunkMultiple);  // 0: the planner's (app/run/plan.hpp)
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
  if (const std::string problem = output_path_problem(r.output); !problem.empty() && run.has("output"))
    run.error("output", "the results path " + problem);
  r.target_rel_error = run.real("target_rel_error", 0.0, Range::positive());  // 0: no target
  r.target_abs_error = run.real("target_abs_error", 0.0, Range::positive());
  r.checkpoint_s = run.real("checkpoint_s", r.checkpoint_s, Range{0, 1e308, false, false});
  run.finish();
  return r;
}

// run.paths against the paths a model's input fixes (historical simulation's
// scenarios): taken from there when not given, and equal to them when given.
void check_paths(Block& run, RunConfig& r, const std::string& type, const Model* model) {
  if (!model) return;  // its errors are reported; whether it fixes the paths is not known
  const std::uint64_t fixed = fixed_paths(type, *model);
  if (!fixed) {
    if (!run.has("paths")) r.paths = run.count("paths", std::nullopt, 1, kMaxPaths);  // reports it missing
    return;
  }
  if (run.has("paths") && r.paths != fixed)
    run.error("paths", fmt::format("{} paths, but the model's input fixes {} (one scenario a window of the history); "
                                   "leave run.paths out", r.paths, fixed));
  r.paths = fixed;
}

// Chunks that are independent replicates (scrambled Sobol point sets): 2^m paths
// each, the job a whole number of them, enough of them for an error bar. Checks a
// chunk size given, or that some size exists (the planner picks it).
void check_replicates(Block& run, const RunConfig& r) {
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
  // Any size that fits divides paths, and so does the smallest.
  if (r.paths % kMinReplicatePaths || r.paths / kMinReplicatePaths < kMinReplicateChunks)
    run.error("paths", std::to_string(r.paths) + " paths cannot be split into such chunks: " + why +
                           " (e.g. paths: 1048576, 32 chunks of 32768)");
}

}  // namespace

namespace {
Job load(const std::string& text, const std::string& label, const std::vector<std::string>& overrides,
         SchemaRecorder* schema, const std::string& base_dir) {
  Diagnostics diag(label);
  diag.schema = schema;
  diag.base_dir = base_dir;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    diag.error_at(e.mark.line + 1, e.mark.column + 1, "YAML syntax error: " + e.msg);
    throw ConfigError(diag);
  }
  // A value takes at least two bytes of text; aliases may repeat some of them.
  Walk walk{100000 + 64 * static_cast<std::uint64_t>(text.size())};
  check_duplicate_keys(root, "", diag, walk);
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
  check_paths(run, job.run, job.model_type, job.model.get());
  const std::vector<ScenarioSpec> specs = read_scenarios(top);
  top.finish();

  if (!diag.empty() || !job.model) throw ConfigError(diag);
  if (job.model->chunk_replicates()) {
    check_replicates(run, job.run);
    if (!diag.empty()) throw ConfigError(diag);
  }
  job.yaml = emit(root);
  job.scenarios = build_scenarios(root, specs, job, diag);
  if (!diag.empty()) throw ConfigError(diag);
  return job;
}

}  // namespace

Job load_job_text(const std::string& text, const std::string& label,
                  const std::vector<std::string>& overrides, SchemaRecorder* schema, const std::string& base_dir) {
  static const bool checking = std::getenv("MCSIM_SCHEMA_CHECK") != nullptr;
  if (!checking) return load(text, label, overrides, schema, base_dir);
  SchemaRecorder mine;
  SchemaRecorder* rec = schema ? schema : &mine;
  try {
    Job job = load(text, label, overrides, rec, base_dir);
    check_declared(*rec);
    return job;
  } catch (const ConfigError&) {
    check_declared(*rec);
    throw;
  }
}

Job Job::scenario(std::size_t i) const {
  // Field by field: a copy of the whole would copy every scenario (a sweep's
  // thousand, for each of them).
  Job one;
  one.file = file, one.yaml = scenarios.at(i).yaml, one.model_type = model_type, one.run = run;
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
  const std::size_t slash = path.rfind('/');
  return load_job_text(ss.str(), path, overrides, nullptr, slash == std::string::npos ? "" : path.substr(0, std::max<std::size_t>(slash, 1)));
}


// The run: block's keys, the model: block's and its type. Each key once: its
// type, default, range or choices and meaning as the readers above describe them.
const std::vector<KeySchema>& loader_keys() {
  static const std::vector<KeySchema> keys{
      {"run", "block", "", "",
       "how the job runs: paths, seed, chunks, backend, precision, output"},
      {"run.name", "text", "the file's name without .yaml", "",
       "the job's name, shown in the summary and used for the default output"},
      {"run.paths", "whole number", "", ">= 1, <= 9223372036854775808",
       "paths, scenarios or particle histories (per generation for eigenvalue runs); 1e7 and 10_000_000 work"},
      {"run.seed", "whole number", "0", ">= 0",
       "the Philox key: the same seed gives the same bits on any thread, rank or device count of one backend"},
      {"run.chunk_paths", "whole number", "chosen by the planner (see README)", ">= 4",
       "paths per chunk, the unit of work, reduction and checkpoints (a multiple of 4)"},
      {"run.backend", "one of", "auto", "auto, cpu, cuda",
       "auto takes the GPUs when one is usable, else the CPU"},
      {"run.precision", "one of", "double", "float, double",
       "arithmetic of the paths; sums are always double"},
      {"run.output", "text", "results/NAME.h5", "",
       "the results file (HDF5), written to NAME.tmp and renamed"},
      {"run.target_rel_error", "number", "0", "> 0",
       "stop once every estimate's standard error is below this fraction of its value (0: run all paths)"},
      {"run.target_abs_error", "number", "0", "> 0",
       "stop once every estimate's standard error is below this (0: run all paths)"},
      {"run.checkpoint_s", "number", "60", ">= 0",
       "seconds between checkpoints of finished chunks (0: none)"},
      {"model", "block", "", "",
       "what is simulated: its type and the type's own keys"},
      {"model.type", "one of", "", "option, rates, var, transport",
       "the model family"},
  };
  return keys;
}

namespace {
// "a or b or c" as its parts.
std::vector<std::string> alternatives(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t at = 0;;) {
    const std::size_t next = s.find(" or ", at);
    out.push_back(s.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) return out;
    at = next + 4;
  }
}
bool within(const std::string& read, const std::string& declared) {
  const auto d = alternatives(declared);
  for (const std::string& part : alternatives(read))
    if (std::find(d.begin(), d.end(), part) == d.end()) return false;
  return true;
}
}  // namespace

void check_declared(const SchemaRecorder& recorded) {
  const std::vector<KeySchema> declared = declared_keys();
  for (const KeySchema& k : recorded.keys()) {
    const auto d = std::find_if(declared.begin(), declared.end(), [&](const KeySchema& x) { return x.path == k.path; });
    const auto fail = [&](const std::string& what) {
      throw std::logic_error("config key " + k.path + " " + what + " (declare it next to its reader; io/schema.hpp)");
    };
    if (d == declared.end()) fail("is read but not declared");
    if (!within(k.type, d->type)) fail("is read as '" + k.type + "' but declared '" + d->type + "'");
    if (d->fallback != "(depends on other keys)" && k.fallback != d->fallback)
      fail("has default '" + k.fallback + "' but is declared with '" + d->fallback + "'");
    if (!within(k.allowed, d->allowed)) fail("allows '" + k.allowed + "' but is declared to allow '" + d->allowed + "'");
  }
}

std::vector<KeySchema> declared_keys() {
  std::vector<KeySchema> out = loader_keys();
  for (const ModelFamily& f : model_families()) out.insert(out.end(), f.keys().begin(), f.keys().end());
  out.insert(out.end(), scenario_keys().begin(), scenario_keys().end());
  return out;
}

}  // namespace mcsim::io
