// libFuzzer target: any bytes as a job file. The loader must either return a job
// or throw ConfigError with at least one message; anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/config.hpp"
#include "io/diagnostics.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const mcsim::io::Job job = mcsim::io::load_job_text(text, "fuzz.yaml");
    if (!job.model || job.scenarios.empty()) std::abort();
  } catch (const mcsim::io::ConfigError& e) {
    if (e.lines.empty()) std::abort();
  }
  return 0;
}
