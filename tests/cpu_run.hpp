// A job's text run on the CPU backend in-process, and its first scenario's first
// estimate and reference (the price, for an option job).
#pragma once
#include <string>
#include <vector>

#include "app/run/runner.hpp"
#include "io/config.hpp"

inline mcsim::io::Results run_cpu(const std::string& text, const std::vector<std::string>& sets = {}) {
  return mcsim::run_job(mcsim::io::load_job_text(text, "test.yaml", sets),
                        mcsim::RunOptions{mcsim::io::BackendChoice::Cpu, false, "test"});
}
inline const mcsim::reduce::Estimate& price(const mcsim::io::Results& r) { return r.scenarios.front().estimates.front(); }
inline double reference(const mcsim::io::Results& r) { return r.scenarios.front().references.front().value; }
