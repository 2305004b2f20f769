#include "app/run/signals.hpp"

#include <time.h>

#include <atomic>
#include <csignal>

namespace mcsim {

namespace {
volatile std::sig_atomic_t g_signal = 0;
std::atomic<bool> g_fault{false};
// When the first stop signal came (CLOCK_MONOTONIC seconds): copies of it that
// arrive within kSameStopS are the same request (GNU timeout sends its signal to
// the process and then to its group; a launcher may forward one to every process),
// a later one ends the process.
volatile std::sig_atomic_t g_first_s = 0;
constexpr long kSameStopS = 2;

long monotonic_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe
  return static_cast<long>(t.tv_sec);
}

extern "C" void on_stop_signal(int sig) {
  if (g_signal == 0) {
    g_signal = sig;
    g_first_s = static_cast<std::sig_atomic_t>(monotonic_s() + 1);  // + 1: never 0
    return;
  }
  if (monotonic_s() + 1 - g_first_s < kSameStopS) return;
  std::signal(sig, SIG_DFL);  // asked again: end now
  std::raise(sig);
}
}  // namespace

void install_stop_handlers() {
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
}
bool stop_requested() { return g_signal != 0 || g_fault.load(); }
int stop_signal() { return g_signal; }
void request_stop(int signal) { g_signal = signal; }
void request_fault_stop() { g_fault = true; }
void clear_fault_stop() { g_fault = false; }

}  // namespace mcsim
