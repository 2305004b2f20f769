// Scale-out through mpirun with the CPU backend: 1, 2 and 3 ranks give the same
// bits; a stop on a target error and a resume are rank-count independent; a
// failing rank stops them all.
#include <filesystem>
#include <fstream>
#include <regex>

#include "io/checkpoint.hpp"
#include "io/results.hpp"
#include "run_exe.hpp"
#include "same_results.hpp"
#include "transport_job.hpp"
#include "var_job.hpp"

namespace fs = std::filesystem;
using namespace test_exe;

namespace {
std::string mpirun(int ranks) {
  return std::string(MCSIM_MPIEXEC) + " -np " + std::to_string(ranks) +
         " --oversubscribe --allow-run-as-root -x OMP_NUM_THREADS=1";
}
fs::path write_job(const fs::path& dir, const std::string& precision, const std::string& extra = "") {
  const fs::path p = dir / ("job-" + precision + ".yaml");
  // 46 chunks, the last one short: every rank split has ragged edges.
  std::ofstream(p) << "run: { name: mpi, paths: 3_000_001, seed: 8, chunk_paths: 65536, precision: " << precision
                   << extra << " }\n"
                      "model:\n  type: option\n"
                      "  process: { type: gbm, spot: 100, rate: 0.03, dividend: 0.01, volatility: 0.3 }\n"
                      "  instrument: { type: european, option: call, strike: 110, maturity: 2 }\n"
                      "  variance_reduction: [antithetic]\n";
  return p;
}
}  // namespace

TEST_CASE("one two and three ranks give the same estimate bits and chunk table", "[mpi]") {
  const fs::path dir = scratch("mpi-bits");
  for (const std::string precision : {"float", "double"}) {
    const fs::path job = write_job(dir, precision);
    std::vector<std::string> outs;
    for (int ranks : {1, 2, 3}) {
      outs.push_back((dir / (precision + std::to_string(ranks) + ".h5")).string());
      const auto r = run("run " + job.string() + " --backend cpu -q -o " + outs.back(), mpirun(ranks));
      INFO(r.output);
      REQUIRE(r.status == 0);
      const auto res = mcsim::io::read_results(outs.back());
      CHECK(res.ranks == static_cast<std::uint64_t>(ranks));
      CHECK(res.device_times.size() == static_cast<std::size_t>(ranks));  // one CPU backend per rank
      CHECK(res.scenarios.front().chunk_tallies.size() == 46 * res.scenarios.front().tally_layout.size());
    }
    INFO(precision);
    CHECK(same_results(outs[0], outs[1]));
    CHECK(same_results(outs[0], outs[2]));
  }
  fs::remove_all(dir);
}

TEST_CASE("scenarios and their paired differences have the same bits on one and three ranks", "[mpi][scenarios]") {
  const fs::path dir = scratch("mpi-scenarios");
  // An option sweep (batches of chunks) and a risk scenario (VaR and ES tails).
  const fs::path option = write_job(dir, "double");
  std::ofstream(option, std::ios::app) << "sweep: { model.process.volatility: [0.2, 0.4], model.instrument.strike: [100, 120] }\n";
  const fs::path risk = dir / "risk.yaml";
  std::ofstream(risk) << var_job() << "scenarios: [{ name: hedged, set: { model.portfolio.1.quantity: 1500 } }]\n";
  for (const fs::path& job : {option, risk}) {
    std::vector<std::string> outs;
    for (int ranks : {1, 3}) {
      outs.push_back((dir / (job.stem().string() + std::to_string(ranks) + ".h5")).string());
      const auto r = run("run " + job.string() + " --backend cpu -q -o " + outs.back(), mpirun(ranks));
      INFO(r.output);
      REQUIRE(r.status == 0);
    }
    const auto res = mcsim::io::read_results(outs[0]);
    CHECK(res.scenarios.size() == (job == option ? 5u : 2u));
    CHECK(!res.scenarios.back().differences.empty());
    INFO(job.string());
    CHECK(same_results(outs[0], outs[1]));
  }
  fs::remove_all(dir);
}

TEST_CASE("a target error stops at the same point on one and three ranks", "[mpi]") {
  const fs::path dir = scratch("mpi-target");
  const fs::path job = write_job(dir, "float", ", target_rel_error: 4e-3");
  const std::string a = (dir / "a.h5").string(), b = (dir / "b.h5").string();
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + a, mpirun(1)).status == 0);
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + b, mpirun(3)).status == 0);
  const auto r = mcsim::io::read_results(a);
  CHECK(r.target_met);
  CHECK(r.paths < r.paths_cap);
  CHECK(same_results(a, b));
  fs::remove_all(dir);
}

namespace {
// Starts the job on two ranks, stops it by SIGTERM once rank 1 has a checkpoint,
// resumes it on three and compares the bits with one rank's unstopped run.
void stop_on_two_resume_on_three(const std::string& name, const std::string& text) {
  const fs::path dir = scratch(name);
  const fs::path job = dir / "long.yaml";
  std::ofstream(job) << text;
  const std::string out = (dir / "r.h5").string(), ref = (dir / "ref.h5").string();
  // mpirun forwards SIGTERM to its ranks; start it through a shell to signal it.
  const std::string pidfile = (dir / "pid").string();
  // Rank 0's event log holds the stop's message whole: mpirun, itself signalled, may
  // exit before it forwards its ranks' last lines to its own output.
  const std::string events = (dir / "events.jsonl").string();
  const std::string cmd = "sh -c '" + mpirun(2) + " " + MCSIM_EXE + " run " + job.string() + " --backend cpu -q -o " +
                          out + " --log " + events + " > " + (dir / "log").string() + " 2>&1 & echo $! > " + pidfile +
                          "; wait $!; echo $? > " +
                          (dir / "status").string() + "' &";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (double t = 0; t < 30 && !fs::exists(mcsim::io::checkpoint_path(out, 1)); t += 0.05) sleep_s(0.05);
  REQUIRE(fs::exists(mcsim::io::checkpoint_path(out, 1)));
  pid_t pid = 0;
  std::ifstream(pidfile) >> pid;
  REQUIRE(pid > 0);
  ::kill(pid, SIGTERM);
  for (double t = 0; t < 30 && !fs::exists(dir / "status"); t += 0.05) sleep_s(0.05);
  sleep_s(0.1);
  int status = -1;
  std::ifstream(dir / "status") >> status;
  CHECK(status != 0);  // each rank exits 3; mpirun, itself signalled, reports its own status
  std::ifstream log_in(events);
  const std::string log((std::istreambuf_iterator<char>(log_in)), std::istreambuf_iterator<char>());
  INFO(log);
  CHECK(log.find("\"event\": \"stopped\"") != std::string::npos);
  CHECK(log.find("stopped by signal 15; checkpoint written") != std::string::npos);
  CHECK(mcsim::io::find_checkpoints(out).size() == 2);  // one per rank
  CHECK_FALSE(fs::exists(out));
  const auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out, mpirun(3));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(mcsim::io::find_checkpoints(out).empty());
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + ref, mpirun(1)).status == 0);
  CHECK(same_results(out, ref));
  fs::remove_all(dir);
}
}  // namespace

TEST_CASE("a run stopped on two ranks resumes on three with the bits of an unstopped run", "[mpi][checkpoint]") {
  stop_on_two_resume_on_three("mpi-resume",
                              "run: { name: long, paths: 240_000_000, seed: 3, precision: double, checkpoint_s: 0.2 }\n"
                              "model:\n  type: option\n"
                              "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
                              "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n");
}

TEST_CASE("a risk run stopped on two ranks resumes on three with the bits of an unstopped run", "[mpi][checkpoint][var]") {
  // Each rank's file holds the units it finished; rank 0's also the passes' state.
  stop_on_two_resume_on_three("mpi-resume-risk",
                              "run: { name: r, paths: 32_000_000, seed: 5, chunk_paths: 16384, checkpoint_s: 0.1 }\n"
                              "model:\n  type: var\n  horizon_days: 10\n  confidence: [0.95, 0.99]\n  rate: 0.03\n"
                              "  factors: { distribution: normal, assets: [{ name: A, spot: 100, volatility: 0.3 }] }\n"
                              "  portfolio:\n    - { type: stock, asset: A, quantity: 1000 }\n"
                              "    - { type: option, option: put, asset: A, strike: 95, maturity: 0.25, quantity: 1000 }\n");
}

TEST_CASE("a failing rank stops every rank with a message naming rank and chunk", "[mpi][fault]") {
  const fs::path dir = scratch("mpi-fault");
  const fs::path job = write_job(dir, "float");
  const std::string out = (dir / "never.h5").string();
  const auto r = run("run " + job.string() + " --backend cpu -q -o " + out + " --set model.process.spot=1e30", mpirun(2));
  CHECK(r.status != 0);
  // Both ranks meet bad chunks; whichever reports first stops the other.
  CHECK(std::regex_search(r.output, std::regex("rank [01]: chunk [0-9]+ on cpu")));
  CHECK(r.output.find("not finite") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST_CASE("bump-and-revalue Greeks are the same on one and two ranks", "[mpi][greeks]") {
  const fs::path dir = scratch("mpi-greeks");
  const fs::path job = write_job(dir, "double", "");
  const std::string a = (dir / "a.h5").string(), b = (dir / "b.h5").string();
  // A European scores delta on its paths; theta is bumped (the job rerun).
  const std::string greeks = " --set 'model.greeks=[delta, theta]'";
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + a + greeks, mpirun(1)).status == 0);
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + b + greeks, "timeout 120 " + mpirun(2)).status == 0);
  CHECK(mcsim::io::read_results(a).scenarios.front().estimates.size() == 3);
  CHECK(same_results(a, b));
  fs::remove_all(dir);
}

TEST_CASE("portfolio VaR ES and contributions are the same bits on one two and three ranks", "[mpi][var]") {
  const fs::path dir = scratch("mpi-var");
  const fs::path job = dir / "risk.yaml";
  std::ofstream(job) << var_book_job();
  std::vector<std::string> outs;
  for (int ranks : {1, 2, 3}) {
    outs.push_back((dir / ("var" + std::to_string(ranks) + ".h5")).string());
    const auto r = run("run " + job.string() + " --backend cpu -q -o " + outs.back(), "timeout 120 " + mpirun(ranks));
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(mcsim::io::read_results(outs.back()).ranks == static_cast<std::uint64_t>(ranks));
  }
  CHECK(same_results(outs[0], outs[1]));
  CHECK(same_results(outs[0], outs[2]));
  fs::remove_all(dir);
}

TEST_CASE("particle transport is the same bits on one two and three ranks", "[mpi][transport]") {
  const fs::path dir = scratch("mpi-transport");
  // A fixed-source job of 25 chunks, the last one short, and an eigenvalue job whose
  // generations of 10,000 histories split into rows of 4,096 with a ragged end.
  const std::string jobs[] = {transport_job(beam_slab_model(), "paths: 100_001, chunk_paths: 4096"),
                              transport_job(pua_slab_model(), "paths: 10_000")};
  for (std::size_t j = 0; j < 2; ++j) {
    const fs::path job = dir / ("transport" + std::to_string(j) + ".yaml");
    std::ofstream(job) << jobs[j];
    std::vector<std::string> outs;
    for (int ranks : {1, 2, 3}) {
      outs.push_back((dir / ("t" + std::to_string(j) + "-" + std::to_string(ranks) + ".h5")).string());
      const auto r = run("run " + job.string() + " --backend cpu -q -o " + outs.back(), "timeout 120 " + mpirun(ranks));
      INFO(r.output);
      REQUIRE(r.status == 0);
    }
    CHECK(same_results(outs[0], outs[1]));
    CHECK(same_results(outs[0], outs[2]));
  }
  fs::remove_all(dir);
}
