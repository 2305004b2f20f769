// Results for scripts (CSV, JSON) and the comparison of two runs.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "app/cli/report.hpp"

using namespace mcsim;

namespace {
io::Results two_scenarios() {
  io::Results r;
  r.backend = "cpu", r.precision = "double", r.seed = 5, r.paths = 1000;
  io::ScenarioResult base;
  base.estimates = {reduce::normal_estimate("price", 10.5, 0.25, 1000), reduce::normal_estimate("delta, call", 0.6, 0.01, 1000)};
  base.references = {{"price", 10.0, 0}};
  base.diagnostics = {{"vr_factor", 3.5}};
  io::ScenarioResult high = base;
  high.name = "vol \"high\"";
  high.overrides = {{"model.process.volatility", "0.3"}};
  high.estimates[1].std_error = NAN;
  reduce::Difference d;
  d.estimate = reduce::normal_estimate("price", 1.25, 0.05, 1000);
  d.unpaired_std_error = 0.35, d.batches = 64, d.reference = 1.2;
  high.differences = {d};
  r.scenarios = {base, high};
  return r;
}
}  // namespace

TEST_CASE("CSV has a row per scenario and estimate with its reference and z", "[report]") {
  const std::string csv = results_csv(two_scenarios());
  CHECK(csv.rfind("scenario,estimate,value,std_error,ci_low,ci_high,samples,reference,z,"
                  "minus_base,paired_std_error,unpaired_std_error,reference_minus_base\n", 0) == 0);
  CHECK(csv.find("\nbase,price,10.5,0.25,") != std::string::npos);
  CHECK(csv.find(",1000,10,2,,,,\n") != std::string::npos);  // z = (10.5 - 10) / 0.25; base has no difference
  CHECK(csv.find(",1000,10,2,1.25,0.050000000000000003,0.34999999999999998,1.2\n") != std::string::npos);
  CHECK(csv.find("\nbase,\"delta, call\",0.59999999999999998,") != std::string::npos);  // quoted, every digit
  CHECK(csv.find("\n\"vol \"\"high\"\"\",price,") != std::string::npos);
  std::size_t lines = 0;
  for (const char c : csv) lines += c == '\n';
  CHECK(lines == 5);
}

TEST_CASE("JSON parses back to the same numbers and marks a NaN as null", "[report]") {
  const io::Results r = two_scenarios();
  const YAML::Node j = YAML::Load(results_json(r));  // JSON is YAML
  REQUIRE(j["scenarios"].size() == 2);
  const YAML::Node price = j["scenarios"][0]["estimates"][0];
  CHECK(price["name"].as<std::string>() == "price");
  CHECK(price["value"].as<double>() == 10.5);
  CHECK(price["ci_low"].as<double>() == r.scenarios[0].estimates[0].ci_low);
  CHECK(price["reference"].as<double>() == 10.0);
  CHECK(price["z"].as<double>() == 2.0);
  CHECK(!j["scenarios"][0]["estimates"][1]["reference"]);
  CHECK(j["scenarios"][1]["name"].as<std::string>() == "vol \"high\"");
  CHECK(j["scenarios"][1]["overrides"]["model.process.volatility"].as<std::string>() == "0.3");
  CHECK(j["scenarios"][1]["estimates"][1]["std_error"].IsNull());
  CHECK(j["scenarios"][0]["diagnostics"]["vr_factor"].as<double>() == 3.5);
  CHECK(j["scenarios"][0]["differences"].size() == 0);
  const YAML::Node d = j["scenarios"][1]["differences"][0];
  CHECK(d["name"].as<std::string>() == "price");
  CHECK(d["value"].as<double>() == 1.25);
  CHECK(d["std_error"].as<double>() == 0.05);
  CHECK(d["unpaired_std_error"].as<double>() == 0.35);
  CHECK(d["batches"].as<int>() == 64);
  CHECK(d["reference"].as<double>() == 1.2);
  CHECK(j["seed"].as<int>() == 5);
}

TEST_CASE("diff agrees within combined errors and names what differs or is missing", "[report]") {
  const io::Results a = two_scenarios();
  io::Results b = a;
  CHECK(compare_results(a, b).agree());
  b.scenarios[0].estimates[0].value += 3.9 * std::hypot(0.25, 0.25);  // within 4 combined errors
  Comparison c = compare_results(a, b);
  CHECK(c.agree());
  CHECK(c.shared[0].z == Approx(3.9));
  b.scenarios[0].estimates[0].value = 10.5 + 4.1 * std::hypot(0.25, 0.25);
  c = compare_results(a, b);
  CHECK(!c.agree());
  CHECK(!c.shared[0].agree);
  CHECK(c.shared[1].agree);
  const std::string text = format_comparison(c, "a.h5", "b.h5");
  CHECK(text.find("base/price") != std::string::npos);
  CHECK(text.find("DIFFER: 1 of 4") != std::string::npos);
  // A NaN error agrees only on the same value; estimates in one file are listed.
  b = a;
  b.scenarios[1].estimates[1].value += 1e-9;
  b.scenarios[1].estimates.push_back(reduce::normal_estimate("gamma", 0.1, 0.01, 1000));
  c = compare_results(a, b);
  CHECK(!c.agree());
  REQUIRE(c.only_b.size() == 1);
  CHECK(c.only_b[0] == "vol \"high\"/gamma");
  CHECK(compare_results(a, b, 1e9).agree() == false);
}
