#include "app/cli/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/run/json.hpp"

namespace mcsim {

namespace {

std::optional<Reference> reference_of(const io::ScenarioResult& s, const std::string& name) {
  for (const auto& r : s.references)
    if (r.name == name) return r;
  return std::nullopt;
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const reduce::Difference* difference_of(const io::ScenarioResult& s, const std::string& name) {
  for (const auto& d : s.differences)
    if (d.estimate.name == name) return &d;
  return nullptr;
}

}  // namespace

std::string results_csv(const io::Results& r) {
  std::string out = "scenario,estimate,value,std_error,ci_low,ci_high,samples,reference,z,"
                    "minus_base,paired_std_error,unpaired_std_error,reference_minus_base\n";
  const auto number = [](double x) { return std::isnan(x) ? std::string() : fmt::format("{:.17g}", x); };
  for (const auto& s : r.scenarios)
    for (const auto& e : s.estimates) {
      std::string ref, z, diff = ",,,";
      if (const auto ref_of = reference_of(s, e.name))
        ref = fmt::format("{:.17g}", ref_of->value), z = fmt::format("{:.4g}", (e.value - ref_of->value) / e.std_error);
      if (const reduce::Difference* d = difference_of(s, e.name))
        diff = fmt::format("{:.17g},{},{:.17g},{}", d->estimate.value, number(d->estimate.std_error), d->unpaired_std_error,
                           number(d->reference));
      out += fmt::format("{},{},{:.17g},{:.17g},{:.17g},{:.17g},{},{},{},{}\n", csv_field(s.name), csv_field(e.name), e.value,
                         e.std_error, e.ci_low, e.ci_high, e.samples, ref, z, diff);
    }
  return out;
}

std::string results_json(const io::Results& r) {
  std::string out = "{\n";
  out += fmt::format("  \"mcsim_version\": {}, \"git_sha\": {}, \"created\": {},\n", json_string(r.mcsim_version),
                     json_string(r.git_sha), json_string(r.created));
  out += fmt::format("  \"command_line\": {},\n", json_string(r.command_line));
  out += fmt::format("  \"backend\": {}, \"precision\": {}, \"seed\": {}, \"paths\": {}, \"chunk_paths\": {}, \"ranks\": {},\n",
                     json_string(r.backend), json_string(r.precision), r.seed, r.paths, r.chunk_paths, r.ranks);
  out += fmt::format("  \"wall_s\": {},\n  \"scenarios\": [", json_number(r.wall_s));
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
      if (const auto ref = reference_of(s, e.name))
        out += fmt::format(", \"reference\": {}, \"z\": {}", json_number(ref->value),
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
    out += "}}";
  }
  return out + "\n  ]\n}\n";
}

bool Comparison::agree() const {
  for (const auto& d : shared)
    if (!d.agree) return false;
  return true;
}

Comparison compare_results(const io::Results& a, const io::Results& b, double max_z) {
  Comparison c;
  c.max_z = max_z;
  const auto find = [](const io::Results& r, const std::string& scenario, const std::string& name) -> const reduce::Estimate* {
    for (const auto& s : r.scenarios)
      if (s.name == scenario)
        for (const auto& e : s.estimates)
          if (e.name == name) return &e;
    return nullptr;
  };
  for (const auto& s : a.scenarios)
    for (const auto& e : s.estimates) {
      const reduce::Estimate* other = find(b, s.name, e.name);
      if (!other) {
        c.only_a.push_back(s.name + "/" + e.name);
        continue;
      }
      Difference d{s.name, e.name, e.value, other->value, std::hypot(e.std_error, other->std_error)};
      d.z = d.b == d.a ? 0.0 : (d.b - d.a) / d.std_error;
      d.agree = d.b == d.a || std::fabs(d.z) <= max_z;  // a NaN error never agrees but on equal values
      c.shared.push_back(d);
    }
  for (const auto& s : b.scenarios)
    for (const auto& e : s.estimates)
      if (!find(a, s.name, e.name)) c.only_b.push_back(s.name + "/" + e.name);
  return c;
}

std::string format_comparison(const Comparison& c, const std::string& a_name, const std::string& b_name) {
  std::size_t w = 10;
  for (const auto& d : c.shared) w = std::max(w, d.scenario.size() + 1 + d.estimate.size());
  std::string out = fmt::format("A: {}\nB: {}\n  {:<{}} {:>16} {:>16} {:>12} {:>12} {:>8}\n", a_name, b_name, "estimate", w,
                                "A", "B", "B - A", "std error", "z");
  std::size_t differ = 0;
  for (const auto& d : c.shared) {
    differ += !d.agree;
    out += fmt::format("  {:<{}} {:>16.10g} {:>16.10g} {:>12.4g} {:>12.4g} {:>+8.2f}{}\n", d.scenario + "/" + d.estimate, w, d.a,
                       d.b, d.b - d.a, d.std_error, d.z, d.agree ? "" : "  DIFFERS");
  }
  for (const auto& name : c.only_a) out += fmt::format("  {:<{}} only in A\n", name, w);
  for (const auto& name : c.only_b) out += fmt::format("  {:<{}} only in B\n", name, w);
  out += differ == 0 ? fmt::format("agree: all {} shared estimates within {:g} combined standard errors\n", c.shared.size(), c.max_z)
                     : fmt::format("DIFFER: {} of {} shared estimates by more than {:g} combined standard errors\n", differ,
                                   c.shared.size(), c.max_z);
  return out;
}

std::string format_estimates(const io::ScenarioResult& s) {
  std::size_t w = 10;  // the name column fits the longest name
  for (const auto& e : s.estimates) w = std::max(w, e.name.size());
  std::string out = fmt::format("  {:<{}} {:>16} {:>12} {:>29} {:>12} {:>16} {:>7}\n", "estimate", w,
                                "value", "std error", "95% interval", "samples", "reference", "z");
  std::string notes;  // approximate references, with their stated tolerance
  for (const auto& e : s.estimates) {
    std::string ref = "", z = "";
    for (const auto& r : s.references) {
      if (r.name != e.name) continue;
      ref = fmt::format("{:.10g}", r.value);
      z = fmt::format("{:+.2f}", (e.value - r.value) / e.std_error);
      if (r.tolerance > 0) {
        z += "*";
        notes += fmt::format("  * {}: the reference is approximate, to +-{:.2g} (z counts the std error only)\n",
                             e.name, r.tolerance);
      }
    }
    out += fmt::format("  {:<{}} {:>16.10g} {:>12.4g} [{:>13.8g}, {:>13.8g}] {:>12} {:>16} {:>7}\n",
                       e.name, w, e.value, e.std_error, e.ci_low, e.ci_high, e.samples, ref, z);
  }
  out += notes;
  if (!s.differences.empty()) {
    out += fmt::format("  {:<{}} {:>16} {:>12} {:>29} {:>12} {:>16} {:>7}\n", "minus base", w, "difference", "paired err",
                       "95% interval (paired)", "unpaired err", "reference", "z");
    for (const auto& d : s.differences) {
      const reduce::Estimate& e = d.estimate;
      const bool paired = !std::isnan(e.std_error);
      const bool ref = !std::isnan(d.reference);
      out += fmt::format("  {:<{}} {:>+16.10g} {:>12} {:>29} {:>12.4g} {:>16} {:>7}\n", e.name, w, e.value,
                         paired ? fmt::format("{:.4g}", e.std_error) : "n/a",
                         paired ? fmt::format("[{:>13.8g}, {:>13.8g}]", e.ci_low, e.ci_high) : "", d.unpaired_std_error,
                         ref ? fmt::format("{:+.10g}", d.reference) : "",
                         ref && paired ? fmt::format("{:+.2f}", (e.value - d.reference) / e.std_error) : "");
    }
  }
  for (const auto& [name, value] : s.diagnostics) out += fmt::format("  {:<{}} {:.4g}\n", name, w + 17, value);
  return out;
}

}  // namespace mcsim
