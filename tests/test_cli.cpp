// The mcsim executable as a user runs it: exit statuses, messages, files.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "run_exe.hpp"

namespace fs = std::filesystem;

namespace {
using test_exe::Outcome;
Outcome mcsim(const std::string& args) { return test_exe::run(args); }
fs::path scratch() { return test_exe::scratch("cli"); }
}  // namespace

TEST_CASE("mcsim run and show and refusing to overwrite", "[cli]") {
  const fs::path dir = scratch();
  const std::string out = (dir / "q.h5").string();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  auto r = mcsim("run " + config + " --backend cpu -o " + out + " --set run.paths=100000");
  CHECK(r.status == 0);
  CHECK(r.output.find("price") != std::string::npos);
  CHECK(fs::exists(out));
  r = mcsim("run " + config + " --backend cpu -o " + out);
  CHECK(r.status == 1);
  CHECK(r.output.find("--force") != std::string::npos);
  r = mcsim("show " + out);
  CHECK(r.status == 0);
  CHECK(r.output.find("price") != std::string::npos);
  CHECK(r.output.find("reference") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a bad config exits 2 and lists every error and writes nothing", "[cli]") {
  const fs::path dir = scratch();
  const fs::path config = dir / "bad.yaml";
  std::ofstream(config) << "run:\n  paths: 1000\n  output: " << (dir / "never.h5").string()
                        << "\nmodel:\n  type: option\n  process: {type: gbm, spot: 100, volatility: -1}\n"
                           "  instrument: {type: european, option: call, strike: 100, maturty: 1}\n";
  const auto r = mcsim("run " + config.string());
  CHECK(r.status == 2);
  CHECK(r.output.find(config.string() + ":6:") != std::string::npos);
  CHECK(r.output.find("model.process.volatility: must be in (0, 5]") != std::string::npos);
  CHECK(r.output.find("did you mean 'maturity'") != std::string::npos);
  CHECK(r.output.find("3 errors") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "never.h5"));
  CHECK_FALSE(fs::exists(dir / "never.h5.tmp"));
  fs::remove_all(dir);
}

TEST_CASE("version and help and devices answer", "[cli]") {
  CHECK(mcsim("--version").output.find("mcsim ") == 0);
  const auto h = mcsim("run --help");
  CHECK(h.status == 0);
  CHECK(h.output.find("--set") != std::string::npos);
  CHECK(mcsim("devices").status == 0);
  CHECK(mcsim("show /nonexistent.h5").status != 0);
}

TEST_CASE("the scenarios example runs and shows its paired differences", "[cli][scenarios]") {
  const fs::path dir = scratch();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/scenarios.yaml";
  const std::string out = (dir / "s.h5").string();
  auto r = mcsim("run " + config + " --backend cpu -o " + out + " --set run.paths=200000");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("scenario vol_up (2 of 7)") != std::string::npos);  // progress names each scenario
  CHECK(r.output.find("scenario volatility=0.3,strike=110 (model.instrument.strike=110, model.process.volatility=0.3)\n") !=
        std::string::npos);
  CHECK(r.output.find("minus base  difference  paired err") != std::string::npos);
  r = mcsim("show " + out + " --csv");
  REQUIRE(r.status == 0);
  // Tidy: the swept keys are columns (empty where the job's value holds); base has
  // no difference; vol_up's price has all four figures.
  CHECK(r.output.rfind("scenario,model.process.volatility,model.process.rate,model.process.spot,model.instrument.strike,"
                       "estimate,value,", 0) == 0);
  CHECK(std::regex_search(r.output, std::regex("\nbase,,,,,price,[^\n]*,,,,\n")));
  CHECK(std::regex_search(r.output, std::regex("\nvol_up,0.25,,,,price,[^\n]*,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+\n")));
  CHECK(std::regex_search(r.output, std::regex("\n\"volatility=0.15,strike=90\",0.15,,,90,delta,[^\n]*,paths,per unit of spot,")));
  fs::remove_all(dir);
}

TEST_CASE("mcsim show writes CSV and JSON and mcsim diff says whether two runs agree", "[cli]") {
  const fs::path dir = scratch();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const auto file = [&](const char* name) { return (dir / name).string(); };
  REQUIRE(mcsim("run " + config + " --backend cpu -q -o " + file("a.h5") + " --set run.paths=200000").status == 0);
  REQUIRE(mcsim("run " + config + " --backend cpu -q -o " + file("b.h5") + " --set run.paths=200000 --set run.seed=9").status == 0);
  REQUIRE(mcsim("run " + config + " --backend cpu -q -o " + file("c.h5") +
                " --set run.paths=200000 --set model.process.volatility=0.3").status == 0);
  auto r = mcsim("show " + file("a.h5") + " --csv");
  CHECK(r.status == 0);
  CHECK(r.output.rfind("scenario,estimate,value,std_error,ci_low,ci_high,samples,samples_of,unit,reference,reference_tolerance,z,"
                       "minus_base,paired_std_error,unpaired_std_error,reference_minus_base\nbase,price,", 0) == 0);
  r = mcsim("show " + file("a.h5") + " --json");
  CHECK(r.status == 0);
  CHECK(r.output.find("\"name\": \"price\"") != std::string::npos);
  CHECK(mcsim("show " + file("a.h5") + " --csv --json").status != 0);
  // Another seed: the same price within errors. Volatility 0.3: a price some 4 higher.
  r = mcsim("diff " + file("a.h5") + " " + file("b.h5"));
  CHECK(r.status == 0);
  CHECK(r.output.find("agree: all") != std::string::npos);
  r = mcsim("diff " + file("a.h5") + " " + file("c.h5"));
  CHECK(r.status == 4);
  CHECK(r.output.find("base/price") != std::string::npos);
  CHECK(r.output.find("DIFFERS") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("an output path that cannot be written fails before the run and names the path", "[cli]") {
  const fs::path dir = scratch();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  std::ofstream(dir / "plain") << "a file, not a folder\n";
  for (const std::string out : {(dir / "plain" / "r.h5").string(), std::string("/proc/mcsim-results.h5")}) {
    INFO(out);
    const auto r = mcsim("run " + config + " --backend cpu -q --set run.paths=1e9 -o " + out);
    CHECK(r.status == 1);
    CHECK(r.output.find("cannot write '" + out + "'") != std::string::npos);
    CHECK(r.output.find("price") == std::string::npos);  // nothing ran: 1e9 paths would take a while
  }
  fs::remove_all(dir);
}

namespace {
std::vector<YAML::Node> json_lines(const fs::path& file) {
  std::vector<YAML::Node> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) out.push_back(YAML::Load(line));  // JSON is YAML
  return out;
}
}  // namespace

TEST_CASE("mcsim run --log writes JSON lines from start to done and a config error with its status", "[cli]") {
  const fs::path dir = scratch();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const std::string out = (dir / "q.h5").string(), log = (dir / "run.jsonl").string();
  const auto r = mcsim("run " + config + " --backend cpu -q -v --set run.paths=200000 -o " + out + " --log " + log);
  CHECK(r.status == 0);
  CHECK(r.output.find("  stages   setup ") != std::string::npos);  // --verbose
  const auto events = json_lines(log);
  REQUIRE(events.size() >= 2);
  CHECK(events.front()["event"].as<std::string>() == "start");
  CHECK(events.front()["paths"].as<std::uint64_t>() == 200000);
  CHECK(events.front()["output"].as<std::string>() == out);
  const YAML::Node done = events.back();
  CHECK(done["event"].as<std::string>() == "done");
  // The same numbers as the results file, every digit (show --csv: base,price,value,std_error,...).
  const std::string csv = mcsim("show " + out + " --csv").output;
  const auto row = csv.find("\nbase,price,");
  REQUIRE(row != std::string::npos);
  const YAML::Node fields = YAML::Load("[" + csv.substr(row + 12, csv.find('\n', row + 1) - row - 12) + "]");
  REQUIRE(done["estimates"].size() == 1);
  CHECK(done["estimates"][0]["name"].as<std::string>() == "price");
  CHECK(done["estimates"][0]["value"].as<double>() == fields[0].as<double>());
  CHECK(done["estimates"][0]["std_error"].as<double>() == fields[1].as<double>());
  for (const auto& e : events) CHECK(e["time"].as<std::string>().size() == 20);  // 2026-11-30T21:00:00Z

  // A second run appends (a requeued batch job keeps one log).
  const auto bad = mcsim("run " + config + " --backend cpu -q --set run.paths=-5 -o " + out + "2 --log " + log);
  CHECK(bad.status == 2);
  const auto both = json_lines(log);
  REQUIRE(both.size() == events.size() + 1);
  const YAML::Node error = both.back();
  CHECK(error["event"].as<std::string>() == "error");
  CHECK(error["status"].as<int>() == 2);
  CHECK(error["message"].as<std::string>().find("run.paths") != std::string::npos);

  // Progress lines while the paths run, here every 0.05 s of a run of a second or so
  // (two threads on any machine): growing counts of the job's paths and growing times.
  const auto slow = test_exe::run("run " + config + " --backend cpu -q --set run.paths=60_000_000 -o " + out +
                                  "3 --log " + log + " --log-every 0.05", "OMP_NUM_THREADS=2");
  REQUIRE(slow.status == 0);
  const auto lines = json_lines(log);
  std::vector<YAML::Node> progress;
  for (const auto& e : lines)
    if (e["event"].as<std::string>() == "progress") progress.push_back(e);
  REQUIRE(progress.size() >= 3);
  CHECK(lines.front()["event"].as<std::string>() == "start");
  CHECK(lines.back()["event"].as<std::string>() == "done");
  for (std::size_t i = 0; i < progress.size(); ++i) {
    CHECK(progress[i]["total"].as<std::uint64_t>() == 60000000);
    CHECK(progress[i]["done"].as<std::uint64_t>() <= 60000000);
    if (i == 0) continue;
    CHECK(progress[i]["done"].as<std::uint64_t>() >= progress[i - 1]["done"].as<std::uint64_t>());
    CHECK(progress[i]["elapsed_s"].as<double>() > progress[i - 1]["elapsed_s"].as<double>());
  }
  CHECK(mcsim("run " + config + " -q -o " + out + "4 --log " + log + " --log-every 0").status != 0);
  fs::remove_all(dir);
}

TEST_CASE("mcsim schema is the same from any folder even one with a broken configs folder", "[cli][schema]") {
  const fs::path dir = test_exe::scratch("schema-elsewhere");
  fs::create_directories(dir / "configs");
  std::ofstream(dir / "configs" / "broken.yaml") << "run: { paths: -1 }\nmodel: { type: transport }\n";
  const auto here = test_exe::run("schema"), there = test_exe::run("schema", "cd " + dir.string() + " &&");
  REQUIRE(here.status == 0);
  CHECK(there.status == 0);
  CHECK(there.output == here.output);
  CHECK(here.output.find("model.instrument.strike") != std::string::npos);  // option keys too
  CHECK(here.output.find("model.materials") != std::string::npos);          // and transport's
  fs::remove_all(dir);
}

TEST_CASE("mcsim validate takes one case file and keeps long names aligned", "[cli]") {
  const fs::path dir = scratch();
  const fs::path cases = dir / "a-case-file-with-a-long-name.yaml";
  std::ofstream(cases) << "base:\n  run: { name: v, paths: 200_000, seed: 5, precision: double }\n  model:\n    type: option\n"
                          "    process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
                          "    instrument: { type: european, option: call, strike: 100, maturity: 1.0 }\ncases:\n"
                          "  - { name: a-call-at-the-money-with-a-name-longer-than-the-column, set: {}, expect: { price: 10.450583572185565 } }\n"
                          "  - { name: put, set: { model.instrument.option: put }, expect: { price: 5.573526022256971 } }\n";
  const auto r = mcsim("validate " + cases.string() + " --backend cpu");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.find("2 cases, 2 passed, 0 failed") != std::string::npos);
  // The result column starts at the same place on every row.
  std::vector<std::size_t> at;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 4 && (line.compare(line.size() - 2, 2, "ok") == 0 || line.find("result") != std::string::npos))
      at.push_back(line.find("result") != std::string::npos ? line.find("result") : line.size() - 2);
  REQUIRE(at.size() == 3);
  CHECK(at[0] == at[1]);
  CHECK(at[1] == at[2]);
  CHECK(mcsim("validate " + (dir / "missing.yaml").string()).status == 1);
  fs::remove_all(dir);
}

TEST_CASE("mcsim validate runs a job file named as base, from its own folder", "[cli]") {
  // The job reads a data file beside it (a discount curve), so its folder, not the
  // case file's, must be the base for relative paths.
  const fs::path dir = scratch();
  fs::create_directories(dir / "jobs" / "data");
  fs::create_directories(dir / "cases");
  std::ofstream(dir / "jobs" / "data" / "curve.csv") << "time,zero_rate\n0.5,0.05\n2,0.05\n";
  std::ofstream(dir / "jobs" / "call.yaml")
      << "run: { name: v, paths: 200_000, seed: 5, precision: double }\nmodel:\n  type: option\n"
         "  market: { discount: { file: data/curve.csv } }\n"
         "  process: { type: gbm, spot: 100, volatility: 0.2 }\n"
         "  instrument: { type: european, option: call, strike: 100, maturity: 1.0 }\n";
  std::ofstream(dir / "cases" / "call.yaml")
      << "base: ../jobs/call.yaml\ncases:\n"
         "  - { name: call, expect: { price: 10.450583572185565 } }\n"
         "  - { name: put, set: { model.instrument.option: put }, expect: { price: 5.573526022256971 } }\n"
         "  - { name: wrong, set: { model.instrument.strike: 90 }, expect: { price: 10.450583572185565 } }\n";
  const auto r = mcsim("validate " + (dir / "cases" / "call.yaml").string() + " --backend cpu");
  INFO(r.output);
  CHECK(r.status == 1);  // the third case's price is another strike's
  CHECK(r.output.find("3 cases, 2 passed, 1 failed") != std::string::npos);
  std::ofstream(dir / "cases" / "lost.yaml") << "base: ../jobs/nowhere.yaml\ncases:\n  - { name: a, expect: { price: 1 } }\n";
  const auto lost = mcsim("validate " + (dir / "cases" / "lost.yaml").string() + " --backend cpu");
  CHECK(lost.status != 0);
  CHECK(lost.output.find("no job file") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a batch log gets the job's header first and progress lines when stderr is not a terminal", "[cli]") {
  const fs::path dir = scratch();
  const std::string config = std::string(MCSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const std::string out = (dir / "q.h5").string();
  // stderr is a pipe here, as in a batch job's log: lines, not a bar.
  auto r = mcsim("run " + config + " --backend cpu -o " + out + " --set run.paths=2e8 --progress-every 0.2");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto header = r.output.find("  job      run.paths 200,000,000, seed 42, double, backend cpu, 1 rank\n  output   " + out);
  CHECK(header != std::string::npos);
  CHECK(header < r.output.find("  price "));
  CHECK(std::regex_search(r.output, std::regex("\nprogress [0-9.]+%: [0-9.e+]+ of 2e\\+08 paths, [0-9.e+]+ paths/s, [0-9]+ s elapsed, [0-9]+ s left\n")));
  CHECK(r.output.find('\r') == std::string::npos);  // no bar redrawn in place
  r = mcsim("run " + config + " --backend cpu -q --force -o " + out + " --set run.paths=2e8 --progress-every 0.2");
  CHECK(r.status == 0);
  CHECK(r.output.find("progress ") == std::string::npos);  // -q: none
  fs::remove_all(dir);
}
