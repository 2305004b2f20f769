// Output paths and job names checked before any work; links at the names mcsim
// writes are never followed; exit statuses of bad invocations.
#include <catch2/catch.hpp>
#include <unistd.h>

#include "harness.hpp"

using namespace robust;

namespace {
struct PathCase {
  const char* name;
  std::string args;  // after "run JOB --backend cpu -q"; DIR stands for the scratch folder
  int status;
  const char* message;
};
std::string expand(std::string s, const Scratch& d) {
  for (std::size_t at; (at = s.find("DIR")) != std::string::npos;) s.replace(at, 3, d.dir.string());
  return s;
}
}  // namespace

TEST_CASE("results paths that cannot name a file are refused before the run", "[robustness]") {
  const std::vector<PathCase> cases = {
      {"a trailing slash", "-o DIR/sub/", 1, "names a folder, not a file"},
      {"an existing folder", "-o DIR/folder", 1, "is a folder; give a file name inside it"},
      {"an existing folder with --force", "-o DIR/folder --force", 1, "is a folder"},
      {"a path ending in ..", "-o DIR/..", 1, "names a folder"},
      {"a newline in the path", "-o " + quote("DIR/a\nb.h5"), 1, "control character (0x0a)"},
      {"a tab in the path", "-o " + quote("DIR/a\tb.h5"), 1, "control character (0x09)"},
      {"an escape in the path", "-o " + quote("DIR/a\x1b[2Jb.h5"), 1, "control character (0x1b)"},
      {"a folder that is a file", "-o DIR/plain/r.h5", 1, "cannot make its folder"},
      {"a folder that cannot be made", "-o /proc/mcsim/r.h5", 1, "cannot write '/proc/mcsim/r.h5'"},
      {"a place that cannot be written", "-o /proc/mcsim-r.h5", 1, "cannot write '/proc/mcsim-r.h5'"},
      {"an empty run.output", "--set 'run.output=\"\"'", 2, "run.output: the results path is empty"},
      {"run.output ending in a slash", "--set run.output=DIR/x/", 2, "run.output: the results path names a folder"},
  };
  for (const PathCase& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const Scratch d("path");
      fs::create_directories(d.dir / "folder");
      write_file(d / "plain", "a file\n");
      const auto before = d.files();
      // 1e9 paths would take minutes: a quick answer means nothing ran.
      const auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=1e9 " + expand(c.args, d));
      INFO(r.output);
      CHECK(r.status == c.status);
      CHECK(has(r, c.message));
      CHECK_FALSE(has(r, "price"));
      CHECK(d.files() == before);  // nothing written, nothing removed
      CHECK(fs::is_directory(d.dir / "folder"));
    }
  }
}

TEST_CASE("job names that cannot be part of a file name are config errors naming run.name", "[robustness]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"name: a/b", "holds a '/'"},
      {"name: ../escape", "starts with '.'"},
      {"name: ..", "starts with '.'"},
      {"name: .hidden", "starts with '.'"},
      {"name: \"a\\nb\"", "control character (0x0a)"},
      {"name: \"a\\0b\"", "control character (0x00)"},
      {"name: \"a\\tb\"", "control character (0x09)"},
      {"name: \"a\\\\b\"", "holds a '/' or '\\'"},
      {"name: " + std::string(1 << 20, 'x'), "more than 200 characters"},
      {"name: \"\"", "is empty"},
  };
  for (const auto& [line, message] : cases) {
    DYNAMIC_SECTION(line.substr(0, 24)) {
      const Scratch d("name");
      write_file(d / "job.yaml", "run:\n  " + line + "\n  paths: 1000\nmodel:\n  type: option\n"
                 "  process: { type: gbm, spot: 100, volatility: 0.2 }\n"
                 "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\n");
      const auto r = cli("run " + d / "job.yaml" + " --backend cpu -q");
      INFO(r.output.substr(0, 400));
      CHECK(r.status == 2);
      CHECK(has(r, d / "job.yaml:2:"));
      CHECK(has(r, "run.name: "));
      CHECK(has(r, message));
      CHECK(d.files() == std::set<std::string>{"job.yaml"});
    }
  }
}

TEST_CASE("bad invocations exit 2 with a message and write nothing", "[robustness]") {
  const Scratch d("usage");
  fs::create_directories(d.dir / "folder");
  write_file(d / "empty.yaml", "");
  write_file(d / "binary.yaml", std::string("\x00\x01\xff\xfe garbage \x00", 14));
  write_file(d / "list.yaml", "- 1\n- 2\n");
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      {"run " + d / "missing.yaml", 2, "File does not exist"},
      {"run " + d / "folder", 2, "directory"},
      {"run " + d / "empty.yaml", 2, "missing required block 'run'"},
      {"run " + d / "binary.yaml", 2, "error"},
      {"run " + d / "list.yaml", 2, "a job file is a mapping"},
      {"show " + d / "missing.h5", 2, "File does not exist"},
      {"show " + d / "folder", 2, "directory"},
      {"diff " + d / "missing.h5 " + d / "missing.h5", 2, "File does not exist"},
      {"run", 2, "config is required"},
      {"frobnicate", 2, ""},
      {"run " + quickstart() + " --backend gpu", 2, "gpu not in"},
  };
  for (const auto& [args, status, message] : cases) {
    DYNAMIC_SECTION(args.substr(args.find_last_of('/') == std::string::npos ? 0 : args.find_last_of('/'))) {
      const auto r = cli(args);
      INFO(r.output);
      CHECK(r.status == status);
      CHECK(has(r, message));
      CHECK(d.files() == std::set<std::string>{"binary.yaml", "empty.yaml", "folder", "list.yaml"});
    }
  }
}

TEST_CASE("links planted at the names mcsim writes are never followed", "[robustness]") {
  // The names a run on OUT writes beside it: temp names (now unique, but the old
  // fixed ones too), its lock, its checkpoints' temps.
  for (const std::string planted : {"out.h5.tmp", "out.ckpt.h5.tmp", "out.h5.lock", "out.ckpt.h5"}) {
    for (const bool dangling : {false, true}) {
      DYNAMIC_SECTION(planted << (dangling ? " dangling" : " to a file")) {
        const Scratch d("link");
        const std::string victim = d / "victim";
        if (!dangling) write_file(victim, "precious\n");
        fs::create_symlink(victim, d / planted);
        const auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=200000 --set run.checkpoint_s=0.001 -o " +
                             d / "out.h5");
        INFO(r.output);
        if (planted == "out.h5.lock") {
          CHECK(r.status == 1);  // the lock is refused, not followed
          CHECK(has(r, "cannot lock"));
          CHECK_FALSE(fs::exists(d / "out.h5"));
        } else if (planted == "out.ckpt.h5") {
          CHECK(r.status == 1);  // a checkpoint of an unfinished run is there: resume or --force
          CHECK(has(r, "checkpoint"));
        } else {
          CHECK(r.status == 0);
          CHECK(fs::exists(d / "out.h5"));
        }
        CHECK(fs::is_symlink(d / planted));
        if (dangling) CHECK_FALSE(fs::exists(victim));
        else CHECK(read_file(victim) == "precious\n");
      }
    }
  }
}

TEST_CASE("a link at the results path is replaced with --force and its target kept", "[robustness]") {
  const Scratch d("outlink");
  write_file(d / "victim", "precious\n");
  fs::create_symlink(d / "victim", d / "out.h5");
  auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 -o " + d / "out.h5");
  CHECK(r.status == 1);
  CHECK(has(r, "exists; pass --force"));
  r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 --force -o " + d / "out.h5");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_FALSE(fs::is_symlink(d / "out.h5"));
  CHECK(read_file(d / "victim") == "precious\n");
  CHECK(cli("show " + d / "out.h5").status == 0);
}

TEST_CASE("a finished run leaves its results file and nothing else", "[robustness]") {
  const Scratch d("clean");
  const auto r = cli("run " + quickstart() + " --backend cpu -q --set run.paths=300000 --set run.checkpoint_s=0.001 -o " +
                       d / "out.h5");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(d.files() == std::set<std::string>{"out.h5"});
}
