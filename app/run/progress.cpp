#include "app/run/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/run/event_log.hpp"
#include "app/run/json.hpp"

namespace mcsim {

Progress::Progress(std::uint64_t total_paths, bool enabled, double lines_every_s)
    : total_(total_paths), start_(std::chrono::steady_clock::now()), lines_every_s_(lines_every_s),
      enabled_(enabled && isatty(STDERR_FILENO)),
      lines_(enabled && !enabled_ && lines_every_s > 0),
      logging_(event_log::enabled()) {
  if (enabled_ || lines_ || logging_) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() { finish(); }

void Progress::finish() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) draw(true);
}

void Progress::loop() {
  constexpr auto kQuiet = std::chrono::seconds(2);  // short runs draw nothing
  const auto every = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(event_log::progress_every_s()));
  const auto lines_every = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(lines_every_s_));
  auto next_log = start_ + every, next_line = start_ + lines_every;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) {
    const auto now = std::chrono::steady_clock::now();
    if (enabled_ && now - start_ >= kQuiet) draw(false), drawn_ = true;
    if (lines_ && now >= next_line) line(), next_line += lines_every;
    if (logging_ && now >= next_log) log(), next_log += every;
  }
}

void Progress::log() {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  event_log::write("progress", {{"done", std::to_string(done)}, {"total", std::to_string(total_)},
                                {"elapsed_s", json_number(elapsed)}});
}

// One whole line, for a log file: "progress 42.0%: 4.2e+06 of 1e+07 paths, 1.3e+06 paths/s, 4 s left".
void Progress::line() {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  const double left = rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0.0;
  std::fprintf(stderr, "progress %.1f%%: %.3g of %.3g paths, %.3g paths/s, %.0f s elapsed, %.0f s left\n",
               total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0, static_cast<double>(done),
               static_cast<double>(total_), rate, elapsed, left);
  std::fflush(stderr);
}

void Progress::draw(bool final) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = done_.load(std::memory_order_relaxed);
  const double frac = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
  constexpr int kWidth = 30;
  char bar[kWidth + 1];
  for (int i = 0; i < kWidth; ++i) bar[i] = i < static_cast<int>(frac * kWidth) ? '#' : '.';
  bar[kWidth] = '\0';
  std::fprintf(stderr, "\r[%s] %5.1f%%  %.3g / %.3g paths  %.3g paths/s  %s %.0f s   %s",
               bar, 100.0 * frac, static_cast<double>(done), static_cast<double>(total_), rate,
               final ? "took" : "left", final ? elapsed : left, final ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace mcsim
