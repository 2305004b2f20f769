// A small option job for tests, with the instrument and run settings filled in.
#pragma once
#include <string>

inline std::string option_job(const std::string& instrument, const std::string& option,
                              const std::string& extra_model = "", const std::string& extra_run = "") {
  return "run: { name: t, paths: 400_000, seed: 99, chunk_paths: 16384" + extra_run +
         " }\n"
         "model:\n"
         "  type: option\n"
         "  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.02, volatility: 0.25 }\n"
         "  instrument: { type: " +
         instrument + ", option: " + option + ", strike: 105, maturity: 1.5 }\n" + extra_model;
}
