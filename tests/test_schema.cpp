// mcsim schema: the keys the loader reads from the example jobs, each with a
// meaning, and no meaning for a key it no longer reads.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "io/config.hpp"
#include "io/schema.hpp"

using namespace mcsim;
namespace fs = std::filesystem;

namespace {
io::SchemaRecorder examples() {
  io::SchemaRecorder rec;
  for (const auto& e : fs::directory_iterator(std::string(MCSIM_SOURCE_DIR) + "/configs")) {
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    io::load_job_text(text.str(), e.path().string(), {}, &rec);
  }
  return rec;
}
}  // namespace

TEST_CASE("every key the loader reads has a meaning and every meaning a key", "[config][schema]") {
  std::set<std::string> recorded;
  for (const auto& k : examples().keys()) {
    INFO(k.path);
    CHECK(io::key_meanings().count(k.path) == 1);
    recorded.insert(k.path);
  }
  for (const auto& [path, meaning] : io::key_meanings()) {
    INFO(path << " has a meaning but no example job reads it");
    CHECK(recorded.count(path) == 1);
  }
}

TEST_CASE("the schema gives each key its type default and range from the parser", "[config][schema]") {
  std::map<std::string, io::KeySchema> keys;
  for (const auto& k : examples().keys()) keys[k.path] = k;
  CHECK(keys.at("run.paths").type == "whole number");
  CHECK(keys.at("run.paths").fallback.empty());  // required
  CHECK(keys.at("run.precision").allowed == "float, double");
  CHECK(keys.at("run.precision").fallback == "double");
  CHECK(keys.at("model.process.volatility").allowed == "> 0");
  CHECK(keys.at("model.weight_cutoff").allowed == "in (0, 1)");
  CHECK(keys.at("model.weight_cutoff").fallback == "0.25");
  const std::string total = keys.at("model.materials[].total").type;  // one group or several
  CHECK((total == "list of numbers or number" || total == "number or list of numbers"));
  CHECK(keys.at("model.regions").allowed == "the materials' names");  // not one job's names
  const std::string text = io::schema_reference({std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml"}, false);
  CHECK(text.find("run.seed\n  whole number (>= 0), default 0\n  the Philox key") != std::string::npos);
}
