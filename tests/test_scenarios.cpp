// What-if scenarios and sweeps: how they expand, the errors they give, and their
// paired differences from the base scenario, checked against analytic differences
// and against the spread of differences over independent seeds.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <map>
#include <filesystem>
#include <string>

#include "app/run/plan.hpp"
#include "app/run/runner.hpp"
#include "io/checkpoint.hpp"
#include "io/config.hpp"
#include "config_errors.hpp"
#include "io/diagnostics.hpp"
#include "io/results.hpp"
#include "job_text.hpp"
#include "reduce/paired.hpp"
#include "transport_job.hpp"
#include "var_job.hpp"

using namespace mcsim;
namespace fs = std::filesystem;

namespace {

io::Results run_cpu(const std::string& text, RunOptions opt = {io::BackendChoice::Cpu, false, "test"}) {
  return run_job(io::load_job_text(text, "job.yaml"), opt);
}
const reduce::Difference& difference(const io::ScenarioResult& s, const std::string& name) {
  for (const auto& d : s.differences)
    if (d.estimate.name == name) return d;
  FAIL("no difference named " << name << " in scenario " << s.name);
  throw;
}
const io::ScenarioResult& scenario(const io::Results& r, const std::string& name) {
  for (const auto& s : r.scenarios)
    if (s.name == name) return s;
  FAIL("no scenario named " << name);
  throw;
}

const std::string kScenarios =
    "scenarios:\n"
    "  - name: vol_up\n"
    "    set: { model.process.volatility: 0.3 }\n"
    "sweep:\n"
    "  model.instrument.strike: [95, 115]\n"
    "  model.instrument.maturity: [1, 2]\n";

}  // namespace

TEST_CASE("scenarios and a sweep expand base first then the list then the grid", "[scenarios]") {
  const io::Job job = io::load_job_text(option_job("european", "call") + kScenarios, "job.yaml");
  std::vector<std::string> names;
  for (const auto& s : job.scenarios) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"base", "vol_up", "strike=95,maturity=1", "strike=95,maturity=2",
                                          "strike=115,maturity=1", "strike=115,maturity=2"});
  CHECK(job.scenarios[0].overrides.empty());
  CHECK(job.scenarios[1].overrides == std::vector<std::pair<std::string, std::string>>{{"model.process.volatility", "0.3"}});
  CHECK(job.scenarios[4].overrides.size() == 2);
  // Each scenario's own config, without the scenarios; the model follows it.
  const io::Job up = job.scenario(1);
  CHECK(up.yaml.find("volatility: 0.3") != std::string::npos);
  CHECK(up.yaml.find("scenarios") == std::string::npos);
  CHECK(up.model->describe() != job.model->describe());
  CHECK(job.yaml.find("sweep") != std::string::npos);  // the file records the whole job

  // A listed base scenario may set keys of its own; it still comes first.
  const io::Job b = io::load_job_text(option_job("european", "call") +
                                          "scenarios:\n  - { name: x, set: { model.instrument.strike: 100 } }\n"
                                          "  - { name: base, set: { model.instrument.strike: 90 } }\n",
                                      "job.yaml");
  REQUIRE(b.scenarios.size() == 2);
  CHECK(b.scenarios[0].name == "base");
  CHECK(b.scenarios[0].overrides.size() == 1);
}

TEST_CASE("a job with scenarios gets enough chunks for its paired errors", "[scenarios]") {
  const std::string text = "run: { paths: 1_000_000, seed: 1 }\n" + option_job("european", "call").substr(option_job("european", "call").find("model:"));
  const io::Job plain = plan::planned(io::load_job_text(text, "job.yaml"));
  const io::Job with = plan::planned(io::load_job_text(text + "scenarios: [{ name: up, set: { model.instrument.strike: 110 } }]\n", "job.yaml"));
  CHECK((plain.run.paths + plain.run.chunk_paths - 1) / plain.run.chunk_paths < reduce::kBatches);
  CHECK((with.run.paths + with.run.chunk_paths - 1) / with.run.chunk_paths >= reduce::kBatches);
}

TEST_CASE("scenario mistakes name the key, the line and the scenario", "[scenarios][config]") {
  const std::string job = option_job("european", "call");
  // Line 6 is the first line after the option job's five.
  auto e = errors_of(job + "scenarios:\n  - name: bad\n    set: { model.process.volatility: -0.2 }\n");
  REQUIRE(e.size() == 1);
  CHECK(has_line(e, "job.yaml:8:"));
  CHECK(has_line(e, "scenario bad: model.process.volatility"));

  e = errors_of(job + "scenarios:\n  - name: more\n    set: { run.paths: 10 }\n");
  CHECK(has_line(e, "job.yaml:8:"));
  CHECK(has_line(e, "'run.paths' cannot vary between scenarios"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: t, set: { model.type: var } }]\n"), "model.type cannot vary"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: a }, { name: a }]\n"), "two scenarios are named 'a'"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: a/b }]\n"), "and this one holds a '/'"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: a, sett: {} }]\n"), "did you mean 'set'"));
  CHECK(has_line(errors_of(job + "scenarios: [{ set: {} }]\n"), "missing required key 'name'"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: a, set: 3 }]\n"), "expected a mapping of dotted keys"));
  CHECK(has_line(errors_of(job + "sweep: { model.instrument.strike: 90 }\n"), "expected a list of one or more values"));
  CHECK(has_line(errors_of(job + "sweep: { model.instrument.strike: [] }\n"), "expected a list of one or more values"));
  CHECK(has_line(errors_of(job + "sweep: [1, 2]\n"), "sweep: expected a mapping"));
  std::string many = "1";  // 2 x 3000 points
  for (int i = 2; i <= 3000; ++i) many += ", " + std::to_string(i);
  CHECK(has_line(errors_of(job + "sweep: { model.process.volatility: [0.1, 0.2], model.instrument.strike: [" + many + "] }\n"),
                 "more than 4096 points"));
  CHECK(has_line(errors_of(job + "scenarios: [{ name: a, set: { model.instrument.strikee: 1 } }]\n"),
                 "scenario a: unknown key 'model.instrument.strikee'"));
  // An error of the base config is reported once, not once per scenario.
  std::string bad = job;
  bad.replace(bad.find("strike: 105"), 11, "strike: -1");
  e = errors_of(bad + kScenarios);
  CHECK(e.size() == 1);
}

TEST_CASE("the paired difference's error is the spread of batch differences", "[scenarios]") {
  const reduce::Estimate a = reduce::normal_estimate("x", 3.0, 0.5, 400), b = reduce::normal_estimate("x", 1.0, 0.4, 400);
  const std::vector<double> w{100, 100, 100, 100}, va{3.1, 2.9, 3.2, 2.8}, vb{1.05, 0.95, 1.1, 0.9};
  const reduce::Difference d = reduce::paired_difference(a, b, va, vb, w);
  // Differences 2.05, 1.95, 2.1, 1.9: mean 2, squares 0.0025 + 0.0025 + 0.01 + 0.01 over 16, times 4/3.
  CHECK(d.estimate.value == 2.0);
  CHECK(d.estimate.std_error == Approx(std::sqrt(0.025 / 16 * 4 / 3)).epsilon(1e-12));
  CHECK(d.unpaired_std_error == Approx(std::sqrt(0.41)).epsilon(1e-12));
  CHECK(d.batches == 4);
  const reduce::Difference none = reduce::paired_difference(a, b, {}, vb, w);
  CHECK(std::isnan(none.estimate.std_error));
  CHECK(none.batches == 0);
}

TEST_CASE("option scenarios give analytic differences within their paired errors", "[scenarios]") {
  const io::Results r = run_cpu(option_job("european", "call", "  greeks: [delta]\n") + kScenarios);
  REQUIRE(r.scenarios.size() == 6);
  CHECK(r.scenarios.front().differences.empty());
  for (std::size_t i = 1; i < r.scenarios.size(); ++i)
    for (const char* name : {"price", "delta"}) {
      const reduce::Difference& d = difference(r.scenarios[i], name);
      INFO(r.scenarios[i].name << " " << name << ": " << d.estimate.value << " +- " << d.estimate.std_error
                               << " (unpaired " << d.unpaired_std_error << "), reference " << d.reference);
      REQUIRE(!std::isnan(d.reference));
      CHECK(d.batches >= 16);
      CHECK(std::fabs(d.estimate.value - d.reference) < 4 * d.estimate.std_error);
      // The same random numbers: the paired error is a fraction of the unpaired one.
      CHECK(d.estimate.std_error < 0.5 * d.unpaired_std_error);
    }
}

TEST_CASE("the paired error matches the spread of differences over seeds", "[scenarios]") {
  // 40 independent runs of a volatility bump: the paired errors' mean must match
  // the differences' standard deviation (a ratio of 1; +-0.35 is about 3 of its
  // own standard errors at 40 runs).
  const int runs = 40;
  double sum = 0, sum_sq = 0, se = 0;
  for (int seed = 1; seed <= runs; ++seed) {
    const std::string job = "run: { paths: 65536, seed: " + std::to_string(seed) + ", chunk_paths: 1024 }\n" +
                            option_job("european", "call").substr(option_job("european", "call").find("model:")) +
                            "scenarios: [{ name: up, set: { model.process.volatility: 0.3 } }]\n";
    const reduce::Difference& d = difference(run_cpu(job).scenarios.at(1), "price");
    sum += d.estimate.value, sum_sq += d.estimate.value * d.estimate.value, se += d.estimate.std_error / runs;
  }
  const double sd = std::sqrt((sum_sq - sum * sum / runs) / (runs - 1));
  INFO("spread of the differences " << sd << ", mean paired error " << se);
  CHECK(se / sd > 0.65);
  CHECK(se / sd < 1.35);
}

TEST_CASE("transport scenarios pair their histories: thicker absorbers transmit less", "[scenarios][transport]") {
  const std::string model = "  mode: fixed_source\n"
                            "  materials: [{ name: m, total: 1.0, scatter: 0.0 }]\n"
                            "  geometry: { type: slab, boundaries: [0, 1] }\n"
                            "  regions: [m]\n"
                            "  source: { type: beam, position: 0, direction: 1 }\n"
                            "  tallies: [transmission, absorption]\n"
                            "sweep:\n  model.geometry.boundaries: [[0, 1.5], [0, 2]]\n";
  const io::Results r = run_cpu(transport_job(model));
  REQUIRE(r.scenarios.size() == 3);
  CHECK(r.scenarios[1].name == "boundaries=[0, 1.5]");
  for (std::size_t i = 1; i < 3; ++i) {
    const reduce::Difference& d = difference(r.scenarios[i], "transmission");
    INFO(r.scenarios[i].name << ": " << d.estimate.value << " +- " << d.estimate.std_error << ", reference " << d.reference);
    CHECK(d.reference == Approx(std::exp(-(i == 1 ? 1.5 : 2.0)) - std::exp(-1.0)).epsilon(1e-12));
    CHECK(std::fabs(d.estimate.value - d.reference) < 4 * d.estimate.std_error);
    CHECK(d.estimate.std_error < 0.8 * d.unpaired_std_error);
  }
}

TEST_CASE("eigenvalue and risk scenarios report paired differences where batches exist", "[scenarios][transport][var]") {
  // A thinner PUa slab is subcritical: k falls, and each generation pairs.
  const io::Results t = run_cpu(transport_job(pua_slab_model("scenarios: [{ name: thin, set: { model.geometry.boundaries: [-1.6, 1.6] } }]\n"),
                                              "paths: 20_000"));
  const reduce::Difference& k = difference(t.scenarios.at(1), "k_eff");
  INFO("k difference " << k.estimate.value << " +- " << k.estimate.std_error << " (unpaired " << k.unpaired_std_error << ")");
  CHECK(k.batches > 1);
  CHECK(k.estimate.value + 4 * k.estimate.std_error < 0);

  // 1000 more shares: the P&L changes by 1000 (S_h - S_0) on every path, so the
  // paired difference has that lognormal mean and spread (S_0 100, volatility 0.3,
  // drift 0.05, 10 days of 252, 300,001 paths). VaR has no batch values, so its
  // difference carries the unpaired error only.
  const io::Results v = run_cpu(var_job() + "scenarios: [{ name: more, set: { model.portfolio.0.quantity: 2000 } }]\n");
  const reduce::Difference& mean = difference(v.scenarios.at(1), "pnl_mean");
  const double h = 10.0 / 252, growth = std::exp(0.05 * h);
  const double exact = 1000 * 100 * (growth - 1), se = 1000 * 100 * growth * std::sqrt(std::expm1(0.09 * h) / 300001);
  INFO("P&L mean difference " << mean.estimate.value << " +- " << mean.estimate.std_error << ", exact " << exact << " +- " << se);
  CHECK(mean.batches > 1);
  CHECK(std::fabs(mean.estimate.value - exact) < 4 * se);
  CHECK(mean.estimate.std_error == Approx(se).epsilon(0.3));  // 64 batches: the error's own spread is 9%
  // VaR and ES pair through their tails. Both tails hold the paths of the lowest
  // prices, so the VaR difference is 1000 (S_0 - S_q), S_q the price's quantile at
  // the level: its error is 1000 sqrt(p (1 - p) / n) / f(S_q), f the lognormal density.
  for (const double level : {0.95, 0.99}) {
    const std::string name = level == 0.95 ? "0.95" : "0.99";
    const double z = level == 0.95 ? -1.6448536269514722 : -2.3263478740408408, vol = 0.3 * std::sqrt(h);
    const double s_q = 100 * std::exp((0.05 - 0.045) * h + vol * z);
    const double density = std::exp(-z * z / 2) / std::sqrt(2 * M_PI) / (s_q * vol);
    const double var_se = 1000 * std::sqrt(level * (1 - level) / 300001) / density;
    for (const std::string prefix : {"var_", "es_"}) {
      const reduce::Difference& d = difference(v.scenarios.at(1), prefix + name);
      INFO(prefix + name << " difference " << d.estimate.value << " +- " << d.estimate.std_error << " (unpaired "
                         << d.unpaired_std_error << "), reference " << d.reference << ", exact VaR error " << var_se);
      CHECK(d.batches == 0);
      CHECK(d.estimate.std_error < 0.8 * d.unpaired_std_error);
      if (prefix == "var_") CHECK(d.estimate.std_error == Approx(var_se).epsilon(0.3));
      if (!std::isnan(d.reference)) CHECK(std::fabs(d.estimate.value - d.reference) < 4 * d.estimate.std_error);
    }
  }
}

TEST_CASE("paired VaR and ES errors match the spread of differences over seeds", "[scenarios][var]") {
  // 30 independent runs of a position change: each paired error's mean must match
  // the differences' standard deviation (ratio 1; +-0.4 is about 3 of its own
  // standard errors at 30 runs).
  const int runs = 30;
  std::map<std::string, std::array<double, 3>> acc;  // sum, sum of squares, mean error
  for (int seed = 1; seed <= runs; ++seed) {
    std::string job = var_job(", seed: " + std::to_string(100 + seed));
    job.replace(job.find("paths: 300_001, seed: 5, "), 25, "paths: 40_000, ");
    job += "scenarios: [{ name: more, set: { model.portfolio.1.quantity: 1500 } }]\n";
    const io::Results r = run_cpu(job);
    for (const char* name : {"var_0.95", "es_0.95"}) {
      const reduce::Difference& d = difference(r.scenarios.at(1), name);
      auto& a = acc[name];
      a[0] += d.estimate.value, a[1] += d.estimate.value * d.estimate.value, a[2] += d.estimate.std_error / runs;
    }
  }
  for (const auto& [name, a] : acc) {
    const double sd = std::sqrt((a[1] - a[0] * a[0] / runs) / (runs - 1));
    INFO(name << ": spread of the differences " << sd << ", mean paired error " << a[2]);
    CHECK(a[2] / sd > 0.6);
    CHECK(a[2] / sd < 1.4);
  }
}

TEST_CASE("scenario results keep their order and differences in the file", "[scenarios][results]") {
  const fs::path dir = fs::temp_directory_path() / "mcsim-scenarios-file";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "r.h5").string();
  // Names that sort before "base": the file must still list base first.
  const std::string job = option_job("european", "call") + "scenarios: [{ name: a_up, set: { model.instrument.strike: 100 } }]\n";
  const io::Job parsed = io::load_job_text(job, "job.yaml");
  RunOptions opt{io::BackendChoice::Cpu, false, "test", path};
  // By default a scenario quicker than a second leaves no checkpoint: a sweep of
  // small jobs writes one a second at most.
  run_job(parsed, opt);
  CHECK(io::find_checkpoints(path).empty());
  CHECK(io::find_checkpoints(scenario_checkpoint_path(path, parsed, 1)).empty());
  opt.scenario_checkpoint_s = 0;
  const io::Results r = run_job(parsed, opt);
  // Each finished scenario left a checkpoint until the file is written; resuming
  // from them (a run killed before writing) gives the same bits without rerunning.
  CHECK(!io::find_checkpoints(scenario_checkpoint_path(path, parsed, 1)).empty());
  RunOptions again = opt;
  again.resume = true;
  const io::Results resumed = run_job(parsed, again);
  REQUIRE(resumed.scenarios.size() == 2);
  CHECK(resumed.scenarios[1].estimates.at(0).value == r.scenarios[1].estimates.at(0).value);
  CHECK(resumed.scenarios[1].differences.at(0).estimate.std_error == r.scenarios[1].differences.at(0).estimate.std_error);
  io::write_results(path, r, true);
  remove_job_checkpoints(path, parsed);
  CHECK(io::find_checkpoints(path).empty());
  CHECK(io::find_checkpoints(scenario_checkpoint_path(path, parsed, 1)).empty());
  const io::Results back = io::read_results(path);
  REQUIRE(back.scenarios.size() == 2);
  CHECK(back.scenarios[0].name == "base");
  CHECK(back.scenarios[1].overrides == std::vector<std::pair<std::string, std::string>>{{"model.instrument.strike", "100"}});
  const auto& d = back.scenarios[1].differences.at(0), &e = r.scenarios[1].differences.at(0);
  CHECK(d.estimate.name == "price");
  CHECK(d.estimate.value == e.estimate.value);
  CHECK(d.estimate.std_error == e.estimate.std_error);
  CHECK(d.unpaired_std_error == e.unpaired_std_error);
  CHECK(d.reference == e.reference);
  fs::remove_all(dir);
}

TEST_CASE("a job with an unfinished scenario's checkpoint is refused before any scenario runs", "[scenarios][checkpoint]") {
  const fs::path dir = fs::temp_directory_path() / "mcsim-scenarios-refused";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "r.h5").string();
  const io::Job job = io::load_job_text(option_job("european", "call") +
                                            "scenarios: [{ name: up, set: { model.process.volatility: 0.3 } }]\n",
                                        "job.yaml");
  RunOptions opt{io::BackendChoice::Cpu, false, "test", path};
  opt.scenario_checkpoint_s = 0;  // every finished scenario leaves one
  run_job(job, opt);
  io::remove_checkpoints(path);  // base's: only the second scenario's is left
  const auto left = io::find_checkpoints(scenario_checkpoint_path(path, job, 1));
  REQUIRE(left.size() == 1);
  try {
    run_job(job, opt);
    FAIL("a run over an unfinished one started");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("a checkpoint of an unfinished run exists (" + left.front() + ")") != std::string::npos);
  }
  CHECK(io::find_checkpoints(path).empty());  // base did not run (it would have left its checkpoint)
  fs::remove_all(dir);
}

TEST_CASE("scenarios of a job with a target error run the base scenario's paths", "[scenarios]") {
  const io::Results r = run_cpu(option_job("european", "call", "", ", target_rel_error: 0.01") +
                                "scenarios: [{ name: up, set: { model.process.volatility: 0.3 } }]\n");
  REQUIRE(r.scenarios.size() == 2);
  const std::uint64_t base = r.scenarios[0].estimates.at(0).samples;
  CHECK(base < 400000);  // the target stopped it early
  CHECK(r.scenarios[1].estimates.at(0).samples == base);
  CHECK(difference(r.scenarios[1], "price").batches > 1);
}

TEST_CASE("an eigenvalue job's finished scenarios resume from their checkpoints with the same bits", "[scenarios][transport][checkpoint]") {
  const fs::path dir = fs::temp_directory_path() / "mcsim-scenarios-resume";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "k.h5").string();
  const io::Job job = io::load_job_text(
      transport_job(pua_slab_model("scenarios: [{ name: thin, set: { model.geometry.boundaries: [-1.6, 1.6] } }]\n"),
                    "paths: 5_000"),
      "job.yaml");
  RunOptions opt{io::BackendChoice::Cpu, false, "test", path};
  opt.scenario_checkpoint_s = 0;  // each scenario's, however quick
  const io::Results first = run_job(job, opt);
  opt.resume = true;
  const io::Results resumed = run_job(job, opt);
  REQUIRE(resumed.scenarios.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(resumed.scenarios[i].estimates.at(0).name == "k_eff");
    CHECK(resumed.scenarios[i].estimates.at(0).value == first.scenarios[i].estimates.at(0).value);
  }
  CHECK(resumed.scenarios[1].differences.at(0).estimate.std_error == first.scenarios[1].differences.at(0).estimate.std_error);
  remove_job_checkpoints(path, job);
  fs::remove_all(dir);
}
