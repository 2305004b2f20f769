// Two runs on one output: one writes it, the other is refused at once and writes
// nothing; a file that appears meanwhile is kept; stale locks do not block.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "harness.hpp"

using namespace robust;

namespace {
// A run long enough to overlap with another: a few seconds on two threads.
const std::string kLongPaths = "100000000";
std::vector<std::string> long_run(const std::string& out, const std::vector<std::string>& more = {}) {
  std::vector<std::string> a{"run", quickstart(), "--backend", "cpu", "-q", "--set", "run.paths=" + kLongPaths, "-o", out};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}
bool wait_until_exists(const std::string& path, double seconds) {
  for (double t = 0; t < seconds; t += 0.01) {
    if (fs::exists(path)) return true;
    test_exe::sleep_s(0.01);
  }
  return false;
}
}  // namespace

TEST_CASE("a second run on the same output is refused while the first runs", "[robustness]") {
  for (const bool force : {false, true}) {
    DYNAMIC_SECTION((force ? "with --force" : "without --force")) {
      const Scratch d("pair");
      const std::string out = d / "out.h5";
      const pid_t first = test_exe::start(long_run(out), d / "first.log");
      REQUIRE(wait_until_exists(out + ".lock", 20));
      const auto second = cli("run " + quickstart() + " --backend cpu -q --set run.paths=1e5 -o " + out +
                                (force ? " --force" : ""));
      INFO(second.output);
      CHECK(second.status == 1);
      CHECK(has(second, "another mcsim run (pid " + std::to_string(first) + ") is writing '" + out + "'"));
      CHECK(one_error_line(second));
      CHECK(test_exe::wait_for(first) == 0);
      const auto shown = cli("show " + out + " --csv");
      CHECK(shown.status == 0);
      CHECK(has(shown, "," + kLongPaths + ","));  // the first run's results, whole
      CHECK(d.files() == std::set<std::string>{"first.log", "out.h5"});
    }
  }
}

TEST_CASE("many runs started at once on one output: one writes it and the rest are refused", "[robustness]") {
  const Scratch d("many");
  const std::string out = d / "out.h5";
  std::vector<pid_t> runs;
  for (int i = 0; i < 6; ++i) runs.push_back(test_exe::start(long_run(out), d / ("run" + std::to_string(i) + ".log")));
  int done = 0, refused = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const int status = test_exe::wait_for(runs[i]);
    const std::string log = read_file(d / ("run" + std::to_string(i) + ".log"));
    INFO(log);
    if (status == 0) ++done;
    if (status == 1 && log.find("another mcsim run") != std::string::npos) ++refused;
    // A late starter may find the first one's results: refused as existing.
    if (status == 1 && log.find("exists; pass --force") != std::string::npos) ++refused;
  }
  CHECK(done == 1);
  CHECK(refused == 5);
  const auto shown = cli("show " + out + " --csv");
  CHECK(shown.status == 0);
  CHECK(has(shown, "," + kLongPaths + ","));
  for (const auto& f : d.files()) CHECK((f == "out.h5" || f.rfind("run", 0) == 0));
}

TEST_CASE("a lock held by another process refuses the run, and a stale lock file does not", "[robustness]") {
  const Scratch d("lock");
  const std::string out = d / "out.h5";
  const int fd = ::open((out + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=1e5 -o " + out);
  CHECK(r.status == 1);
  CHECK(has(r, "holds '" + out + ".lock'"));
  CHECK_FALSE(fs::exists(out));
  ::close(fd);  // released; the file stays, as after a crash
  REQUIRE(fs::exists(out + ".lock"));
  r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=1e5 -o " + out);
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(d.files() == std::set<std::string>{"out.h5"});
}

TEST_CASE("a file that appears at the output during a run is kept and the results go beside it", "[robustness]") {
  const Scratch d("appear");
  const std::string out = d / "out.h5";
  const pid_t run = test_exe::start(long_run(out), d / "run.log");
  REQUIRE(wait_until_exists(out + ".lock", 20));
  write_file(out, "someone else's file\n");
  CHECK(test_exe::wait_for(run) == 1);
  const std::string log = read_file(d / "run.log");
  INFO(log);
  CHECK(log.find("'" + out + "' exists (it appeared while this run was going) and is kept; pass --force to replace it. The results are in '") != std::string::npos);
  CHECK(read_file(out) == "someone else's file\n");
  std::string kept;
  for (const auto& f : d.files())
    if (f.rfind("out.h5.", 0) == 0 && f.size() > 4 && f.compare(f.size() - 4, 4, ".tmp") == 0) kept = d / f;
  REQUIRE_FALSE(kept.empty());
  const auto shown = cli("show " + kept + " --csv");
  CHECK(shown.status == 0);
  CHECK(has(shown, "," + kLongPaths + ","));
}

TEST_CASE("with --force a file that was there at the start is replaced", "[robustness]") {
  const Scratch d("force");
  write_file(d / "out.h5", "old\n");
  const auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=1e5 --force -o " + d / "out.h5");
  CHECK(r.status == 0);
  CHECK(cli("show " + d / "out.h5").status == 0);
  CHECK(d.files() == std::set<std::string>{"out.h5"});
}
