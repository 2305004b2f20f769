#include "io/block.hpp"

#include "io/schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mcsim::io {

bool Range::contains(double x) const {
  if (std::isnan(x)) return false;
  const bool above = lo_open ? x > lo : x >= lo;
  const bool below = hi_open ? x < hi : x <= hi;
  return above && below;
}

static std::string num(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

std::string Range::describe() const {
  const bool has_lo = lo > -1e308, has_hi = hi < 1e308;
  if (has_lo && has_hi)
    return std::string("in ") + (lo_open ? "(" : "[") + num(lo) + ", " + num(hi) +
           (hi_open ? ")" : "]");
  if (has_lo) return std::string(lo_open ? "> " : ">= ") + num(lo);
  if (has_hi) return std::string(hi_open ? "< " : "<= ") + num(hi);
  return "a number";
}

// Underscores may group digits (10_000_000) but not start, end or double up.
static std::optional<std::string> strip_grouping(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_') {
      out += text[i];
      continue;
    }
    const bool digit_before = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]));
    const bool digit_after =
        i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!digit_before || !digit_after) return std::nullopt;
  }
  return out;
}

std::optional<double> parse_number(const std::string& text) {
  const auto s = strip_grouping(text);
  if (!s || s->empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s->c_str(), &end);
  if (end != s->c_str() + s->size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_count(const std::string& text) {
  const auto s = strip_grouping(text);
  if (!s || s->empty()) return std::nullopt;
  if (std::all_of(s->begin(), s->end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    if (s->size() > 19) return std::nullopt;
    return std::strtoull(s->c_str(), nullptr, 10);
  }
  const auto v = parse_number(text);  // 1e7, 2.5e6
  if (!v || *v < 0 || *v > 9.2e18 || std::floor(*v) != *v) return std::nullopt;
  return static_cast<std::uint64_t>(*v);
}

static std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& options) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& o : options) {
    const std::size_t d = edit_distance(word, o);
    if (d < best_d) best_d = d, best = o;
  }
  return best;
}

static std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

Block::Block(YAML::Node node, std::string path, Diagnostics& diag)
    : node_(node), path_(std::move(path)), diag_(diag) {}

bool Block::has(const std::string& key) const {
  return node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull();
}

bool Block::has_scalar(const std::string& key) const { return has(key) && node_[key].IsScalar(); }
bool Block::has_mapping(const std::string& key) const { return has(key) && node_[key].IsMap(); }

std::string Block::key_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

const YAML::Mark Block::mark(const std::string& key) const {
  return has(key) ? node_[key].Mark() : node_.Mark();
}

void Block::error(const std::string& key, const std::string& message) {
  known_.insert(key);  // reported already: not also an unknown key
  valid_ = false;
  diag_.error(mark(key), key.empty() ? path_ : key_path(key), message);
}

void Block::error_where(const std::string& where, const std::string& message) {
  valid_ = false;
  diag_.error_where(where, message);
}

std::string Block::where_of(const std::string& key, int item, int sub) const {
  // reset(), not =: assigning to a yaml-cpp node writes through to the config's own node.
  YAML::Node n = has(key) ? node_[key] : node_;
  if (item >= 0 && n.IsSequence() && static_cast<std::size_t>(item) < n.size()) n.reset(n[static_cast<std::size_t>(item)]);
  if (sub >= 0 && n.IsSequence() && static_cast<std::size_t>(sub) < n.size()) n.reset(n[static_cast<std::size_t>(sub)]);
  const YAML::Mark m = n.Mark();
  const std::string at = key_path(key);
  if (m.is_null()) return diag_.location() + ": " + at;
  return diag_.location() + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + at;
}

std::string Block::data_path(const std::string& name) const {
  if (name.empty() || name[0] == '/' || diag_.base_dir.empty()) return name;
  return diag_.base_dir + "/" + name;
}

void Block::set(const std::string& key, const YAML::Node& value) {
  known_.insert(key);
  if (node_.IsMap()) node_[key] = value;
}

void Block::remove(const std::string& key) {
  if (node_.IsMap()) node_.remove(key);
}

void Block::not_available(const std::string& key, const std::string& what) {
  known_.insert(key);
  if (has(key)) error(key, what + " is not available in this version");
}

// Called only while recording (`if (diag_.schema)` at each reader): its texts cost
// more than reading the key.
void Block::describe(const std::string& key, const std::string& type, const std::string& fallback,
                     const std::string& allowed) {
  const auto note = notes_.find(key);
  const std::string shown_fallback = note == notes_.end() ? fallback : note->second.first;
  const std::string shown_allowed = note == notes_.end() || note->second.second.empty() ? allowed : note->second.second;
  std::string path;  // list items as []: materials[2].total -> materials[].total
  const std::string full = key_path(key);
  for (std::size_t i = 0; i < full.size(); ++i) {
    path += full[i];
    if (full[i] == '[') {
      while (i + 1 < full.size() && full[i + 1] != ']') ++i;
    }
  }
  diag_.schema->record({path, type, shown_fallback, shown_allowed, ""});
}

void Block::schema_note(const std::string& key, std::string fallback, std::string allowed) {
  if (diag_.schema) notes_[key] = {std::move(fallback), std::move(allowed)};
}

template <class T>
static std::string fallback_text(const std::optional<T>& f) {
  if (!f) return "";
  std::ostringstream s;
  s << *f;
  return s.str();
}

YAML::Node Block::scalar(const std::string& key, bool required) {
  known_.insert(key);
  const YAML::Node absent(YAML::NodeType::Undefined);
  if (!node_.IsMap()) return absent;
  if (!has(key)) {
    if (required) error("", "missing required key '" + key + "'");
    return absent;
  }
  const YAML::Node n = node_[key];
  if (!n.IsScalar()) {
    error(key, "expected a single value, got a " + std::string(n.IsSequence() ? "list" : "mapping"));
    return absent;
  }
  return n;
}

double Block::real(const std::string& key, std::optional<double> fallback, Range range) {
  if (diag_.schema) describe(key, "number", fallback_text(fallback), range.describe() == "a number" ? "" : range.describe());
  const YAML::Node n = scalar(key, !fallback.has_value());
  if (!n) return fallback.value_or(0.0);
  const auto v = parse_number(n.Scalar());
  if (!v) {
    error(key, "expected a number, got '" + n.Scalar() + "'");
    return fallback.value_or(0.0);
  }
  if (!range.contains(*v)) {
    error(key, "must be " + range.describe() + " (got " + n.Scalar() + ")");
    return fallback.value_or(0.0);
  }
  return *v;
}

std::uint64_t Block::count(const std::string& key, std::optional<std::uint64_t> fallback,
                           std::uint64_t min, std::uint64_t max) {
  if (diag_.schema) describe(key, "whole number", fallback_text(fallback),
           ">= " + std::to_string(min) + (max == ~std::uint64_t{0} ? "" : ", <= " + std::to_string(max)));
  const YAML::Node n = scalar(key, !fallback.has_value());
  if (!n) return fallback.value_or(min);
  const auto v = parse_count(n.Scalar());
  if (!v) {
    error(key, "expected a whole number such as 1000000, 1e6 or 1_000_000, got '" + n.Scalar() + "'");
    return fallback.value_or(min);
  }
  if (*v < min) {
    error(key, "must be >= " + std::to_string(min) + " (got " + n.Scalar() + ")");
    return fallback.value_or(min);
  }
  if (*v > max) {
    error(key, "must be <= " + std::to_string(max) + " (got " + n.Scalar() + ")");
    return fallback.value_or(min);
  }
  return *v;
}

std::string Block::text(const std::string& key, std::optional<std::string> fallback) {
  if (diag_.schema) describe(key, "text", fallback ? (fallback->empty() ? "-" : *fallback) : "");
  const YAML::Node n = scalar(key, !fallback.has_value());
  if (!n) return fallback.value_or("");
  return n.Scalar();
}

std::string Block::choice(const std::string& key, const std::vector<std::string>& allowed,
                          std::optional<std::string> fallback) {
  if (diag_.schema) describe(key, "one of", fallback ? (fallback->empty() ? "-" : *fallback) : "", join(allowed));
  const YAML::Node n = scalar(key, !fallback.has_value());
  if (!n) return fallback.value_or("");
  const std::string v = n.Scalar();
  if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
  const std::string hint = did_you_mean(v, allowed);
  error(key, "'" + v + "' is not one of: " + join(allowed) +
                 (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  return fallback.value_or("");
}

// The numbers of one YAML list, each checked against `range`; false after an error.
bool Block::numbers(const YAML::Node& list, const std::string& key, Range range, std::vector<double>& out) {
  bool ok = true;
  for (const auto& item : list) {
    const auto v = item.IsScalar() ? parse_number(item.Scalar()) : std::nullopt;
    if (!v || !range.contains(*v)) {
      valid_ = ok = false;
      diag_.error(item.Mark(), key_path(key),
                  !v ? "expected a number, got '" + (item.IsScalar() ? item.Scalar() : std::string("a block")) + "'"
                     : "every value must be " + range.describe() + " (got " + item.Scalar() + ")");
    } else {
      out.push_back(*v);
    }
  }
  return ok;
}

std::vector<double> Block::reals(const std::string& key, Range range) {
  if (diag_.schema) describe(key, "list of numbers", "-", range.describe() == "a number" ? "" : range.describe());
  known_.insert(key);
  std::vector<double> out;
  if (!has(key)) return out;
  const YAML::Node n = node_[key];
  if (!n.IsSequence()) {
    error(key, "expected a list of numbers such as [0.25, 0.5]");
    return out;
  }
  numbers(n, key, range, out);
  return out;
}

std::vector<std::vector<double>> Block::matrix(const std::string& key, Range range) {
  if (diag_.schema) describe(key, "matrix", "-", range.describe() == "a number" ? "" : range.describe());
  known_.insert(key);
  std::vector<std::vector<double>> out;
  if (!has(key)) return out;
  const YAML::Node n = node_[key];
  const auto shape_error = [&] { error(key, "expected a list of rows such as [[1, 0.5], [0.5, 1]]"); };
  if (!n.IsSequence()) {
    shape_error();
    return {};
  }
  for (const auto& row : n) {
    if (!row.IsSequence()) {
      shape_error();
      return {};
    }
    out.emplace_back();
    if (!numbers(row, key, range, out.back())) return {};
  }
  return out;
}

std::vector<Block> Block::children(const std::string& key) {
  if (diag_.schema) describe(key, "list of blocks", "-");
  known_.insert(key);
  std::vector<Block> out;
  if (!has(key)) return out;
  const YAML::Node n = node_[key];
  if (!n.IsSequence()) {
    error(key, "expected a list of mappings such as [{name: A}, {name: B}]");
    return out;
  }
  std::size_t i = 0;
  for (const auto& item : n) {
    const std::string path = key_path(key) + "[" + std::to_string(i++) + "]";
    if (!item.IsMap()) {
      valid_ = false;
      diag_.error(item.Mark(), path, "expected a mapping of keys (key: value)");
      continue;
    }
    out.emplace_back(item, path, diag_);
  }
  return out;
}

std::vector<std::string> Block::choices(const std::string& key, const std::vector<std::string>& allowed,
                                        std::vector<Block>* mappings) {
  if (diag_.schema) describe(key, "list, each one of", "-", join(allowed));
  known_.insert(key);
  std::vector<std::string> out;
  if (!has(key)) return out;
  const YAML::Node n = node_[key];
  if (!n.IsSequence()) {
    error(key, "expected a list such as [" + allowed.front() + "]");
    return out;
  }
  std::size_t i = 0;
  for (const auto& item : n) {
    if (mappings && item.IsMap()) {
      mappings->emplace_back(item, key_path(key) + "[" + std::to_string(i++) + "]", diag_);
      continue;
    }
    ++i;
    const std::string v = item.IsScalar() ? item.Scalar() : "";
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      const std::string hint = did_you_mean(v, allowed);
      valid_ = false;
      diag_.error(item.Mark(), key_path(key),
                  "'" + v + "' is not one of: " + join(allowed) +
                      (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    } else {
      out.push_back(v);
    }
  }
  return out;
}

Block Block::child(const std::string& key, bool required) {
  if (diag_.schema) describe(key, "block", required ? "" : "-");
  known_.insert(key);
  if (!has(key)) {
    if (required && node_.IsMap()) error("", "missing required block '" + key + "'");
    return Block(YAML::Node(YAML::NodeType::Undefined), key_path(key), diag_);
  }
  const YAML::Node n = node_[key];
  if (!n.IsMap()) {
    error(key, "expected a mapping of keys (key: value)");
    return Block(YAML::Node(YAML::NodeType::Undefined), key_path(key), diag_);
  }
  return Block(n, key_path(key), diag_);
}

YAML::Node Block::raw(const std::string& key) {
  if (diag_.schema) describe(key, "any", "-");
  known_.insert(key);
  return has(key) ? node_[key] : YAML::Node(YAML::NodeType::Undefined);
}

void Block::finish() {
  if (!node_.IsMap()) return;
  const std::vector<std::string> allowed(known_.begin(), known_.end());
  for (const auto& kv : node_) {
    const std::string key = kv.first.Scalar();
    if (known_.count(key)) continue;
    const std::string hint = did_you_mean(key, allowed);
    valid_ = false;
    diag_.error(kv.first.Mark(), "",
                "unknown key '" + key_path(key) + "'" +
                    (hint.empty() ? " (allowed: " + join(allowed) + ")"
                                  : " (did you mean '" + hint + "'?)"));
  }
}

YAML::Node number_sequence(const std::vector<double>& v) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (double x : v) n.push_back(fmt::format("{:.17g}", x));
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

}  // namespace mcsim::io
