// The error lines a config gives (none when it loads), and a search among them.
#pragma once
#include <string>
#include <vector>

#include "io/config.hpp"
#include "io/diagnostics.hpp"

inline std::vector<std::string> errors_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    mcsim::io::load_job_text(text, "job.yaml", sets);
  } catch (const mcsim::io::ConfigError& e) {
    return e.lines;
  }
  return {};
}

inline bool has_line(const std::vector<std::string>& lines, const std::string& needle) {
  for (const auto& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}
