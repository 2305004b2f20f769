// JSON text for the reports and the event log: strings escaped, numbers with
// every digit, NaN and infinities as null.
#pragma once
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace mcsim {

inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
    else out += c;
  }
  return out + "\"";
}

inline std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{:.17g}", v) : "null"; }

}  // namespace mcsim
