// Portfolio risk on CPU and GPU (ctest label gpu; skipped without a CUDA device):
// the same figures within rounding, and the same bits on any chunk size.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_run.hpp"
#include "io/config.hpp"
#include "same_results.hpp"
#include "var_job.hpp"

using namespace mcsim;

namespace {
// n assets with one stock and one put each, every pair correlated alike.
std::string wide_var_job(int n) {
  std::string text =
      "run: { name: wide, paths: 100_000, seed: 3, chunk_paths: 8192 }\n"
      "model:\n  type: var\n  horizon_days: 10\n  confidence: [0.99]\n"
      "  factors:\n    correlation: 0.25\n    assets:\n";
  for (int i = 0; i < n; ++i)
    text += "      - { name: X" + std::to_string(i) + ", spot: " + std::to_string(50 + i % 100) +
            ", volatility: 0.3 }\n";
  text += "  portfolio:\n";
  for (int i = 0; i < n; ++i) {
    text += "    - { type: stock, asset: X" + std::to_string(i) + ", quantity: 10 }\n";
    text += "    - { type: option, option: put, asset: X" + std::to_string(i) + ", strike: " +
            std::to_string(45 + i % 100) + ", maturity: 0.5, quantity: " + std::to_string(i % 3 == 0 ? -10 : 10) + " }\n";
  }
  return text;
}

// Every estimate within `tolerance` of the first VaR. With float losses, near-ties
// order differently on the two devices, so a VaR share (the mean over the scenarios
// in the VaR's 95% band) may swap a few scenarios at the band's edges: those must
// agree within half their standard error instead.
void check_risk_agrees(const io::Results& cpu, const io::Results& gpu, double tolerance, bool float_losses) {
  REQUIRE(cpu.scenarios.size() == gpu.scenarios.size());
  for (std::size_t k = 0; k < cpu.scenarios.size(); ++k) {
    const auto& c = cpu.scenarios[k].estimates;
    const auto& g = gpu.scenarios[k].estimates;
    INFO("scenario " << cpu.scenarios[k].name);
    REQUIRE(c.size() == g.size());
    const double scale = std::fabs(c.front().value);  // the first level's VaR
    for (std::size_t i = 0; i < c.size(); ++i) {
      INFO(c[i].name << ": cpu " << c[i].value << ", gpu " << g[i].value << ", std error " << c[i].std_error);
      CHECK(g[i].name == c[i].name);
      const bool var_share = c[i].name.rfind("var_", 0) == 0 && c[i].name.find('.', 6) != std::string::npos;
      const double allowed = float_losses && var_share ? 0.5 * c[i].std_error : tolerance * scale;
      CHECK(std::fabs(g[i].value - c[i].value) <= allowed);
    }
  }
}
}  // namespace

TEST_CASE("portfolio VaR ES and contributions agree on CPU and GPU", "[gpu][var]") {
  if (!have_gpu()) return;
  for (const char* precision : {"double", "float"}) {
    INFO(precision);
    // Float losses round at about 1e-7 of the positions' values: well under 1e-4 of the VaR.
    const bool is_double = std::string(precision) == "double";
    const double tolerance = is_double ? 1e-9 : 1e-4;
    const std::vector<std::string> sets{std::string("run.precision=") + precision};
    check_risk_agrees(run_on(io::BackendChoice::Cpu, var_book_job(), sets),
                      run_on(io::BackendChoice::Cuda, var_book_job(), sets), tolerance, !is_double);
    const std::vector<std::string> t_sets{std::string("run.precision=") + precision};
    check_risk_agrees(run_on(io::BackendChoice::Cpu, var_job("", "student_t"), t_sets),
                      run_on(io::BackendChoice::Cuda, var_job("", "student_t"), t_sets), tolerance, !is_double);
    check_risk_agrees(run_on(io::BackendChoice::Cpu, var_exotic_job(), sets),
                      run_on(io::BackendChoice::Cuda, var_exotic_job(), sets), tolerance, !is_double);
    // Bonds, caps, floors and swaptions on a short rate: alone, and beside an equity book.
    check_risk_agrees(run_on(io::BackendChoice::Cpu, var_rates_job(), sets),
                      run_on(io::BackendChoice::Cuda, var_rates_job(), sets), tolerance, !is_double);
    const std::string mixed = std::string(MCSIM_SOURCE_DIR) + "/configs/var-rates.yaml";
    const std::vector<std::string> small{std::string("run.precision=") + precision, "run.paths=200000"};
    const auto on = [&](io::BackendChoice b) { return run_job(io::load_job_file(mixed, small), RunOptions{b, false, "test"}); };
    check_risk_agrees(on(io::BackendChoice::Cpu), on(io::BackendChoice::Cuda), tolerance, !is_double);
  }
}

TEST_CASE("historical simulation on a book and a history from files agrees on CPU and GPU", "[gpu][var]") {
  if (!have_gpu()) return;
  // The shipped job: its base, filtered (EWMA-rescaled) and age-weighted scenarios, full revaluation.
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/var-historical.yaml";
  for (const char* precision : {"double", "float"}) {
    INFO(precision);
    const bool is_double = std::string(precision) == "double";
    const std::vector<std::string> sets{std::string("run.precision=") + precision};
    const auto on = [&](io::BackendChoice b) { return run_job(io::load_job_file(config, sets), RunOptions{b, false, "test"}); };
    check_risk_agrees(on(io::BackendChoice::Cpu), on(io::BackendChoice::Cuda), is_double ? 1e-9 : 1e-4, !is_double);
  }
}

TEST_CASE("portfolio risk with more assets than shared memory holds agrees on CPU and GPU", "[gpu][var]") {
  if (!have_gpu()) return;
  // 420 assets in double: a tile of 32 scenarios' shocks (420 x 32 x 8 bytes) is
  // past the shared-memory limit, so the log-spot kernel works in place.
  const std::string job = wide_var_job(420);
  check_risk_agrees(run_on(io::BackendChoice::Cpu, job, {}), run_on(io::BackendChoice::Cuda, job, {}), 1e-9, false);
}

TEST_CASE("portfolio risk on the GPU has the same bits for any chunk size and on a repeat", "[gpu][var]") {
  if (!have_gpu()) return;
  const auto a = run_on(io::BackendChoice::Cuda, var_book_job(), {"run.precision=float", "run.chunk_paths=8192"});
  const auto b = run_on(io::BackendChoice::Cuda, var_book_job(), {"run.precision=float", "run.chunk_paths=1024"});
  const auto c = run_on(io::BackendChoice::Cuda, var_book_job(), {"run.precision=float", "run.chunk_paths=8192"});
  CHECK(first_different_estimate(a, b) == "");
  CHECK(first_different_estimate(a, c) == "");
  const auto d = run_on(io::BackendChoice::Cuda, var_rates_job(), {"run.chunk_paths=8192"});
  const auto e = run_on(io::BackendChoice::Cuda, var_rates_job(), {"run.chunk_paths=2048"});
  CHECK(first_different_estimate(d, e) == "");
}
