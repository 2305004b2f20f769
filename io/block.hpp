// Typed, validating access to one YAML mapping of a config. Every read records
// the key as known; finish() reports the keys nobody asked for, with a
// did-you-mean. Errors go to Diagnostics and reading carries on, so a user sees
// every problem of a file at once.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/diagnostics.hpp"

namespace mcsim::io {

// An allowed interval; open ends exclude the bound.
struct Range {
  double lo = -1e308, hi = 1e308;
  bool lo_open = false, hi_open = false;
  static Range positive() { return {0, 1e308, true, false}; }
  bool contains(double x) const;
  std::string describe() const;
};

// Numbers as users write them: 1e7, 10_000_000, 0.25.
std::optional<double> parse_number(const std::string& text);
std::optional<std::uint64_t> parse_count(const std::string& text);
std::string did_you_mean(const std::string& word, const std::vector<std::string>& options);

class Block {
 public:
  Block(YAML::Node node, std::string path, Diagnostics& diag);

  bool has(const std::string& key) const;
  bool has_scalar(const std::string& key) const;  // given as one value, not a list or mapping
  bool has_mapping(const std::string& key) const;  // given as key: value pairs
  std::string key_path(const std::string& key) const;
  const YAML::Mark mark(const std::string& key) const;

  // Each getter returns the fallback (or a neutral value) after reporting an error.
  double real(const std::string& key, std::optional<double> fallback, Range range = {});
  std::uint64_t count(const std::string& key, std::optional<std::uint64_t> fallback,
                      std::uint64_t min = 0, std::uint64_t max = ~std::uint64_t{0});
  std::string text(const std::string& key, std::optional<std::string> fallback);
  std::string choice(const std::string& key, const std::vector<std::string>& allowed,
                     std::optional<std::string> fallback);
  // choice() read into an enum whose values follow `names` in order (from its
  // value `first`; 1 when the enum's 0 is "none"). An error leaves the fallback,
  // or the enum's value `first`.
  template <class E>
  E choice_of(const std::string& key, const std::vector<std::string>& names, std::optional<E> fallback, int first = 0) {
    const auto at = [&](E e) { return names.at(static_cast<std::size_t>(static_cast<int>(e) - first)); };
    const std::string v = choice(key, names, fallback ? std::optional<std::string>(at(*fallback)) : std::nullopt);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == v) return static_cast<E>(static_cast<int>(i) + first);
    return fallback.value_or(static_cast<E>(first));
  }
  // A list of names from `allowed`; with `mappings`, items that are mappings (such
  // as {flux: {bins: 100}}) go there as blocks instead of being errors.
  std::vector<std::string> choices(const std::string& key, const std::vector<std::string>& allowed,
                                   std::vector<Block>* mappings = nullptr);
  std::vector<double> reals(const std::string& key, Range range = {});
  // A list of rows of numbers (empty after an error).
  std::vector<std::vector<double>> matrix(const std::string& key, Range range = {});
  // A list of mappings, each a block named key[i].
  std::vector<Block> children(const std::string& key);
  // A nested mapping; a missing optional block reads as empty.
  Block child(const std::string& key, bool required);
  // The value of a key as written, of any shape (undefined when absent).
  YAML::Node raw(const std::string& key);
  void error(const std::string& key, const std::string& message);
  // An error at a place given as text (where_of, or FILE:LINE:COLUMN of a data file).
  void error_where(const std::string& where, const std::string& message);
  // FILE:LINE:COLUMN of the key's value, or of item i of its list (item j of row i of a matrix).
  std::string where_of(const std::string& key, int item = -1, int sub = -1) const;
  // A data file's name as written in the config, taken from the config's folder
  // when relative.
  std::string data_path(const std::string& name) const;
  // Puts `value` at `key` in the config (a data file's content in place of its
  // name), so the job's text, stored with its results and checkpoints, holds it.
  void set(const std::string& key, const YAML::Node& value);
  void remove(const std::string& key);
  // A key of the config contract that this version does not implement yet: known
  // (so not reported as a misspelling) but refused with a clear message.
  void not_available(const std::string& key, const std::string& what);

  // For mcsim schema, where a key's default or allowed values depend on the job
  // (a file name, the materials defined): what to list instead. Call before reading it.
  void schema_note(const std::string& key, std::string fallback, std::string allowed = "");

  // Report unknown keys. Call once every key has been read.
  void finish();

  Diagnostics& diagnostics() { return diag_; }
  bool valid() const { return valid_; }

 private:
  YAML::Node scalar(const std::string& key, bool required);
  // For mcsim schema: the key's type, default and allowed values.
  void describe(const std::string& key, const std::string& type, const std::string& fallback,
                const std::string& allowed = "");
  bool numbers(const YAML::Node& list, const std::string& key, Range range, std::vector<double>& out);
  YAML::Node node_;
  std::string path_;
  Diagnostics& diag_;
  std::set<std::string> known_;
  std::map<std::string, std::pair<std::string, std::string>> notes_;  // key -> (default, allowed)
  bool valid_ = true;
};

// Numbers as a flow sequence that reads back to the same doubles (17 digits): data
// read from a file, put inline into the job's text (Block::set).
YAML::Node number_sequence(const std::vector<double>& v);

}  // namespace mcsim::io
