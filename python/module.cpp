// mcsim._core: the public C++ API (app/mcsim.hpp) for the Python package. It runs
// jobs and reads results files; the package (python/mcsim/) turns what it returns,
// plain dicts, lists and numpy arrays, into DataFrames.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <map>
#include <memory>

#include "app/mcsim.hpp"
#include "app/run/signals.hpp"
#include "app/version.hpp"
#include "io/checkpoint.hpp"
#include "reduce/mpi.hpp"

namespace py = pybind11;
using namespace mcsim;

namespace {

py::array_t<double> matrix(const std::vector<double>& data, std::size_t columns) {
  const std::size_t rows = columns ? data.size() / columns : 0;
  py::array_t<double> a({rows, columns});
  std::copy(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(rows * columns), a.mutable_data());
  return a;
}

py::tuple estimate_row(const reduce::Estimate& e) {
  return py::make_tuple(e.name, e.value, e.std_error, e.ci_low, e.ci_high, e.samples);
}

py::dict scenario_dict(const io::ScenarioResult& s) {
  py::dict d;
  d["name"] = s.name;
  py::dict overrides;
  for (const auto& [key, value] : s.overrides) overrides[py::str(key)] = value;
  d["overrides"] = overrides;
  py::list estimates, references, differences, tables;
  for (const auto& e : s.estimates) estimates.append(estimate_row(e));
  for (const auto& r : s.references) references.append(py::make_tuple(r.name, r.value, r.tolerance));
  for (const auto& x : s.differences)
    differences.append(py::make_tuple(x.estimate.name, x.estimate.value, x.estimate.std_error, x.unpaired_std_error,
                                      x.estimate.ci_low, x.estimate.ci_high, x.batches, x.reference));
  for (const auto& t : s.tables)
    tables.append(py::make_tuple(t.name, t.columns, matrix(t.data, t.columns.size()), t.units, t.row_names));
  py::dict info;  // name -> (what its samples count, its unit)
  for (std::size_t i = 0; i < s.info.size() && i < s.estimates.size(); ++i)
    info[py::str(s.estimates[i].name)] = py::make_tuple(s.info[i].samples_of, s.info[i].unit);
  d["estimate_info"] = info;
  d["estimates"] = estimates;
  d["references"] = references;
  d["differences"] = differences;
  d["diagnostics"] = s.diagnostics;
  d["tables"] = tables;
  d["tally_layout"] = s.tally_layout;
  d["chunk_tallies"] = matrix(s.chunk_tallies, s.tally_layout.size());
  return d;
}

py::dict results_dict(const io::Results& r) {
  py::dict provenance;
  provenance["mcsim_version"] = r.mcsim_version;
  provenance["git_sha"] = r.git_sha;
  provenance["created"] = r.created;
  provenance["command_line"] = r.command_line;
  provenance["backend"] = r.backend;
  provenance["precision"] = r.precision;
  provenance["devices"] = r.devices;
  provenance["seed"] = r.seed;
  provenance["paths"] = r.paths;
  provenance["chunk_paths"] = r.chunk_paths;
  provenance["ranks"] = r.ranks;
  if (!r.checkpoint.empty()) provenance["checkpoint"] = r.checkpoint;  // the finished work of an unfinished run
  if (r.target_rel_error > 0 || r.target_abs_error > 0) {
    provenance["paths_cap"] = r.paths_cap;
    provenance["target_rel_error"] = r.target_rel_error;
    provenance["target_abs_error"] = r.target_abs_error;
    provenance["target_met"] = r.target_met;
  }
  py::dict timing;
  timing["wall_s"] = r.wall_s;
  timing["paths_per_s"] = r.paths_per_s;
  timing["stages"] = r.stage_seconds;
  py::list devices;
  for (const auto& d : r.device_times) devices.append(py::make_tuple(d.rank, d.device, d.seconds, d.kernel_ms / 1e3, d.paths));
  timing["devices"] = devices;
  py::list scenarios;
  for (const auto& s : r.scenarios) scenarios.append(scenario_dict(s));
  py::dict out;
  out["provenance"] = provenance;
  out["config"] = r.config;
  out["timing"] = timing;
  out["scenarios"] = scenarios;
  return out;
}

// Ctrl-C during a run stops it as SIGINT stops `mcsim run` (the chunks in hand
// finish, a checkpoint is written when there is an output); Python's own handler
// is put back after.
class StopOnInterrupt {
 public:
  StopOnInterrupt() {
    struct sigaction ours {};
    ours.sa_handler = [](int sig) { request_stop(sig); };
    sigemptyset(&ours.sa_mask);
    installed_ = sigaction(SIGINT, &ours, &saved_) == 0;
  }
  ~StopOnInterrupt() {
    if (installed_) sigaction(SIGINT, &saved_, nullptr);
    request_stop(0);
  }
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

 private:
  struct sigaction saved_ {};
  bool installed_ = false;
};

// One session (its devices) per backend, made on first use and kept, so a
// notebook's later runs reuse the CUDA contexts and uploads.
const Session& session_for(io::BackendChoice backend) {
  static std::map<io::BackendChoice, std::unique_ptr<Session>> sessions;
  auto& s = sessions[backend];
  if (!s) s = std::make_unique<Session>(backend);
  return *s;
}

io::BackendChoice backend_of(const std::string& name, const io::Job& job) {
  if (name.empty()) return job.run.backend;
  if (name == "cpu") return io::BackendChoice::Cpu;
  if (name == "cuda") return io::BackendChoice::Cuda;
  if (name == "auto") return io::BackendChoice::Auto;
  throw py::value_error("backend must be 'auto', 'cpu' or 'cuda', not '" + name + "'");
}

py::dict run(const std::string& source, bool is_text, const std::vector<std::string>& overrides, const std::string& backend,
             const std::string& output, bool force, bool resume, bool progress, const std::string& command_line) {
  const io::Job job = is_text ? parse_job(source, "<job text>", overrides) : load_job(source, overrides);
  const Session& session = session_for(backend_of(backend, job));
  RunOptions options = Session::quiet();
  options.progress = progress;
  options.command_line = command_line;
  io::OutputClaim claim;
  if (!output.empty()) {
    claim = claim_output(output, force);
    options.checkpoint_for = output, options.resume = resume, options.discard_old = force;
  }
  io::Results results;
  {
    py::gil_scoped_release release;
    StopOnInterrupt interrupt;
    results = session.run(job, options);
    if (!output.empty()) write_job_results(output, job, results, force);
  }
  return results_dict(results);
}

py::dict open_file(const std::string& path) {
  py::gil_scoped_release release;
  io::Results r = open_results(path);
  py::gil_scoped_acquire acquire;
  return results_dict(r);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "mcsim's C++ core: run a job, read a results file";
  static py::exception<io::ConfigError> config_error(m, "ConfigError", PyExc_ValueError);
  static py::exception<std::runtime_error> run_error(m, "RunError", PyExc_RuntimeError);
  static py::exception<Stopped> stopped(m, "Stopped", PyExc_KeyboardInterrupt);  // Ctrl-C, as Python has it
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const io::ConfigError& e) {
      config_error(e.what());
    } catch (const Stopped& e) {
      stopped(e.what());
    } catch (const py::builtin_exception&) {
      throw;  // ValueError and the like, as pybind11 raises them
    } catch (const std::bad_alloc&) {
      throw;  // MemoryError
    } catch (const std::runtime_error& e) {
      run_error(e.what());
    }
  });
  m.def("run", &run, py::arg("source"), py::arg("is_text"), py::arg("overrides"), py::arg("backend"), py::arg("output"),
        py::arg("force"), py::arg("resume"), py::arg("progress"), py::arg("command_line"));
  m.def("open", &open_file, py::arg("path"));
  m.attr("version") = mcsim::kVersion;
}
