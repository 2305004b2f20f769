#include "app/cli/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mcsim {

bool Comparison::agree() const {
  for (const auto& d : shared)
    if (!d.agree) return false;
  return true;
}

bool Comparison::identical() const {
  if (!only_a.empty() || !only_b.empty()) return false;
  for (const auto& d : shared)
    if (!d.same_bits) return false;
  return true;
}

Comparison compare_results(const io::Results& a, const io::Results& b, double max_z) {
  Comparison c;
  c.max_z = max_z;
  c.configs_differ = a.config != b.config;
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
      // The same bits: the error too (NaN alike).
      d.same_bits = d.a == d.b && (e.std_error == other->std_error || (std::isnan(e.std_error) && std::isnan(other->std_error)));
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
  std::string out = fmt::format("A: {}\nB: {}\n", a_name, b_name);
  out += c.configs_differ ? "  the two jobs differ: their configs (YAML as run) are not the same text\n"
                          : "  the same job: the configs (YAML as run) are the same text\n";
  out += fmt::format("  {:<{}} {:>16} {:>16} {:>12} {:>12} {:>8}\n", "estimate", w, "A", "B", "B - A", "std error", "z");
  std::size_t differ = 0;
  for (const auto& d : c.shared) {
    differ += !d.agree;
    out += fmt::format("  {:<{}} {:>16.10g} {:>16.10g} {:>12.4g} {:>12.4g} {:>+8.2f}{}\n", d.scenario + "/" + d.estimate, w, d.a,
                       d.b, d.b - d.a, d.std_error, d.z, d.agree ? "" : "  DIFFERS");
  }
  for (const auto& name : c.only_a) out += fmt::format("  {:<{}} only in A\n", name, w);
  for (const auto& name : c.only_b) out += fmt::format("  {:<{}} only in B\n", name, w);
  if (c.identical())
    out += fmt::format("identical: all {} estimates and their errors have the same bits\n", c.shared.size());
  else
    out += differ == 0 ? fmt::format("agree: all {} shared estimates within {:g} combined standard errors\n", c.shared.size(), c.max_z)
                       : fmt::format("DIFFER: {} of {} shared estimates by more than {:g} combined standard errors\n", differ,
                                     c.shared.size(), c.max_z);
  return out;
}

}  // namespace mcsim
