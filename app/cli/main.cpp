// The mcsim command line: run, show, diff, validate, devices.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/mcsim.hpp"
#include "app/run/runner.hpp"
#include "app/run/event_log.hpp"
#include "app/run/json.hpp"
#include "app/cli/compare.hpp"
#include "app/cli/export.hpp"
#include "app/cli/report.hpp"
#include "app/run/signals.hpp"
#include "app/cli/validate.hpp"
#include "app/version.hpp"
#include "io/checkpoint.hpp"
#include "io/diagnostics.hpp"
#include "io/output_files.hpp"
#include "reduce/mpi.hpp"

namespace {

using namespace mcsim;

// Exit statuses (README, "Exit statuses"): 0 done, 1 runtime error, 2 config error,
// kExitStopped (3) stopped by SIGTERM/SIGINT with a checkpoint written, 4 `diff`
// found estimates that differ.
constexpr int kExitRuntime = 1;
constexpr int kExitConfig = 2;
constexpr int kExitDiffer = 4;

std::optional<io::BackendChoice> parse_backend(const std::string& s) {
  if (s.empty()) return std::nullopt;
  if (s == "cpu") return io::BackendChoice::Cpu;
  if (s == "cuda") return io::BackendChoice::Cuda;
  return io::BackendChoice::Auto;
}

std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

// The command that continues a stopped run: every argument as given (quoted for
// a shell where needed), and --resume once.
std::string resume_command(int argc, char** argv) {
  std::string s = "mcsim";
  bool resumed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    resumed = resumed || a == "--resume";
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                         "_-+=.,:/@%") == std::string::npos;
    std::string quoted = "'";
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += " " + (plain ? a : quoted + "'");
  }
  return resumed ? s : s + " --resume";
}

// Stage seconds and each device's share, for --verbose.
void print_timing(const io::Results& r) {
  std::string stages;
  for (const auto& [stage, s] : r.stage_seconds) stages += fmt::format("{}{} {:.3f} s", stages.empty() ? "" : ", ", stage, s);
  fmt::print("  stages   {}\n", stages);
  for (const auto& d : r.device_times)
    fmt::print("  device   rank {} {}: {:.3f} s{}, {} paths\n", d.rank, d.device, d.seconds,
               d.kernel_ms > 0 ? fmt::format(" (kernels {:.3f} s)", d.kernel_ms / 1e3) : "", d.paths);
}

std::string estimates_json(const io::Results& r) {
  std::string out = "[";
  for (const auto& s : r.scenarios)
    for (const auto& e : s.estimates)
      out += fmt::format("{}{{\"scenario\": {}, \"name\": {}, \"value\": {}, \"std_error\": {}}}", out.size() > 1 ? ", " : "",
                         json_string(s.name), json_string(e.name), json_number(e.value), json_number(e.std_error));
  return out + "]";
}

int cmd_run(const std::string& config, const std::string& output, const std::string& backend,
            const std::vector<std::string>& sets, bool force, bool resume, bool quiet, bool verbose,
            const std::string& log, double log_every, double progress_every, const std::string& cmdline) {
  if (!log.empty() && mpi::master()) event_log::open(log, log_every);
  io::Job job = io::load_job_file(config, sets);
  const std::string path = output.empty() ? job.run.output : output;
  // One run at a time on an output and its checkpoints, for this run's life.
  const io::OutputClaim claim = claim_output(path, force);
  event_log::write("start", {{"job", json_string(job.run.name)}, {"config", json_string(config)},
                             {"output", json_string(path)}, {"paths", std::to_string(job.run.paths)},
                             {"ranks", std::to_string(mpi::size())}, {"command_line", json_string(cmdline)}});
  // The job's header first, so a batch log says what is running before it ends.
  if (mpi::master()) {
    fmt::print("mcsim {}: {} ({})\n  model    {}\n  job      run.paths {}, seed {}, {}, backend {}, {} rank{}{}\n  output   {}\n",
               kVersion, job.run.name, config, job.model->describe(), grouped(job.run.paths), job.run.seed,
               job.run.precision == Precision::Float ? "float" : "double", backend.empty() ? io::to_string(job.run.backend) : backend,
               mpi::size(), mpi::size() == 1 ? "" : "s", job.scenarios.size() < 2 ? "" : fmt::format(", {} scenarios", job.scenarios.size()),
               path);
    std::fflush(stdout);
  }
  RunOptions opt{parse_backend(backend), !quiet, cmdline, path, resume, force};
  opt.progress_lines_s = progress_every;
  const io::Results r = run_job(job, opt);
  if (!mpi::master()) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  write_job_results(path, job, r, force);
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{}", format_results(r, false));
  if (verbose) print_timing(r);
  fmt::print("  wrote    {} ({:.3f} s)\n", path, write_s);
  event_log::write("done", {{"output", json_string(path)}, {"paths", std::to_string(r.paths)},
                            {"wall_s", json_number(r.wall_s)}, {"estimates", estimates_json(r)}});
  return 0;
}

int cmd_show(const std::string& file, bool csv, bool json, const std::string& table) {
  const io::Results r = open_results(file);  // a checkpoint: what the run has done so far
  if (!table.empty()) {
    const std::string text = table_csv(r, table);  // throws, naming the tables there are, if none is called so
    if (csv) return fmt::print("{}", text), 0;
    for (const auto& s : r.scenarios)
      for (const auto& t : s.tables)
        if (t.name == table) fmt::print("scenario {}: table {}\n{}", s.name, t.name, format_table(t, 0));
    return 0;
  }
  if (csv || json) return fmt::print("{}", csv ? results_csv(r) : results_json(r)), 0;
  const bool partial = !r.checkpoint.empty();
  fmt::print("{}: mcsim {} ({}), {} {}\n{}{}", file, r.mcsim_version, r.git_sha, partial ? "a checkpoint, shown" : "created",
             r.created, partial ? "  so far  the finished work of an unfinished run\n" : "  command  " + r.command_line + "\n",
             format_results(r, true));
  return 0;
}

int cmd_diff(const std::string& a, const std::string& b, double max_z) {
  const Comparison c = compare_results(io::read_results(a), io::read_results(b), max_z);
  fmt::print("{}", format_comparison(c, a, b));
  return c.agree() ? 0 : kExitDiffer;
}

// A data folder (validation, configs): ./NAME when `here_first`, else an installed
// copy next to the executable (PREFIX/share/mcsim/NAME), else the source tree's.
std::string default_data_dir(const std::string& name, bool here_first) {
  namespace fs = std::filesystem;
  std::error_code e;
  const fs::path installed = fs::read_symlink("/proc/self/exe", e).parent_path().parent_path() / "share/mcsim" / name;
  for (const fs::path& p : {here_first ? fs::path(name) : fs::path(), installed})
    if (!p.empty() && fs::is_directory(p, e)) return p.string();
  return std::string(kSourceDir) + "/" + name;
}

// Every config key as declared next to its reader: type, default, allowed values
// and meaning; the same wherever it runs.
int cmd_schema(bool markdown) {
  fmt::print("{}", io::schema_reference(markdown));
  return 0;
}

int cmd_validate(std::string dir, const std::string& backend, const std::vector<std::string>& sets) {
  if (dir.empty()) dir = default_data_dir("validation", true);
  RunOptions opt{parse_backend(backend), false, "mcsim validate"};
  const auto rows = run_validation(dir, opt, sets);
  fmt::print("{}", format_validation(rows));
  for (const auto& r : rows)
    if (!r.pass) return kExitRuntime;
  return 0;
}

// The Python package's plots (python -m mcsim.plot), run with the package this
// mcsim was installed with, or else built with, on PYTHONPATH.
int cmd_plot(const std::string& file, const std::string& out) {
  namespace fs = std::filesystem;
  if (std::string(kPython).empty())
    throw std::runtime_error("this mcsim was built without its Python package (pybind11, python3-dev): no plots");
  std::error_code e;
  const fs::path installed = fs::read_symlink("/proc/self/exe", e).parent_path().parent_path() / kInstalledPythonDir;
  const std::string package = fs::exists(installed / "mcsim" / "plot.py", e) ? installed.string() : kBuildPythonDir;
  const char* old = std::getenv("PYTHONPATH");
  setenv("PYTHONPATH", (package + (old && *old ? ":" + std::string(old) : "")).c_str(), 1);
  std::vector<std::string> args{kPython, "-m", "mcsim.plot", file};
  if (!out.empty()) args.insert(args.end(), {"-o", out});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(kPython, argv.data());
  throw std::runtime_error(std::string("cannot start ") + kPython + ": " + io::describe_errno(errno));
}

int cmd_devices() {
  for (const auto& line : cuda_device_report()) fmt::print("{}\n", line);
  fmt::print("{}\n", make_cpu_device()->name());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mcsim: Monte Carlo simulation on CPUs and GPUs, driven by a YAML job file"};
  app.set_version_flag("--version", fmt::format("mcsim {} ({})", kVersion, kGitSha));
  app.require_subcommand(1);
  const std::vector<std::string> backends{"auto", "cpu", "cuda"};

  std::string config, output, backend, file, other, dir, table;
  std::vector<std::string> sets;
  bool force = false, quiet = false, verbose = false, resume = false, csv = false, json = false;
  std::string log;
  double max_z = 4, log_every = 10, progress_every = 30;

  auto* run = app.add_subcommand("run", "run a job file and write its results (HDF5)");
  run->add_option("config", config, "job file (YAML)")->required()->check(CLI::ExistingFile);
  run->add_option("-o,--output", output, "results file (default: run.output)");
  run->add_option("--backend", backend, "override run.backend")->check(CLI::IsMember(backends));
  run->add_option("--set", sets, "override a config key, e.g. --set model.process.volatility=0.3");
  run->add_flag("--force", force, "overwrite an existing results file (and discard old checkpoints)");
  run->add_flag("--resume", resume, "continue from the checkpoint of an unfinished run of this job");
  run->add_flag("-q,--quiet", quiet, "no progress bar");
  run->add_flag("-v,--verbose", verbose, "also the time of each stage and each device's share");
  run->add_option("--log", log, "the run's events as JSON lines (start, progress, done, stopped, error) for batch systems");
  run->add_option("--progress-every", progress_every,
                  "seconds between progress lines when stderr is not a terminal (a batch log); 0: none")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  run->add_option("--log-every", log_every, "seconds between the log's progress lines")->capture_default_str()->check(CLI::PositiveNumber);

  auto* show = app.add_subcommand("show", "print a results file");
  show->add_option("file", file, "results file (HDF5), or a run's checkpoint (RESULTS.ckpt.h5) to see it so far")->required()->check(CLI::ExistingFile);
  auto* csv_flag = show->add_flag("--csv", csv, "one line per scenario and estimate, every digit, swept keys as columns, for scripts");
  auto* json_flag = show->add_flag("--json", json, "everything the file holds as JSON, every digit, for scripts")->excludes(csv_flag);
  show->add_option("--table", table, "one table (flux, k_generation, quantiles, ...) whole; with --csv as CSV")->excludes(json_flag);

  auto* diff = app.add_subcommand("diff", "say whether two results files agree within their errors (exit 4 if not)");
  diff->add_option("a", file, "results file (HDF5)")->required()->check(CLI::ExistingFile);
  diff->add_option("b", other, "results file (HDF5)")->required()->check(CLI::ExistingFile);
  diff->add_option("--z", max_z, "agree within this many combined standard errors")->capture_default_str()->check(CLI::PositiveNumber);

  auto* validate = app.add_subcommand("validate", "run the analytic reference cases; fails if any |z| > 4");
  validate->add_option("dir", dir, "folder of case files, or one case file (default: validation/)");
  validate->add_option("--backend", backend, "backend for every case")->check(CLI::IsMember(backends));
  validate->add_option("--set", sets, "override a key in every case, e.g. --set run.precision=float");

  auto* schema = app.add_subcommand("schema", "print every config key: its type, default, allowed values and meaning");
  bool markdown = false;
  schema->add_flag("--markdown", markdown, "as a Markdown table (docs/config-reference.md)");

  auto* plot = app.add_subcommand("plot", "draw a results file's plots as PNGs (convergence, k, P&L, flux, sweeps)");
  plot->add_option("file", file, "results file (HDF5)")->required()->check(CLI::ExistingFile);
  plot->add_option("-o,--out", output, "folder for the PNGs (default: RESULTS.plots)");

  app.add_subcommand("devices", "list the CUDA devices and CPU threads mcsim can use");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a usage error (a missing or unreadable job
    // file among them) is a config error.
    return app.exit(e) == 0 ? 0 : kExitConfig;
  }

  // Only a run (or validation) under a launcher needs MPI: show, diff, schema and a
  // lone run start without it.
  if ((*run || *validate) && mpi::launched()) mpi::init(&argc, &argv);
  install_stop_handlers();
  const auto rank_prefix = [] { return mpi::size() > 1 ? fmt::format("rank {}: ", mpi::rank()) : std::string(); };
  int status = 0;
  try {
    if (*run)
      status = cmd_run(config, output, backend, sets, force, resume, quiet, verbose, log, log_every, progress_every,
                       join_args(argc, argv));
    else if (*show) status = cmd_show(file, csv, json, table);
    else if (*diff) status = cmd_diff(file, other, max_z);
    else if (*validate) status = cmd_validate(dir, backend, sets);
    else if (*schema) status = cmd_schema(markdown);
    else if (*plot) status = cmd_plot(file, output);
    else status = cmd_devices();
  } catch (const io::ConfigError& e) {
    if (mpi::master()) {
      std::fputs(e.what(), stderr);
      std::fprintf(stderr, "%zu error%s; nothing was run\n", e.lines.size(), e.lines.size() == 1 ? "" : "s");
    }
    status = kExitConfig;  // every rank read the same file and stops here
    event_log::write("error", {{"status", std::to_string(status)}, {"message", json_string(e.what())}});
  } catch (const Stopped& e) {
    // The same job (its overrides) and output resume it.
    if (mpi::master())
      std::fprintf(stderr, "mcsim: %s; continue with: %s\n", e.what(), resume_command(argc, argv).c_str());
    status = kExitStopped;  // all ranks agreed to stop
    event_log::write("stopped", {{"status", std::to_string(status)}, {"message", json_string(e.what())}});
  } catch (const std::exception& e) {
    const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::fprintf(stderr, "mcsim: error: %s%s\n", rank_prefix().c_str(),
                 memory ? "out of memory: the job's sizes (run.paths, run.chunk_paths, the model's counts and bins) "
                          "need more than this machine has"
                        : e.what());
    std::fflush(stderr);
    event_log::write("error", {{"status", std::to_string(kExitRuntime)}, {"message", json_string(e.what())}});
    if (mpi::size() > 1) mpi::abort_all(kExitRuntime);  // the other ranks cannot finish alone
    status = kExitRuntime;
  }
  mpi::finalize();
  return status;
}
