// `mcsim run --log FILE`: a run's events as JSON lines for batch systems, one
// object a line with "time" (UTC) and "event": start, progress (every 10 s, or
// --log-every, while the histories or paths run), done (with the estimates), stopped, error. Rank 0
// writes it, a whole line at a time, flushed, so a killed run leaves whole lines.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mcsim::event_log {

// Starts the log (truncating the file); throws if it cannot be written.
void open(const std::string& path, double progress_every_s = 10);
bool enabled();
double progress_every_s();  // seconds between progress lines
// One line: the event and its fields, each value already JSON text.
void write(const std::string& event, const std::vector<std::pair<std::string, std::string>>& fields = {});

}  // namespace mcsim::event_log
