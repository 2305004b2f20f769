// Risk jobs on a book and a history written to files by the test: the history's
// dates and prices, a small book in YAML and in CSV, and readers of the results.
#pragma once
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "io/config.hpp"
#include "io/results.hpp"
#include "models/var/var_model.hpp"

namespace var_history {

// One folder a process: ctest runs these cases side by side, each writing its files.
inline const std::filesystem::path kDir =
    std::filesystem::temp_directory_path() / ("mcsim-var-history-" + std::to_string(::getpid()));

inline std::string write(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(kDir);
  const std::string path = (kDir / name).string();
  std::ofstream(path) << text;
  return path;
}

// Day d's date from 2024-01-01 on, every calendar day a trading day.
inline std::string date(int d) {
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};  // 2024 is a leap year
  int month = 0;
  while (d >= days[month % 12]) d -= days[month % 12], ++month;
  char out[11];
  std::snprintf(out, sizeof out, "%04d-%02d-%02d", 2024 + month / 12, month % 12 + 1, d + 1);
  return out;
}

// Prices that wander without ties: A and B per day.
inline double price_a(int d) { return 100 * std::exp(0.03 * std::sin(0.7 * d) + 0.002 * d + 0.01 * std::cos(2.3 * d)); }
inline double price_b(int d) { return 40 + 3 * std::cos(1.3 * d) + 0.05 * d; }

inline constexpr int kDays = 120;
inline std::string history_csv() {
  std::string t = "date,A,B,unused\n";
  for (int d = 0; d < kDays; ++d) t += date(d) + "," + std::to_string(price_a(d)) + "," + std::to_string(price_b(d)) + ",1\n";
  return t;
}
// std::to_string keeps 6 decimals: the prices as the file holds them.
inline double as_written(double x) { return std::stod(std::to_string(x)); }

inline const std::string kBook =
    "    - { name: a, type: stock, asset: A, quantity: 1000 }\n"
    "    - { name: b, type: stock, asset: B, quantity: -500 }\n"
    "    - { name: fwd, type: forward, asset: B, strike: 41, maturity: 1, quantity: 300 }\n";

// Desks eq (a stock and its exact hedge) and rates, books x and y across them.
inline const std::string kGroupedBook =
    "id,type,underlying,quantity,strike,maturity,desk,book\n"
    "a,stock,A,1000,,,eq,x\n"
    "hedge,stock,A,-1000,,,eq,y\n"
    "b,stock,B,-500,,,rates,x\n"
    "fwd,forward,B,300,41,1,rates,y\n";

inline std::string historical_job(const std::string& history_path, const std::string& history_extra = "",
                           const std::string& portfolio = "  portfolio:\n" + kBook) {
  return "run: { name: hs, seed: 3 }\n"
         "model:\n"
         "  type: var\n"
         "  method: historical\n"
         "  horizon_days: 5\n"
         "  confidence: [0.8, 0.9, 0.95, 0.975]\n"
         "  rate: 0.02\n"
         "  factors:\n"
         "    history: { file: " + history_path + history_extra + " }\n"
         "    assets: [{ name: A }, { name: B }]\n" + portfolio;
}

inline std::map<std::string, mcsim::reduce::Estimate> by_name(const mcsim::io::Results& r) {
  std::map<std::string, mcsim::reduce::Estimate> m;
  for (const auto& e : r.scenarios.front().estimates) m[e.name] = e;
  return m;
}
inline const mcsim::var::VarSpec& spec_of(const mcsim::io::Job& job) { return dynamic_cast<const mcsim::var::VarModel&>(*job.model).spec(); }

}  // namespace var_history
