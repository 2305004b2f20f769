// Progress on stderr (paths done, rate, time left): a bar redrawn in place when
// stderr is a terminal and the run has lasted a couple of seconds, else (a batch
// job's log) a plain line every `lines_every_s` seconds when that is set; and a
// progress event every 10 s in the event log, when there is one (app/event_log.hpp).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "app/exec/path_counter.hpp"

namespace mcsim {

class Progress : public PathCounter {
 public:
  Progress(std::uint64_t total_paths, bool enabled, double lines_every_s = 0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void finish();

 private:
  void loop();
  void draw(bool final);
  void line();
  void log();
  std::uint64_t total_;
  std::chrono::steady_clock::time_point start_;
  double lines_every_s_;
  bool enabled_, lines_, logging_, drawn_ = false, stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace mcsim
