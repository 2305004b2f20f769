#include "app/run/signals.hpp"

#include <csignal>

namespace mcsim {

namespace {
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_stop_signal(int sig) {
  g_signal = sig;
  std::signal(sig, SIG_DFL);  // a second one is not ignored
}
}  // namespace

void install_stop_handlers() {
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
}
bool stop_requested() { return g_signal != 0; }
int stop_signal() { return g_signal; }
void request_stop(int signal) { g_signal = signal; }

}  // namespace mcsim
