// Results for scripts (CSV, JSON) and the comparison of two runs.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <regex>

#include "app/cli/compare.hpp"
#include "app/cli/export.hpp"
#include "app/cli/report.hpp"

using namespace mcsim;

namespace {
io::Results two_scenarios() {
  io::Results r;
  r.backend = "cpu", r.precision = "double", r.seed = 5, r.paths = 1000;
  io::ScenarioResult base;
  base.estimates = {reduce::normal_estimate("price", 10.5, 0.25, 1000), reduce::normal_estimate("delta, call", 0.6, 0.01, 1000)};
  base.info = {{"paths", ""}, {"paths", "per unit of spot"}};
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
  CHECK(csv.rfind("scenario,model.process.volatility,estimate,value,std_error,ci_low,ci_high,samples,samples_of,unit,"
                  "reference,reference_tolerance,z,minus_base,paired_std_error,unpaired_std_error,reference_minus_base\n", 0) == 0);
  CHECK(csv.find("\nbase,,price,10.5,0.25,") != std::string::npos);
  // z = (10.5 - 10) / 0.25; base has no difference
  CHECK(std::regex_search(csv, std::regex("\nbase,,price,10\\.5,0\\.25,[^,]+,[^,]+,1000,paths,,10,,2,,,,\n")));
  CHECK(csv.find(",1000,paths,,10,,2,1.25,0.050000000000000003,0.34999999999999998,1.2\n") != std::string::npos);
  CHECK(csv.find("\nbase,,\"delta, call\",0.59999999999999998,") != std::string::npos);  // quoted, every digit
  CHECK(csv.find("\n\"vol \"\"high\"\"\",0.3,price,") != std::string::npos);  // its volatility as a column
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

TEST_CASE("values are rounded to the two leading digits of their error", "[report]") {
  CHECK(rounded(10.48798991, 0.1049).value == "10.49");
  CHECK(rounded(10.48798991, 0.1049).std_error == "0.10");
  CHECK(rounded(0.61710675, 0.0002606).value == "0.61711");
  CHECK(rounded(12414.97292, 137.1).value == "12410");  // an error in the hundreds rounds the tens
  CHECK(rounded(12414.97292, 137.1).std_error == "140");
  CHECK(rounded(-0.7036638343, 0.01021).value == "-0.704");
  CHECK(rounded(1.5, 0).value == "1.5");  // no error: the value as it is
  CHECK(rounded(1.5, NAN).std_error == "n/a");
}

TEST_CASE("an approximate reference is a band, an exact one gives z", "[report]") {
  CHECK(reference_verdict(10.5, 0.25, 10.0, 0) == "+2.00");
  CHECK(reference_verdict(4.48, 0.001, 4.4867, 0.031) == "in band");
  CHECK(reference_verdict(4.40, 0.001, 4.4867, 0.031) == "-55.70 past band");  // (0.0867 - 0.031) / 0.001
  io::ScenarioResult s;
  s.estimates = {reduce::normal_estimate("price", 4.48, 0.001, 1000)};
  s.references = {{"price", 4.4867, 0.031}};
  const std::string text = format_estimates(s);
  CHECK(text.find("4.48670 +- 0.031") != std::string::npos);
  CHECK(text.find("in band") != std::string::npos);
}

TEST_CASE("tables print with units and row names and export as tidy CSV and JSON", "[report]") {
  io::Results r = two_scenarios();
  r.scenarios[0].tables.push_back({"flux", {"low", "high", "track"}, {0, 1, 0.5, 1, 2, NAN}, {"cm", "cm", "per source"}});
  r.scenarios[1].tables.push_back({"flux", {"low", "high", "track"}, {0, 1, 0.25}, {"cm", "cm", "per source"}});
  r.scenarios[0].tables.push_back({"contributions", {"level", "var"}, {0.99, 3, 0.99, 4}, {}, {"acme", "bolt"}});
  const std::string text = format_table(r.scenarios[0].tables[0], 0);
  CHECK(text.find("units: low, high: cm; track: per source") != std::string::npos);
  CHECK(text.find("      -\n") != std::string::npos);  // NaN as a dash
  CHECK(format_table(r.scenarios[0].tables[1], 0).find("bolt   0.99    4") != std::string::npos);
  // Every row of every scenario, its swept key as a column.
  CHECK(table_csv(r, "flux") == "scenario,model.process.volatility,low,high,track\nbase,,0,1,0.5\nbase,,1,2,\n"
                                "\"vol \"\"high\"\"\",0.3,0,1,0.25\n");
  CHECK(table_csv(r, "contributions") == "scenario,model.process.volatility,name,level,var\nbase,,acme,0.98999999999999999,3\n"
                                         "base,,bolt,0.98999999999999999,4\n");
  CHECK_THROWS_WITH(table_csv(r, "fluxx"), "no table 'fluxx' in the file; it has 'flux', 'contributions'");
  const YAML::Node j = YAML::Load(results_json(r));
  const YAML::Node flux = j["scenarios"][0]["tables"]["flux"];
  CHECK(flux["columns"][2].as<std::string>() == "track");
  CHECK(flux["units"][0].as<std::string>() == "cm");
  CHECK(flux["rows"][1][1].as<double>() == 2);
  CHECK(flux["rows"][1][2].IsNull());
  CHECK(j["scenarios"][0]["tables"]["contributions"]["row_names"][1].as<std::string>() == "bolt");
  CHECK(j["scenarios"][0]["estimates"][1]["unit"].as<std::string>() == "per unit of spot");
}

TEST_CASE("diff says identical for the same bits and when the configs differ", "[report]") {
  io::Results a = two_scenarios();
  a.config = "run: {paths: 1000}\n";
  io::Results b = a;
  Comparison c = compare_results(a, b);
  CHECK(c.identical());
  CHECK(!c.configs_differ);
  CHECK(format_comparison(c, "a", "b").find("identical: all 4 estimates") != std::string::npos);
  b.scenarios[0].estimates[0].std_error = 0.26;  // the same value, another error: not the same bits
  CHECK(!compare_results(a, b).identical());
  CHECK(compare_results(a, b).agree());
  b = a;
  b.config = "run: {paths: 2000}\n";
  c = compare_results(a, b);
  CHECK(c.configs_differ);
  CHECK(format_comparison(c, "a", "b").find("the two jobs differ") != std::string::npos);
}
