#include "app/mcsim.hpp"

#include "app/run/plan.hpp"

namespace mcsim {

io::Job load_job(const std::string& path, const std::vector<std::string>& overrides) {
  return plan::planned(io::load_job_file(path, overrides));
}

io::Job parse_job(const std::string& yaml, const std::string& label, const std::vector<std::string>& overrides) {
  return plan::planned(io::load_job_text(yaml, label, overrides));
}

Session::Session(io::BackendChoice backend) : owned_(make_devices(backend)) {
  for (const auto& d : owned_) list_.push_back(d.get());
}

io::Results Session::run(const io::Job& job, const RunOptions& options) const { return run_job(job, options, list_); }

RunOptions Session::quiet() {
  RunOptions o;
  o.progress = false;
  return o;
}

}  // namespace mcsim
