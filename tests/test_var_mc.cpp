// Portfolio risk end to end on the CPU backend: VaR, ES and contributions against
// the exact one-asset figures, contributions adding up to the totals, and exact
// quantiles that do not depend on chunks or threads.
#include <catch2/catch.hpp>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include "app/run/runner.hpp"
#include "app/run/plan.hpp"
#include "app/run/risk/job.hpp"
#include "io/config.hpp"
#include "io/diagnostics.hpp"
#include "io/results.hpp"
#include "run_exe.hpp"
#include "same_results.hpp"
#include "var_job.hpp"

using namespace mcsim;

namespace {
io::Results run_cpu(const std::string& text, const std::vector<std::string>& sets = {}) {
  return run_job(io::load_job_text(text, "risk.yaml", sets), RunOptions{io::BackendChoice::Cpu, false, "test"});
}
std::map<std::string, reduce::Estimate> by_name(const io::Results& r) {
  std::map<std::string, reduce::Estimate> m;
  for (const auto& e : r.scenarios.front().estimates) m[e.name] = e;
  return m;
}
}  // namespace

TEST_CASE("VaR ES and contributions of a one-asset book match the exact figures", "[var]") {
  for (const char* distribution : {"normal", "student_t"}) {
    INFO(distribution);
    const auto r = run_cpu(var_job("", distribution));
    const auto est = by_name(r);
    const auto& refs = r.scenarios.front().references;
    REQUIRE(refs.size() == 2 * (2 + 2 * 2));  // var, es and both positions' shares, per level
    for (const auto& ref : refs) {
      INFO(ref.name);
      REQUIRE(est.count(ref.name));
      const auto& e = est.at(ref.name);
      CHECK(e.std_error > 0);
      CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error);
      // The error bars are not so wide that anything passes: well under 2% here.
      CHECK(e.std_error < 0.02 * std::fabs(ref.value));
    }
  }
}

TEST_CASE("a book with digitals, a knock-out and an Asian matches the exact figures", "[var]") {
  const auto r = run_cpu(var_exotic_job());
  const auto est = by_name(r);
  const auto& refs = r.scenarios.front().references;
  REQUIRE(refs.size() == 2 * (2 + 2 * 5));  // var, es and five positions' shares, per level
  for (const auto& ref : refs) {
    INFO(ref.name << ": " << est.at(ref.name).value << " +- " << est.at(ref.name).std_error << " vs " << ref.value);
    const auto& e = est.at(ref.name);
    CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error);
    CHECK(e.std_error < 0.05 * std::fabs(ref.value));
  }
}

TEST_CASE("an option on a volatility factor that hardly moves revalues as at a fixed volatility", "[var]") {
  // The put's implied volatility is the factor VOL's level (0.3 today); with VOL's
  // own volatility near nothing the figures are those of the put at 0.3, since VOL
  // comes after ACME and leaves its shocks as they were.
  std::string fixed = var_job();
  std::string on_factor = fixed;
  const std::string asset = "assets: [{ name: ACME, spot: 100, volatility: 0.3, drift: 0.05 }]";
  on_factor.replace(on_factor.find(asset), asset.size(),
                    "assets: [{ name: ACME, spot: 100, volatility: 0.3, drift: 0.05 }, { name: VOL, spot: 0.3, volatility: "
                    "1e-6 }]\n    correlation: 0.4");
  const std::string put = "strike: 95, maturity: 0.25,";
  on_factor.replace(on_factor.find(put), put.size(), put + " volatility_factor: VOL,");
  const auto a = by_name(run_cpu(fixed)), b = by_name(run_cpu(on_factor));
  for (const char* name : {"var_0.95", "es_0.99", "var_0.99.put", "pnl_mean"}) {
    INFO(name << ": " << a.at(name).value << " vs " << b.at(name).value);
    CHECK(b.at(name).value == Approx(a.at(name).value).epsilon(1e-5));
  }
  // At a volatility of the factor that matters, the put's vega loss shows.
  std::string moving = on_factor;
  moving.replace(moving.find("volatility: 1e-6"), 16, "volatility: 1.5");
  moving.replace(moving.find("correlation: 0.4"), 16, "correlation: -0.7");
  const auto c = by_name(run_cpu(moving));
  CHECK(std::fabs(c.at("var_0.99.put").value - a.at("var_0.99.put").value) > 6 * c.at("var_0.99.put").std_error);
}

TEST_CASE("contributions add up to VaR and ES", "[var]") {
  const auto r = run_cpu(var_book_job());
  const auto est = by_name(r);
  for (const char* level : {"0.9", "0.99", "0.999"}) {
    INFO(level);
    double var = 0, es = 0;
    for (int p = 0; p < 7; ++p) {
      var += est.at(std::string("var_") + level + ".p" + std::to_string(p)).value;
      es += est.at(std::string("es_") + level + ".p" + std::to_string(p)).value;
    }
    const double total_var = est.at(std::string("var_") + level).value, total_es = est.at(std::string("es_") + level).value;
    CHECK(std::fabs(var - total_var) <= 1e-9 * std::fabs(total_var));
    CHECK(std::fabs(es - total_es) <= 1e-9 * std::fabs(total_es));
    CHECK(total_es > total_var);
  }
  // The delta-gamma-normal figures sit near the full revaluation for this short horizon.
  std::map<std::string, double> diag(r.scenarios.front().diagnostics.begin(), r.scenarios.front().diagnostics.end());
  CHECK(diag.at("delta_gamma_normal_var_0.99") == Approx(est.at("var_0.99").value).epsilon(0.15));
  CHECK(diag.count("es_unbounded_positions") == 0);  // normal shocks
  // Under Student-t shocks the short call's ES is infinite in theory: the run says so.
  const auto t = run_cpu(var_book_job(), {"model.factors.distribution=student_t", "model.factors.dof=4"});
  std::map<std::string, double> t_diag(t.scenarios.front().diagnostics.begin(), t.scenarios.front().diagnostics.end());
  CHECK(t_diag.at("es_unbounded_positions") == 1);
}

TEST_CASE("exact quantiles have the same bits for any chunk size and thread count", "[var]") {
  const auto a = run_cpu(var_book_job(), {"run.chunk_paths=8192"});
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto b = run_cpu(var_book_job(), {"run.chunk_paths=1024"});
  omp_set_num_threads(threads);
  CHECK(first_different_estimate(a, b) == "");
}

TEST_CASE("narrower histogram passes give the same bits", "[var]") {
  // A pass-2 budget of 500 losses forces the histogram to narrow, pass after pass,
  // around each level; the order statistics and sums cannot change.
  const io::Job job = plan::planned(io::load_job_text(var_book_job(), "risk.yaml"));
  const auto& model = dynamic_cast<const var::VarModel&>(*job.model);
  const RunOptions opt{io::BackendChoice::Cpu, false, "test"};
  const auto cpu = make_cpu_device();
  const auto wide = run_risk_job(job, model, opt, {cpu.get()});
  const auto narrow = run_risk_job(job, model, opt, {cpu.get()}, RiskLimits{500, 6});
  double passes = 0;
  for (const auto& [name, v] : narrow.scenario.diagnostics)
    if (name == "histogram_passes") passes = v;
  CHECK(passes > 2);
  io::Results a, b;
  a.scenarios = {wide.scenario}, b.scenarios = {narrow.scenario};
  CHECK(first_different_estimate(a, b) == "");
  // The later passes read the first's losses where it kept them; kept or revalued
  // (no room, or room for a few units), they are the same bits; so they are when
  // the host tallies a unit while the next is computed and the last finished (as
  // beside a GPU).
  for (const std::uint64_t room : {std::uint64_t{0}, std::uint64_t{8192 * 8 * 3}, std::uint64_t{1} << 30}) {
    INFO("room " << room);
    const auto revalued = run_risk_job(job, model, opt, {cpu.get()}, RiskLimits{500, 6, room, room > 0});
    b.scenarios = {revalued.scenario};
    a.scenarios = {narrow.scenario};
    CHECK(first_different_estimate(a, b) == "");
  }
}

TEST_CASE("a non-finite loss stops a risk run with its scenario, the host tallying beside the device or not", "[var]") {
  // 1.7e306 shares are worth a finite 1.7e308 today; a rise of 6% overflows them.
  const io::Job job = plan::planned(io::load_job_text(
      "run: { name: overflow, paths: 100_000, seed: 11, chunk_paths: 8192 }\n"
      "model:\n  type: var\n  horizon_days: 5\n  confidence: [0.99]\n"
      "  factors:\n    assets: [{ name: A, spot: 100, volatility: 0.3 }]\n"
      "  portfolio: [{ type: stock, asset: A, quantity: 1.7e306 }]\n",
      "overflow.yaml"));
  const auto& model = dynamic_cast<const var::VarModel&>(*job.model);
  const RunOptions opt{io::BackendChoice::Cpu, false, "test"};
  const auto cpu = make_cpu_device();
  for (const bool overlap : {false, true}) {
    INFO("overlap " << overlap);
    RiskLimits limits;
    limits.overlap = overlap;
    CHECK_THROWS_WITH(run_risk_job(job, model, opt, {cpu.get()}, limits),
                      Catch::Contains("its loss is not finite"));
  }
}

TEST_CASE("a stressed run on the same scenarios measures the change precisely", "[var]") {
  // Volatility up a point and the spot down 1%: both runs revalue the same shocks, so
  // the change in VaR and ES is far more precise than either figure alone (runs on
  // independent scenarios would miss the exact change by about `unpaired`).
  const std::vector<std::string> stress{"model.factors.assets.0.volatility=0.31", "model.factors.assets.0.spot=99"};
  const auto base = run_cpu(var_job());
  const auto shocked = run_cpu(var_job(), stress);
  const auto a = by_name(base), b = by_name(shocked);
  std::map<std::string, double> exact_a, exact_b;
  for (const auto& r : base.scenarios.front().references) exact_a[r.name] = r.value;
  for (const auto& r : shocked.scenarios.front().references) exact_b[r.name] = r.value;
  for (const char* name : {"var_0.95", "var_0.99", "es_0.95", "es_0.99"}) {
    INFO(name);
    const double change = b.at(name).value - a.at(name).value, exact = exact_b.at(name) - exact_a.at(name);
    const double unpaired = std::hypot(a.at(name).std_error, b.at(name).std_error);
    CHECK(std::fabs(exact) > 4 * unpaired);  // a change the runs can see
    CHECK(std::fabs(change - exact) < 0.2 * unpaired);
  }
}

TEST_CASE("a different seed moves the estimates within their errors", "[var]") {
  const auto a = by_name(run_cpu(var_job()));
  const auto b = by_name(run_cpu(var_job(), {"run.seed=6"}));
  for (const char* name : {"var_0.99", "es_0.99", "pnl_mean"}) {
    INFO(name);
    CHECK(a.at(name).value != b.at(name).value);
    CHECK(std::fabs(a.at(name).value - b.at(name).value) < 6 * std::hypot(a.at(name).std_error, b.at(name).std_error));
  }
}

TEST_CASE("the results file holds the histogram quantiles and contributions", "[var]") {
  const auto dir = test_exe::scratch("var-file");
  const std::string path = (dir / "risk.h5").string();
  const auto r = run_cpu(var_book_job());
  io::write_results(path, r, true);
  const auto back = io::read_results(path);
  const auto& s = back.scenarios.front();
  std::map<std::string, io::Table> tables;
  for (const auto& t : s.tables) tables[t.name] = t;
  REQUIRE(tables.count("loss_histogram"));
  double counted = 0;
  const auto& h = tables["loss_histogram"];
  REQUIRE(h.columns.size() == 3);
  for (std::size_t i = 2; i < h.data.size(); i += 3) counted += h.data[i];
  CHECK(counted == 200003);
  REQUIRE(tables.count("quantiles"));
  CHECK(tables["quantiles"].data.size() == 3 * 6);
  CHECK(tables["quantiles"].data[1] == by_name(r).at("var_0.9").value);
  CHECK(tables["contributions"].data.size() == 3 * 7 * 6);
  CHECK(s.chunk_tallies.size() == 3 * 25);  // loss moments of each of the 25 chunks
  std::filesystem::remove_all(dir);
}

TEST_CASE("the risk model refuses bad portfolios with the key and line", "[var]") {
  const auto error_of = [](const std::string& text) {
    try {
      io::load_job_text(text, "bad.yaml");
    } catch (const io::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string text = var_job();
  CHECK_THAT(error_of(text + "    - { name: stock, type: stock, asset: ACME, quantity: 1 }\n"),
             Catch::Contains("bad.yaml:13") && Catch::Contains("named twice"));
  std::string many = var_job();
  many.replace(many.find("[0.95, 0.99]"), 12, "[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99]");
  CHECK_THAT(error_of(many), Catch::Contains("confidence") && Catch::Contains("at most 10"));
  const std::string matrix = "[[1, 0.6, 0.3, -0.5], [0.6, 1, 0.2, -0.3], [0.3, 0.2, 1, -0.1], [-0.5, -0.3, -0.1, 1]]";
  std::string two = var_book_job();
  two.replace(two.find(matrix), matrix.size(), "-0.6");  // below -1/2: no three assets have it
  CHECK_THAT(error_of(two), Catch::Contains("correlation") && Catch::Contains("positive semidefinite"));
  std::string uniform = var_book_job();
  uniform.replace(uniform.find(matrix), matrix.size(), "0.4");
  CHECK_THAT(error_of(uniform), Catch::Equals("no error"));
}
