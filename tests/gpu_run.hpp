// Running a job on a backend for the [gpu] tests, which skip (printing SKIPPED)
// where no CUDA device is usable.
#pragma once
#include <iostream>
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "io/config.hpp"
#include "io/results.hpp"

inline bool have_gpu() {
  std::string why;
  if (mcsim::cuda_device_count(&why) > 0) return true;
  std::cout << "SKIPPED: no usable CUDA device (" << why << ")\n";
  return false;
}
inline mcsim::io::Results run_on(mcsim::io::BackendChoice b, const std::string& text, const std::vector<std::string>& sets) {
  return mcsim::run_job(mcsim::io::load_job_text(text, "gpu.yaml", sets), mcsim::RunOptions{b, false, "test"});
}
