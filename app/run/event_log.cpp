#include "app/run/event_log.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <stdexcept>

#include "app/run/json.hpp"

namespace mcsim::event_log {

namespace {
std::FILE* file = nullptr;
std::mutex mutex;  // the progress thread writes too
double every_s = 10;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char out[32];
  std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return out;
}
}  // namespace

void open(const std::string& path, double progress_every_s) {
  std::lock_guard<std::mutex> lock(mutex);
  every_s = progress_every_s;
  if (file) std::fclose(file);
  file = std::fopen(path.c_str(), "w");
  if (!file) throw std::runtime_error("cannot write the log '" + path + "': " + std::strerror(errno));
}

bool enabled() {
  std::lock_guard<std::mutex> lock(mutex);
  return file != nullptr;
}

double progress_every_s() {
  std::lock_guard<std::mutex> lock(mutex);
  return every_s;
}

void write(const std::string& event, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string line = "{\"time\": " + json_string(utc_now()) + ", \"event\": " + json_string(event);
  for (const auto& [key, value] : fields) line += ", " + json_string(key) + ": " + value;
  line += "}\n";
  std::lock_guard<std::mutex> lock(mutex);
  if (!file) return;
  std::fputs(line.c_str(), file);
  std::fflush(file);
}

}  // namespace mcsim::event_log
