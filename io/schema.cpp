#include "io/schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "io/config.hpp"
#include "io/diagnostics.hpp"

namespace mcsim::io {

namespace {
// "a or b" without repeating a part.
void merge(std::string& into, const std::string& more) {
  if (more.empty() || into == more) return;
  if (into.empty()) {
    into = more;
    return;
  }
  std::string parts = " or " + into + " or ";
  if (parts.find(" or " + more + " or ") == std::string::npos) into += " or " + more;
}
}  // namespace

void SchemaRecorder::record(KeySchema k) {
  const auto found = keys_.find(k.path);
  if (found == keys_.end()) {
    order_.push_back(k.path);
    keys_.emplace(k.path, std::move(k));
    return;
  }
  KeySchema& old = found->second;
  merge(old.type, k.type);
  // Required somewhere, optional elsewhere (it depends on other keys): say so.
  if (old.fallback != k.fallback) {
    if (old.fallback.empty() || k.fallback.empty()) old.fallback = "(depends on other keys)";
    else if (old.fallback == "-") old.fallback = k.fallback;
  }
  merge(old.allowed, k.allowed);
}

std::vector<KeySchema> SchemaRecorder::keys() const {
  std::vector<KeySchema> out;
  for (const auto& p : order_) out.push_back(keys_.at(p));
  return out;
}

std::string schema_reference(bool markdown) {
  // Keys read in several places (model.type by each family's loader) once.
  std::vector<KeySchema> keys;
  for (KeySchema& k : declared_keys())
    if (std::none_of(keys.begin(), keys.end(), [&](const KeySchema& o) { return o.path == k.path; })) keys.push_back(std::move(k));
  // Blocks in the order a job file has them: run, model, scenarios, sweep.
  const auto rank = [](const std::string& path) {
    for (const char* top : {"run", "model", "scenarios", "sweep"})
      if (path == top || path.rfind(std::string(top) + ".", 0) == 0 || path.rfind(std::string(top) + "[", 0) == 0)
        return static_cast<int>(std::string("run model scenarios sweep").find(top));
    return 100;
  };
  std::stable_sort(keys.begin(), keys.end(), [&](const KeySchema& a, const KeySchema& b) { return rank(a.path) < rank(b.path); });
  const auto fallback = [](const std::string& f) { return f.empty() ? std::string("required") : f == "-" ? std::string("") : f; };
  std::string out;
  if (markdown) {
    out += "| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n";
    const auto cell = [](std::string s) {
      std::string r;
      for (char c : s) r += c == '|' ? std::string("\\|") : std::string(1, c);
      return r;
    };
    for (const auto& k : keys)
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", k.path, cell(k.type), cell(fallback(k.fallback)),
                         cell(k.allowed), cell(k.meaning));
    return out;
  }
  for (const auto& k : keys) {
    out += fmt::format("{}\n  {}", k.path, k.type);
    if (!k.allowed.empty()) out += fmt::format(" ({})", k.allowed);
    const std::string f = fallback(k.fallback);
    if (!f.empty()) out += fmt::format(", {}", f == "required" ? f : "default " + f);
    out += fmt::format("\n  {}\n", k.meaning);
  }
  return out;
}

}  // namespace mcsim::io
