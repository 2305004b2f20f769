// SIGTERM and SIGINT (Slurm at the time limit, Ctrl-C) ask a run to stop: the
// workers finish the chunks in hand, a checkpoint is written, and mcsim exits with
// kExitStopped. A second signal ends the process at once, unless it comes within
// two seconds of the first (a copy of it: GNU timeout signals the process and then
// its process group).
#pragma once

namespace mcsim {

constexpr int kExitStopped = 3;

void install_stop_handlers();
bool stop_requested();
int stop_signal();  // the signal that asked, 0 if none
// For tests: ask as a signal would.
void request_stop(int signal);
// A fault on one thread (a checkpoint that cannot be written) stops the workers as
// a signal would; the fault, not a stop, is then reported. Cleared by clear_fault_stop().
void request_fault_stop();
void clear_fault_stop();

}  // namespace mcsim
