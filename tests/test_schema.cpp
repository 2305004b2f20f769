// mcsim schema: every key declared next to its reader, as the reader describes it;
// every declared key read by some example job.
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
    if (e.path().extension() != ".yaml") continue;  // data files the jobs name sit in configs/data
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    io::load_job_text(text.str(), e.path().string(), {}, &rec, e.path().parent_path().string());
  }
  return rec;
}
}  // namespace

TEST_CASE("every key the examples read is declared as read and every declared key is read", "[config][schema]") {
  const io::SchemaRecorder rec = examples();
  CHECK_NOTHROW(io::check_declared(rec));
  std::set<std::string> recorded;
  for (const auto& k : rec.keys()) recorded.insert(k.path);
  for (const auto& k : io::declared_keys()) {
    INFO(k.path << " is declared but no example job reads it");
    CHECK(recorded.count(k.path) == 1);
    INFO(k.path << " has no meaning");
    CHECK(!k.meaning.empty());
  }
}

TEST_CASE("a key read but not declared or declared otherwise is caught", "[config][schema]") {
  io::SchemaRecorder unknown;
  unknown.record({"model.process.jump_intensity", "number", "0", ">= 0", ""});
  CHECK_THROWS_WITH(io::check_declared(unknown), Catch::Contains("model.process.jump_intensity is read but not declared"));
  io::SchemaRecorder other_default;
  other_default.record({"run.seed", "whole number", "1", ">= 0", ""});
  CHECK_THROWS_WITH(io::check_declared(other_default), Catch::Contains("run.seed has default '1'"));
  io::SchemaRecorder other_type;
  other_type.record({"run.paths", "number", "", ">= 1, <= 9223372036854775808", ""});
  CHECK_THROWS_WITH(io::check_declared(other_type), Catch::Contains("run.paths is read as 'number'"));
}

TEST_CASE("the schema gives each key its type default and range from the parser", "[config][schema]") {
  std::map<std::string, io::KeySchema> keys;
  for (const auto& k : io::declared_keys()) keys[k.path] = k;
  CHECK(keys.at("run.paths").type == "whole number");
  CHECK(keys.at("run.paths").fallback.empty());  // required
  CHECK(keys.at("run.precision").allowed == "float, double");
  CHECK(keys.at("run.precision").fallback == "double");
  CHECK(keys.at("model.process.volatility").allowed == "in (0, 5]");
  CHECK(keys.at("model.weight_cutoff").allowed == "in (0, 1)");
  CHECK(keys.at("model.weight_cutoff").fallback == "0.25");
  const std::string total = keys.at("model.materials[].total").type;  // one group or several
  CHECK((total == "list of numbers or number" || total == "number or list of numbers"));
  CHECK(keys.at("model.regions").allowed == "the materials' names");  // not one job's names
  const std::string text = io::schema_reference(false);
  CHECK(text.find("run.seed\n  whole number (>= 0), default 0\n  the Philox key") != std::string::npos);
}
