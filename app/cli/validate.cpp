#include "app/cli/validate.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "io/block.hpp"

namespace mcsim {

namespace fs = std::filesystem;

namespace {

// A case file:   base: <a job config> | <a job file, relative to this one>
//                cases: [{name, set: {key: value}, expect: {output: value}}, ...]
// An expected value without a closed form is a high-precision run given as
// [value, its standard error]; the two errors then add in quadrature.
std::vector<ValidationRow> run_file(const fs::path& file, const Session& session, const RunOptions& options,
                                    const std::vector<std::string>& overrides) {
  const YAML::Node doc = YAML::LoadFile(file.string());
  if (!doc["base"] || !doc["cases"] || !doc["cases"].IsSequence())
    throw std::runtime_error(file.string() + ": a validation file needs 'base:' and a 'cases:' list");
  // A job file named as base is run as it stands (its own folder for its data
  // files), so an example job is its own validation case.
  const bool shared = doc["base"].IsScalar();
  const fs::path job_file = shared ? file.parent_path() / doc["base"].as<std::string>() : fs::path();
  if (shared && !fs::is_regular_file(job_file))
    throw std::runtime_error(file.string() + ": base: no job file " + job_file.string());
  YAML::Emitter base;
  if (!shared) base << doc["base"];
  std::vector<ValidationRow> rows;
  for (const auto& c : doc["cases"]) {
    const std::string name = c["name"].as<std::string>();
    std::vector<std::string> set;
    if (c["set"])
      for (const auto& kv : c["set"]) {
        YAML::Emitter v;
        v << YAML::Flow << kv.second;
        set.push_back(kv.first.as<std::string>() + "=" + v.c_str());
      }
    set.insert(set.end(), overrides.begin(), overrides.end());
    const io::Job job = shared ? load_job(job_file.string(), set)
                               : parse_job(base.c_str(), file.string() + " case " + name, set, file.parent_path().string());
    const io::Results r = session.run(job, options);
    const auto& scenario = r.scenarios.front();
    for (const auto& kv : c["expect"]) {
      const std::string output = kv.first.as<std::string>();
      const bool measured = kv.second.IsSequence() && kv.second.size() == 2;
      const auto expected = io::parse_number((measured ? kv.second[0] : kv.second).as<std::string>());
      const auto expected_error = measured ? io::parse_number(kv.second[1].as<std::string>()) : 0.0;
      if (!expected || !expected_error)
        throw std::runtime_error(file.string() + " case " + name + ": bad expect value (a number or [value, error])");
      ValidationRow row{file.filename().string(), name, output, NAN, NAN, *expected, NAN, false, ""};
      for (const auto& e : scenario.estimates)
        if (e.name == output) row.estimate = e.value, row.std_error = std::hypot(e.std_error, *expected_error);
      row.z = (row.estimate - row.reference) / row.std_error;
      // An approximate closed form states its error; it widens the band by that much.
      double tolerance = 0;
      for (const auto& ref : scenario.references)
        if (ref.name == output) tolerance = ref.tolerance;
      row.pass = std::isfinite(row.z) &&
                 std::fabs(row.estimate - row.reference) <= kMaxAbsZ * row.std_error + tolerance;
      if (tolerance > 0) row.note = fmt::format("reference approximate to {:.2g}", tolerance);
      if (measured) row.note = fmt::format("reference by a run with std error {:.2g}, included", *expected_error);
      if (std::isnan(row.estimate)) row.note = "no such estimate";
      // The model's own closed form must agree with the independently computed value
      // (an approximate one to within its stated error).
      for (const auto& ref : scenario.references) {
        if (ref.name != output) continue;
        if (std::fabs(ref.value - row.reference) > 1e-9 * std::max(1.0, std::fabs(row.reference)) + ref.tolerance) {
          row.pass = false;
          row.note = fmt::format("analytic {:.12g} != expected", ref.value);
        }
      }
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace

std::vector<ValidationRow> run_validation(const std::string& dir, const RunOptions& options,
                                          const std::vector<std::string>& overrides) {
  // A folder of case files, or one case file.
  std::vector<fs::path> files;
  if (fs::is_regular_file(dir)) files.push_back(dir);
  else if (!fs::is_directory(dir)) throw std::runtime_error("validation folder or file '" + dir + "' not found");
  else
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error("no *.yaml cases in '" + dir + "'");
  // One set of devices for every case (auto: the GPUs when one is usable).
  const Session session(options.backend.value_or(io::BackendChoice::Auto));
  std::vector<ValidationRow> rows;
  for (const auto& f : files) {
    auto part = run_file(f, session, options, overrides);
    rows.insert(rows.end(), part.begin(), part.end());
  }
  return rows;
}

std::string format_validation(const std::vector<ValidationRow>& rows) {
  // Columns as wide as their longest entry, so long names keep the table aligned.
  std::size_t file_w = 16, case_w = 22, output_w = 8;
  for (const auto& r : rows)
    file_w = std::max(file_w, r.file.size()), case_w = std::max(case_w, r.name.size()),
    output_w = std::max(output_w, r.output.size());
  std::string out = fmt::format("{:<{}} {:<{}} {:<{}} {:>14} {:>11} {:>14} {:>7}  {}\n", "file", file_w, "case", case_w,
                                "output", output_w, "estimate", "std error", "reference", "z", "result");
  int failed = 0;
  for (const auto& r : rows) {
    failed += r.pass ? 0 : 1;
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:>14.8f} {:>11.3g} {:>14.8f} {:>+7.2f}  {}{}\n", r.file, file_w,
                       r.name, case_w, r.output, output_w, r.estimate, r.std_error, r.reference, r.z,
                       r.pass ? "ok" : "FAIL", r.note.empty() ? "" : " (" + r.note + ")");
  }
  out += fmt::format("{} cases, {} passed, {} failed (pass: |z| <= {})\n", rows.size(),
                     rows.size() - failed, failed, kMaxAbsZ);
  return out;
}

}  // namespace mcsim
