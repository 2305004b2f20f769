// The command line of the benchmarks that time a job file:
//   JOB.yaml cuda|cpu [paths = run.paths, or -] [runs = 5] [float | double = run.precision]
#pragma once
#include <string>
#include <vector>

#include "app/run/runner.hpp"

namespace mcsim {

struct JobArgs {
  std::string file, backend;
  std::vector<std::string> sets;  // the overrides the arguments make
  io::Job job;
  RunOptions options;
  int runs = 5;
};

// The job with its overrides, and run options for the backend asked for, without
// a progress line. Throws on a missing argument.
inline JobArgs job_args(int argc, char** argv) {
  if (argc < 3) throw std::invalid_argument("needs JOB.yaml and cuda|cpu");
  JobArgs a;
  a.file = argv[1], a.backend = argv[2];
  std::vector<std::string>& sets = a.sets;
  if (argc > 3 && std::string(argv[3]) != "-") sets.push_back(std::string("run.paths=") + argv[3]);
  if (argc > 4) a.runs = std::stoi(argv[4]);
  if (argc > 5) sets.push_back(std::string("run.precision=") + argv[5]);
  a.job = io::load_job_file(a.file, sets);
  a.options.backend = a.backend == "cuda" ? io::BackendChoice::Cuda : io::BackendChoice::Cpu;
  a.options.progress = false;
  return a;
}

}  // namespace mcsim
