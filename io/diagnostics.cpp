#include "io/diagnostics.hpp"

#include <yaml-cpp/yaml.h>

namespace mcsim::io {

void Diagnostics::error(const YAML::Mark& mark, const std::string& key_path,
                        const std::string& message) {
  const std::string where = context_.empty() ? "" : context_ + ": ";
  for (const auto& o : overridden_) {
    if (key_path == o) {
      lines_.push_back(where + "--set " + o + ": " + message);
      return;
    }
    if (key_path.rfind(o + ".", 0) == 0 || key_path.rfind(o + "[", 0) == 0) {  // inside the value set
      lines_.push_back(where + "--set " + o + ": " + key_path + ": " + message);
      return;
    }
  }
  const std::string text = where + (key_path.empty() ? message : key_path + ": " + message);
  if (mark.is_null()) {
    lines_.push_back(file_ + ": " + text);
  } else {
    error_at(mark.line + 1, mark.column + 1, text);
  }
}

void Diagnostics::error_at(int line, int column, const std::string& message) {
  lines_.push_back(file_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                   message);
}

void Diagnostics::error_where(const std::string& where, const std::string& message) {
  lines_.push_back((context_.empty() ? "" : context_ + ": ") + where + ": " + message);
}

std::string Diagnostics::report() const {
  std::string out;
  for (const auto& l : lines_) out += l + "\n";
  return out;
}

}  // namespace mcsim::io
