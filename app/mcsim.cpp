#include "app/mcsim.hpp"

#include "app/exec/trace.hpp"
#include "app/run/plan.hpp"
#include "io/checkpoint.hpp"
#include "reduce/mpi.hpp"

namespace mcsim {

io::Job load_job(const std::string& path, const std::vector<std::string>& overrides) {
  return plan::planned(io::load_job_file(path, overrides));
}

io::Job parse_job(const std::string& yaml, const std::string& label, const std::vector<std::string>& overrides,
                  const std::string& base_dir) {
  return plan::planned(io::load_job_text(yaml, label, overrides, nullptr, base_dir));
}

io::OutputClaim claim_output(const std::string& path, bool force) {
  io::check_writable(path, force);  // fail before the work, not after
  io::OutputClaim claim;
  std::string refused;
  if (mpi::master()) try {
      claim = io::OutputClaim(path);
    } catch (const std::exception& e) {
      refused = e.what();
    }
  if (!(refused = mpi::broadcast(refused)).empty()) throw std::runtime_error(refused);
  return claim;
}

void write_job_results(const std::string& path, const io::Job& job, const io::Results& results, bool force) {
  const TraceRange range("write");
  io::write_results(path, results, force);
  remove_job_checkpoints(path, job);
}

io::Results open_checkpoint(const std::string& path) {
  const io::Checkpoint c = io::read_checkpoint(path);
  io::Job job = parse_job(c.job, "checkpoint '" + path + "' (its job)");
  for (std::size_t i = 0; i < job.scenarios.size(); ++i)
    if (job.scenarios.size() > 1 && job.scenarios[i].name == c.scenario) job = job.scenario(i);
  RunOptions o = Session::quiet();
  o.checkpoint_for = io::results_path_of(path);
  o.resume = true;
  o.peek_backend = c.backend;
  o.scenario = c.scenario;
  o.command_line = "mcsim show " + path;
  const Devices cpu = make_devices(io::BackendChoice::Cpu);  // nothing runs on it
  io::Results r = run_job(job, o, {cpu.front().get()});
  r.backend = c.backend;
  r.devices.clear(), r.device_times.clear();  // the run's are not in its checkpoint
  r.scenarios.front().name = c.scenario;
  r.checkpoint = path;
  return r;
}

io::Results open_results(const std::string& path) {
  bool checkpoint = true;
  try {
    io::results_path_of(path);
  } catch (const std::runtime_error&) {
    checkpoint = false;
  }
  return checkpoint ? open_checkpoint(path) : io::read_results(path);
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
