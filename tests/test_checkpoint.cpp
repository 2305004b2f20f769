// Checkpoint and resume, stopping on a target error, and runtime faults, through
// the executable: a run stopped by SIGTERM or killed by SIGKILL and then resumed
// gives the bits of a run that was never stopped.
#include <filesystem>
#include <fstream>

#include <hdf5.h>

#include "io/checkpoint.hpp"
#include "io/results.hpp"
#include "run_exe.hpp"
#include "same_results.hpp"

namespace fs = std::filesystem;
using namespace test_exe;

namespace {
// A double-precision job of a few seconds on one thread, checkpointing often.
fs::path write_job(const fs::path& dir, const std::string& extra_run = "") {
  const fs::path p = dir / "job.yaml";
  std::ofstream(p) << "run: { name: long, paths: 60_000_000, seed: 5, chunk_paths: 65536, precision: double,"
                      " checkpoint_s: 0.2" << extra_run << " }\n"
                      "model:\n  type: option\n"
                      "  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
                      "  instrument: { type: european, option: put, strike: 95, maturity: 1 }\n";
  return p;
}
std::string reference_run(const fs::path& dir, const fs::path& job) {
  const std::string ref = (dir / "reference.h5").string();
  const auto r = run("run " + job.string() + " --backend cpu -q -o " + ref);
  REQUIRE(r.status == 0);
  return ref;
}
// Starts the job on one thread and returns once a checkpoint on disk holds finished chunks.
pid_t start_until_checkpoint(const fs::path& dir, const fs::path& job, const std::string& out) {
  const pid_t pid = start({"run", job.string(), "--backend", "cpu", "-q", "-o", out}, (dir / "log").string());
  const std::string ckpt = mcsim::io::checkpoint_path(out, 0);
  const auto has_work = [&] { return fs::exists(ckpt) && !mcsim::io::read_checkpoint(ckpt).done.empty(); };
  for (double t = 0; t < 30 && !has_work(); t += 0.05) sleep_s(0.05);
  REQUIRE(has_work());
  return pid;
}
}  // namespace

TEST_CASE("SIGTERM writes a checkpoint and exits 3 and resume gives the uninterrupted bits", "[checkpoint]") {
  const fs::path dir = scratch("ckpt-term");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "stopped.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
  const pid_t pid = start_until_checkpoint(dir, job, out);
  ::kill(pid, SIGTERM);
  CHECK(wait_for(pid) == 3);
  CHECK_FALSE(fs::exists(out));  // no result, but a checkpoint of what was done
  const auto partial = mcsim::io::read_checkpoint(ckpt);
  CHECK(partial.done.size() > 0);
  CHECK(partial.done.size() < partial.chunks);
  CHECK(partial.job.find("paths:") != std::string::npos);
  CHECK(partial.backend == "cpu");
  CHECK(partial.scenario == "base");

  // Shown mid-way: the finished chunks' estimates; the checkpoint stays as it was.
  const auto before = fs::last_write_time(ckpt);
  auto r = run("show " + ckpt + " --csv");
  REQUIRE(r.status == 0);
  CHECK(r.output.find("\nbase,price,") != std::string::npos);
  r = run("show " + ckpt);
  CHECK(r.output.find("a checkpoint, shown") != std::string::npos);
  CHECK(fs::last_write_time(ckpt) == before);

  r = run("run " + job.string() + " --backend cpu -q -o " + out);  // forgetting --resume
  CHECK(r.status == 1);
  CHECK(r.output.find("--resume") != std::string::npos);
  r = run("run " + job.string() + " --backend cpu -q --resume -o " + out);
  REQUIRE(r.status == 0);
  CHECK_FALSE(fs::exists(ckpt));  // finished: the checkpoint is gone
  CHECK(same_results(out, reference_run(dir, job)));
  fs::remove_all(dir);
}

TEST_CASE("SIGKILL loses only the work since the last checkpoint and resume gives the same bits", "[checkpoint]") {
  const fs::path dir = scratch("ckpt-kill");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "killed.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
  const pid_t pid = start_until_checkpoint(dir, job, out);
  sleep_s(0.1);
  ::kill(pid, SIGKILL);
  CHECK(wait_for(pid) == -SIGKILL);
  CHECK_FALSE(fs::exists(out));
  CHECK(mcsim::io::read_checkpoint(ckpt).done.size() > 0);  // whole, never half-written
  const auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out);
  REQUIRE(r.status == 0);
  CHECK(same_results(out, reference_run(dir, job)));
  fs::remove_all(dir);
}

TEST_CASE("a checkpoint of a different job is refused and --force starts over", "[checkpoint]") {
  const fs::path dir = scratch("ckpt-other");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "r.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
  const pid_t pid = start_until_checkpoint(dir, job, out);
  ::kill(pid, SIGTERM);
  REQUIRE(wait_for(pid) == 3);
  auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out + " --set model.instrument.strike=96");
  CHECK(r.status == 1);
  CHECK(r.output.find("different job") != std::string::npos);
  CHECK(fs::exists(ckpt));  // still there for the right job
  r = run("run " + job.string() + " --backend cpu -q --resume -o " + out + " --set run.paths=1000000 --force");
  CHECK(r.status == 1);  // --force does not make a mismatched resume acceptable
  r = run("run " + job.string() + " --backend cpu -q -o " + out + " --set run.paths=1000000 --force");
  CHECK(r.status == 0);
  CHECK_FALSE(fs::exists(ckpt));
  CHECK(run("run " + job.string() + " --backend cpu -q --resume -o " + (dir / "none.h5").string()).status == 1);
  fs::remove_all(dir);
}

TEST_CASE("a target error stops at a reproducible point and the file says it was met", "[checkpoint][target]") {
  const fs::path dir = scratch("target");
  const fs::path job = write_job(dir, ", target_rel_error: 2e-3");
  const std::string a = (dir / "a.h5").string(), b = (dir / "b.h5").string();
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + a, "OMP_NUM_THREADS=1").status == 0);
  REQUIRE(run("run " + job.string() + " --backend cpu -q -o " + b, "OMP_NUM_THREADS=2").status == 0);
  const auto r = mcsim::io::read_results(a);
  CHECK(r.target_met);
  CHECK(r.paths < r.paths_cap);
  CHECK(r.paths % (16 * 65536) == 0);  // stopped after 16 * 2^k chunks
  const auto& e = r.scenarios.front().estimates.front();
  CHECK(e.std_error <= 2e-3 * e.value);
  CHECK(e.samples == r.paths);
  CHECK(same_results(a, b));
  // Unreachable: runs to the cap and says so.
  const auto far = run("run " + job.string() + " --backend cpu -q -o " + (dir / "c.h5").string() +
                       " --set run.target_rel_error=1e-9 --set run.paths=2_000_000");
  CHECK(far.status == 0);
  CHECK(far.output.find("NOT met") != std::string::npos);
  const auto c = mcsim::io::read_results((dir / "c.h5").string());
  CHECK_FALSE(c.target_met);
  CHECK(c.paths == 2'000'000);
  fs::remove_all(dir);
}

TEST_CASE("a payoff that overflows is a runtime error naming the chunk and no file is written", "[checkpoint][fault]") {
  const fs::path dir = scratch("fault");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "never.h5").string();
  // Payoffs near 1e30 square past float's range: the first chunk's tally is not finite.
  const auto r = run("run " + job.string() + " --backend cpu -q -o " + out +
                     " --set run.paths=200000 --set model.process.spot=1e30 --set model.instrument.option=call"
                     " --set run.precision=float");
  CHECK(r.status == 1);
  CHECK(r.output.find("chunk 0") != std::string::npos);
  CHECK(r.output.find("not finite") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST_CASE("a transport run stopped by SIGTERM resumes to the bits of an unstopped run", "[checkpoint][transport]") {
  // Fixed source (chunk rows) and eigenvalue (generations and the next sites).
  const std::string models[] = {
      "  mode: fixed_source\n"
      "  materials: [{ name: m, total: 1.0, scatter: 0.9 }]\n"
      "  geometry: { type: slab, boundaries: [0, 10] }\n"
      "  regions: [m]\n"
      "  source: { type: beam, position: 0, direction: 1 }\n"
      "  tallies: [transmission, { flux: { bins: 20 } }]\n",
      "  mode: eigenvalue\n"
      "  materials: [{ name: PUa, total: 0.32640, scatter: 0.225216, fission: 0.081600, nu: 3.24 }]\n"
      "  geometry: { type: slab, boundaries: [-1.853722, 1.853722] }\n"
      "  regions: [PUa]\n"
      "  eigenvalue: { inactive: 20, active: 200 }\n"};
  const char* paths[] = {"4_000_000", "100_000"};
  for (int m = 0; m < 2; ++m) {
    INFO(models[m]);
    const fs::path dir = scratch("ckpt-transport");
    const fs::path job = dir / "job.yaml";
    std::ofstream(job) << "run: { name: t, paths: " << paths[m] << ", seed: 3, checkpoint_s: 0.1 }\n"
                       << "model:\n  type: transport\n" << models[m];
    const std::string out = (dir / "stopped.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
    const pid_t pid = start_until_checkpoint(dir, job, out);
    ::kill(pid, SIGTERM);
    CHECK(wait_for(pid) == 3);
    CHECK_FALSE(fs::exists(out));
    const auto partial = mcsim::io::read_checkpoint(ckpt);
    CHECK(partial.done.size() > 0);
    CHECK(partial.done.size() < partial.chunks);
    const auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK_FALSE(fs::exists(ckpt));
    CHECK(same_results(out, reference_run(dir, job)));
    fs::remove_all(dir);
  }
}

TEST_CASE("a risk run stopped by SIGTERM resumes to the bits of an unstopped run", "[checkpoint][var]") {
  // A stock and a put on one asset, long enough to stop inside its first pass.
  const fs::path dir = scratch("ckpt-risk");
  const fs::path job = dir / "job.yaml";
  std::ofstream(job) << "run: { name: r, paths: 8_000_000, seed: 5, chunk_paths: 16384, checkpoint_s: 0.1 }\n"
                        "model:\n  type: var\n  horizon_days: 10\n  confidence: [0.95, 0.99]\n  rate: 0.03\n"
                        "  factors: { distribution: normal, assets: [{ name: A, spot: 100, volatility: 0.3 }] }\n"
                        "  portfolio:\n    - { type: stock, asset: A, quantity: 1000 }\n"
                        "    - { type: option, option: put, asset: A, strike: 95, maturity: 0.25, quantity: 1000 }\n";
  const std::string out = (dir / "stopped.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
  const pid_t pid = start_until_checkpoint(dir, job, out);
  ::kill(pid, SIGTERM);
  CHECK(wait_for(pid) == 3);
  CHECK_FALSE(fs::exists(out));
  CHECK(mcsim::io::read_checkpoint(ckpt).layout == "risk.passes");
  const auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_FALSE(fs::exists(ckpt));
  const std::string ref = reference_run(dir, job);
  CHECK(same_results(out, ref));
  // A whole run revalues each scenario once (its later passes read the first pass's
  // losses); the resumed one took its checkpoint's units from the file in the pass it
  // stopped in, and revalues them only where a later pass needs their losses.
  CHECK(mcsim::io::read_results(ref).device_times.front().paths == 8'000'000);
  CHECK(mcsim::io::read_results(out).device_times.front().paths <= 8'000'000);
  fs::remove_all(dir);
}

TEST_CASE("a checkpoint whose partial was damaged is refused, naming the file", "[checkpoint]") {
  const fs::path dir = scratch("ckpt-damaged");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "r.h5").string(), ckpt = mcsim::io::checkpoint_path(out, 0);
  const pid_t pid = start_until_checkpoint(dir, job, out);
  ::kill(pid, SIGTERM);
  REQUIRE(wait_for(pid) == 3);
  {  // one bit of the packed partial flipped behind the checksum's back
    std::string bytes = mcsim::io::read_checkpoint(ckpt).partial;
    bytes[bytes.size() / 2] ^= 1;
    const hid_t f = H5Fopen(ckpt.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const hid_t d = H5Dopen2(f, "partial", H5P_DEFAULT);
    REQUIRE(d >= 0);
    CHECK(H5Dwrite(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) >= 0);
    H5Dclose(d);
    H5Fclose(f);
  }
  const auto r = run("run " + job.string() + " --backend cpu -q --resume -o " + out);
  CHECK(r.status == 1);
  CHECK(r.output.find("damaged") != std::string::npos);
  CHECK(r.output.find(ckpt) != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a checkpoint's name gives its results path, and other names are refused", "[checkpoint]") {
  using mcsim::io::results_path_of;
  CHECK(results_path_of("results/run.ckpt.h5") == "results/run.h5");
  CHECK(results_path_of("run.ckpt.r12.h5") == "run.h5");
  CHECK(results_path_of("a.b.ckpt.h5") == "a.b.h5");
  for (const char* bad : {"run.h5", "run.ckpt.rx.h5", "run.ckpt.r.h5", ".ckpt.h5", "run.ckpt.h5.tmp"})
    CHECK_THROWS_WITH(results_path_of(bad), Catch::Contains("is not named as a checkpoint"));
}

TEST_CASE("a signal sent twice at once stops the run once", "[checkpoint]") {
  const fs::path dir = scratch("ckpt-twice");
  const fs::path job = write_job(dir);
  const std::string out = (dir / "stopped.h5").string();
  // GNU timeout signals the process, then its process group: two copies at once.
  pid_t pid = start_until_checkpoint(dir, job, out);
  ::kill(pid, SIGINT);
  sleep_s(0.05);
  ::kill(pid, SIGINT);
  CHECK(wait_for(pid) == 3);  // stopped, its checkpoint written, not killed
  CHECK(fs::exists(mcsim::io::checkpoint_path(out, 0)));
  CHECK_FALSE(fs::exists(out + ".lock"));
  fs::remove_all(dir);
}
