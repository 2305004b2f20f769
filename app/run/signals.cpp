#include "app/run/signals.hpp"

#include <atomic>
#include <csignal>

namespace mcsim {

namespace {
volatile std::sig_atomic_t g_signal = 0;
std::atomic<bool> g_fault{false};

extern "C" void on_stop_signal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL);  // a second one is not ignored
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
