// The mcsim command line: run, show, validate, devices.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>

#include "app/driver.hpp"
#include "app/validate.hpp"
#include "app/version.hpp"
#include "io/diagnostics.hpp"

namespace {

using namespace mcsim;

constexpr int kExitRuntime = 1;
constexpr int kExitConfig = 2;

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

void print_results(const io::Results& r, const std::string& title) {
  fmt::print("{}\n", title);
  fmt::print("  backend  {} [{}], {}, {} paths, chunks of {}, seed {}\n", r.backend,
             fmt::format("{}", fmt::join(r.devices, "; ")), r.precision, r.paths, r.chunk_paths, r.seed);
  for (const auto& s : r.scenarios) {
    if (r.scenarios.size() > 1) fmt::print("scenario {}\n", s.name);
    fmt::print("{}", format_estimates(s));
  }
  fmt::print("  time     {:.3f} s wall, {:.3g} paths/s\n", r.wall_s, r.paths_per_s);
}

int cmd_run(const std::string& config, const std::string& output, const std::string& backend,
            const std::vector<std::string>& sets, bool force, bool quiet, const std::string& cmdline) {
  io::Job job = io::load_job_file(config, sets);
  const std::string path = output.empty() ? job.run.output : output;
  io::check_writable(path, force);  // fail before the work, not after
  RunOptions opt{parse_backend(backend), !quiet, cmdline};
  const io::Results r = run_job(job, opt);
  const auto t0 = std::chrono::steady_clock::now();
  io::write_results(path, r, force);
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_results(r, fmt::format("mcsim {}: {} ({})\n  model    {}", kVersion, job.run.name, config,
                               job.model->describe()));
  fmt::print("  wrote    {} ({:.3f} s)\n", path, write_s);
  return 0;
}

int cmd_show(const std::string& file) {
  const io::Results r = io::read_results(file);
  print_results(r, fmt::format("{}: mcsim {} ({}), created {}\n  command  {}", file, r.mcsim_version,
                               r.git_sha, r.created, r.command_line));
  return 0;
}

int cmd_validate(std::string dir, const std::string& backend, const std::vector<std::string>& sets) {
  if (dir.empty()) dir = std::filesystem::is_directory("validation") ? "validation"
                                                                       : std::string(kSourceDir) + "/validation";
  RunOptions opt{parse_backend(backend), false, "mcsim validate"};
  const auto rows = run_validation(dir, opt, sets);
  fmt::print("{}", format_validation(rows));
  for (const auto& r : rows)
    if (!r.pass) return kExitRuntime;
  return 0;
}

int cmd_devices() {
  for (const auto& line : cuda_device_report()) fmt::print("{}\n", line);
  fmt::print("{}\n", make_cpu_backend()->devices().front());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mcsim: Monte Carlo simulation on CPUs and GPUs, driven by a YAML job file"};
  app.set_version_flag("--version", fmt::format("mcsim {} ({})", kVersion, kGitSha));
  app.require_subcommand(1);
  const std::vector<std::string> backends{"auto", "cpu", "cuda"};

  std::string config, output, backend, file, dir;
  std::vector<std::string> sets;
  bool force = false, quiet = false;

  auto* run = app.add_subcommand("run", "run a job file and write its results (HDF5)");
  run->add_option("config", config, "job file (YAML)")->required()->check(CLI::ExistingFile);
  run->add_option("-o,--output", output, "results file (default: run.output)");
  run->add_option("--backend", backend, "override run.backend")->check(CLI::IsMember(backends));
  run->add_option("--set", sets, "override a config key, e.g. --set model.process.volatility=0.3");
  run->add_flag("--force", force, "overwrite an existing results file");
  run->add_flag("-q,--quiet", quiet, "no progress bar");

  auto* show = app.add_subcommand("show", "print a results file");
  show->add_option("file", file, "results file (HDF5)")->required()->check(CLI::ExistingFile);

  auto* validate = app.add_subcommand("validate", "run the analytic reference cases; fails if any |z| > 4");
  validate->add_option("dir", dir, "folder of case files (default: validation/)");
  validate->add_option("--backend", backend, "backend for every case")->check(CLI::IsMember(backends));
  validate->add_option("--set", sets, "override a key in every case, e.g. --set run.precision=float");

  app.add_subcommand("devices", "list the CUDA devices and CPU threads mcsim can use");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  try {
    if (*run) return cmd_run(config, output, backend, sets, force, quiet, join_args(argc, argv));
    if (*show) return cmd_show(file);
    if (*validate) return cmd_validate(dir, backend, sets);
    return cmd_devices();
  } catch (const io::ConfigError& e) {
    std::fputs(e.what(), stderr);
    std::fprintf(stderr, "%zu error%s; nothing was run\n", e.lines.size(), e.lines.size() == 1 ? "" : "s");
    return kExitConfig;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mcsim: error: %s\n", e.what());
    return kExitRuntime;
  }
}
