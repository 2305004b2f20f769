#include "app/run/event_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
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
  // Appended to (a requeued job keeps one log across its attempts), never
  // through a link.
  std::error_code made;
  if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, made);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
  file = fd >= 0 ? ::fdopen(fd, "a") : nullptr;
  if (!file) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw std::runtime_error("cannot write the log '" + path + "': " + std::strerror(error));
  }
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
