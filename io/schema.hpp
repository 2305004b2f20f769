// The config's schema. Every key is declared once, next to the code that reads it
// (io/config.cpp, io/scenarios.cpp, each family's models/<family>/*_config.cpp),
// with its type, default, allowed values and meaning; `mcsim schema` prints the
// declarations. A recorder attached to a load notes every key a Block is asked
// for, as the reader describes it, so a test can hold the declarations to the
// readers (io::check_declared).
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
  std::string meaning;  // declared keys only
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

// The declared keys as a table (text) or Markdown, identical wherever it is asked.
std::string schema_reference(bool markdown);

}  // namespace mcsim::io
