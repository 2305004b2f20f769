#include "app/cli/export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "app/run/json.hpp"

namespace mcsim {

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
std::string csv_number(double x) { return std::isnan(x) ? std::string() : fmt::format("{:.17g}", x); }

const reduce::Difference* difference_of(const io::ScenarioResult& s, const std::string& name) {
  for (const auto& d : s.differences)
    if (d.estimate.name == name) return &d;
  return nullptr;
}

// Every key any scenario overrides, in the order they first appear.
std::vector<std::string> swept_keys(const io::Results& r) {
  std::vector<std::string> keys;
  for (const auto& s : r.scenarios)
    for (const auto& kv : s.overrides)
      if (std::find(keys.begin(), keys.end(), kv.first) == keys.end()) keys.push_back(kv.first);
  return keys;
}
// The scenario's name and its value of each swept key, as leading CSV fields.
std::string scenario_fields(const io::ScenarioResult& s, const std::vector<std::string>& keys) {
  std::string out = csv_field(s.name);
  for (const auto& k : keys) {
    std::string v;
    for (const auto& kv : s.overrides)
      if (kv.first == k) v = kv.second;
    out += "," + csv_field(v);
  }
  return out;
}
std::string key_header(const std::vector<std::string>& keys) {
  std::string out = "scenario";
  for (const auto& k : keys) out += "," + csv_field(k);
  return out;
}

std::string json_strings(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_string(v[i]);
  return out + "]";
}

}  // namespace

std::string results_csv(const io::Results& r) {
  const auto keys = swept_keys(r);
  std::string out = key_header(keys) + ",estimate,value,std_error,ci_low,ci_high,samples,samples_of,unit,reference,"
                    "reference_tolerance,z,minus_base,paired_std_error,unpaired_std_error,reference_minus_base\n";
  for (const auto& s : r.scenarios)
    for (std::size_t i = 0; i < s.estimates.size(); ++i) {
      const reduce::Estimate& e = s.estimates[i];
      const EstimateInfo info = i < s.info.size() ? s.info[i] : EstimateInfo{"", ""};
      std::string ref = ",,";
      if (const Reference* x = s.reference(e.name))
        ref = fmt::format("{:.17g},{},{}", x->value, x->tolerance > 0 ? csv_number(x->tolerance) : "",
                          x->tolerance > 0 ? "" : csv_number((e.value - x->value) / e.std_error));
      std::string diff = ",,,";
      if (const reduce::Difference* d = difference_of(s, e.name))
        diff = fmt::format("{:.17g},{},{},{}", d->estimate.value, csv_number(d->estimate.std_error),
                           csv_number(d->unpaired_std_error), csv_number(d->reference));
      out += fmt::format("{},{},{:.17g},{},{},{},{},{},{},{},{}\n", scenario_fields(s, keys), csv_field(e.name), e.value,
                         csv_number(e.std_error), csv_number(e.ci_low), csv_number(e.ci_high), e.samples,
                         csv_field(info.samples_of), csv_field(info.unit), ref, diff);
    }
  return out;
}

std::string table_csv(const io::Results& r, const std::string& table) {
  const auto keys = swept_keys(r);
  std::string out, names;
  for (const auto& s : r.scenarios)
    for (const auto& t : s.tables) {
      if (names.find("'" + t.name + "'") == std::string::npos) names += (names.empty() ? "'" : ", '") + t.name + "'";
      if (t.name != table) continue;
      const bool named = !t.row_names.empty();
      if (out.empty()) {
        out = key_header(keys) + (named ? ",name" : "");
        for (const auto& c : t.columns) out += "," + csv_field(c);
        out += "\n";
      }
      const std::size_t cols = t.columns.size(), n = cols ? t.data.size() / cols : 0;
      for (std::size_t i = 0; i < n; ++i) {
        out += scenario_fields(s, keys) + (named ? "," + csv_field(t.row_names[i]) : "");
        for (std::size_t c = 0; c < cols; ++c) out += "," + csv_number(t.data[i * cols + c]);
        out += "\n";
      }
    }
  if (out.empty())
    throw std::runtime_error("no table '" + table + "' in the file; it has " + (names.empty() ? "none" : names));
  return out;
}

std::string results_json(const io::Results& r) {
  std::string out = "{\n";
  out += fmt::format("  \"mcsim_version\": {}, \"git_sha\": {}, \"created\": {},\n", json_string(r.mcsim_version),
                     json_string(r.git_sha), json_string(r.created));
  out += fmt::format("  \"command_line\": {},\n", json_string(r.command_line));
  out += fmt::format("  \"backend\": {}, \"devices\": {}, \"precision\": {}, \"seed\": {}, \"paths\": {}, \"chunk_paths\": {}, \"ranks\": {},\n",
                     json_string(r.backend), json_strings(r.devices), json_string(r.precision), r.seed, r.paths, r.chunk_paths, r.ranks);
  std::string stages;
  for (const auto& [stage, s] : r.stage_seconds) stages += fmt::format("{}{}: {}", stages.empty() ? "" : ", ", json_string(stage), json_number(s));
  out += fmt::format("  \"wall_s\": {}, \"paths_per_s\": {}, \"stage_seconds\": {{{}}},\n  \"scenarios\": [",
                     json_number(r.wall_s), json_number(r.paths_per_s), stages);
  for (std::size_t i = 0; i < r.scenarios.size(); ++i) {
    const auto& s = r.scenarios[i];
    out += fmt::format("{}\n    {{\"name\": {}, \"overrides\": {{", i ? "," : "", json_string(s.name));
    for (std::size_t j = 0; j < s.overrides.size(); ++j)
      out += fmt::format("{}{}: {}", j ? ", " : "", json_string(s.overrides[j].first), json_string(s.overrides[j].second));
    out += "},\n     \"estimates\": [";
    for (std::size_t j = 0; j < s.estimates.size(); ++j) {
      const auto& e = s.estimates[j];
      out += fmt::format("{}\n       {{\"name\": {}, \"value\": {}, \"std_error\": {}, \"ci_low\": {}, \"ci_high\": {}, \"samples\": {}",
                         j ? "," : "", json_string(e.name), json_number(e.value), json_number(e.std_error),
                         json_number(e.ci_low), json_number(e.ci_high), e.samples);
      if (j < s.info.size())
        out += fmt::format(", \"samples_of\": {}, \"unit\": {}", json_string(s.info[j].samples_of), json_string(s.info[j].unit));
      if (const Reference* ref = s.reference(e.name))
        out += ref->tolerance > 0 ? fmt::format(", \"reference\": {}, \"reference_tolerance\": {}", json_number(ref->value),
                                                json_number(ref->tolerance))
                                  : fmt::format(", \"reference\": {}, \"z\": {}", json_number(ref->value),
                                                json_number((e.value - ref->value) / e.std_error));
      out += "}";
    }
    out += "],\n     \"differences\": [";  // minus the base scenario
    for (std::size_t j = 0; j < s.differences.size(); ++j) {
      const auto& d = s.differences[j];
      out += fmt::format("{}\n       {{\"name\": {}, \"value\": {}, \"std_error\": {}, \"unpaired_std_error\": {}, "
                         "\"ci_low\": {}, \"ci_high\": {}, \"batches\": {}, \"reference\": {}}}",
                         j ? "," : "", json_string(d.estimate.name), json_number(d.estimate.value),
                         json_number(d.estimate.std_error), json_number(d.unpaired_std_error), json_number(d.estimate.ci_low),
                         json_number(d.estimate.ci_high), d.batches, json_number(d.reference));
    }
    out += "],\n     \"diagnostics\": {";
    for (std::size_t j = 0; j < s.diagnostics.size(); ++j)
      out += fmt::format("{}{}: {}", j ? ", " : "", json_string(s.diagnostics[j].first), json_number(s.diagnostics[j].second));
    out += "},\n     \"tables\": {";
    for (std::size_t j = 0; j < s.tables.size(); ++j) {
      const io::Table& t = s.tables[j];
      out += fmt::format("{}\n       {}: {{\"columns\": {}, \"units\": {}", j ? "," : "", json_string(t.name),
                         json_strings(t.columns), json_strings(t.units));
      if (!t.row_names.empty()) out += ", \"row_names\": " + json_strings(t.row_names);
      out += ", \"rows\": [";
      const std::size_t cols = t.columns.size(), n = cols ? t.data.size() / cols : 0;
      for (std::size_t k = 0; k < n; ++k) {
        out += k ? ", [" : "[";
        for (std::size_t c = 0; c < cols; ++c) out += (c ? ", " : "") + json_number(t.data[k * cols + c]);
        out += "]";
      }
      out += "]}";
    }
    out += "}}";
  }
  return out + "\n  ]\n}\n";
}

}  // namespace mcsim
