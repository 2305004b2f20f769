// The config's schema as the code reads it: every key a Block is asked for, with
// its type, default and allowed values, recorded while loading jobs. `mcsim
// schema` loads the example jobs with a recorder attached and prints the union,
// with each key's meaning from io/schema_meanings.cpp, so the reference cannot
// drift from the parser.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace mcsim::io {

struct KeySchema {
  std::string path;     // dotted, list items as []: model.materials[].total
  std::string type;     // number, whole number, text, one of, list of ..., block, list of blocks
  std::string fallback; // the default, "" when required, "-" when optional without one
  std::string allowed;  // a range or the choices
};

class SchemaRecorder {
 public:
  void record(KeySchema k);
  // Every key, in the order first seen.
  std::vector<KeySchema> keys() const;

 private:
  std::vector<std::string> order_;
  std::map<std::string, KeySchema> keys_;
};

// What each key means, by path; a key without one is a test failure.
const std::map<std::string, std::string>& key_meanings();

// The keys of loading every job file given, as a table (text) or Markdown.
std::string schema_reference(const std::vector<std::string>& job_files, bool markdown);

}  // namespace mcsim::io
