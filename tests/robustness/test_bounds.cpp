// Bounded everything: alias bombs fail fast, histories that cannot end are
// refused, absurd values are refused by range, a huge job honours SIGTERM within
// seconds, and memory it cannot have is named.
#include <catch2/catch.hpp>

#include <chrono>

#include "harness.hpp"

using namespace robust;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
std::string transport_job(const std::string& materials, const std::string& geometry) {
  const bool slab = geometry.find("slab") != std::string::npos;
  return "run: { name: t, paths: 10000, seed: 1 }\nmodel:\n  type: transport\n  mode: fixed_source\n"
         "  materials:\n" + materials + "  geometry: " + geometry + "\n  regions: [m]\n  source: { type: isotropic" +
         (slab ? ", position: 0.5" : "") + " }\n  tallies: [absorption]\n";
}
const std::string kScatterOnly = "    - { name: m, total: 1.0, scatter: 1.0 }\n";
const std::string kAbsorbing = "    - { name: m, total: 1.0, scatter: 0.9 }\n";
}  // namespace

TEST_CASE("YAML alias bombs fail fast with a message naming the place", "[robustness]") {
  for (const int levels : {3, 6, 8, 10, 12}) {
    DYNAMIC_SECTION(levels << " levels of nine-fold aliases") {
      std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
      for (int i = 1; i < levels; ++i) {
        const std::string prev = "*a" + std::to_string(i - 1);
        bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
        for (int k = 1; k < 9; ++k) bomb += ", " + prev;
        bomb += "]\n";
      }
      const Scratch d("bomb");
      write_file(d / "bomb.yaml", bomb + small_job(d / "out.h5"));
      const auto t = std::chrono::steady_clock::now();
      const auto r = cli("run " + d / "bomb.yaml" + " --backend cpu -q");
      INFO(r.output.substr(0, 600));
      CHECK(seconds_since(t) < 20);  // it ends; the message comes in well under a second
      CHECK(r.status == 2);
      if (levels >= 6) CHECK(has(r, "expands (through YAML aliases) to more values than its size allows"));
      else CHECK(has(r, "unknown"));  // small enough to expand: the keys a0.. are then unknown
      CHECK_FALSE(fs::exists(d / "out.h5"));
    }
  }
}

TEST_CASE("deep or huge YAML is refused, not crashed on", "[robustness]") {
  const Scratch d("deep");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nested 100000 deep", std::string(100000, '[') + std::string(100000, ']') + "\n"},
      {"a mapping nested 5000 deep", [] { std::string s; for (int i = 0; i < 5000; ++i) s += std::string(static_cast<std::size_t>(i), ' ') + "k:\n"; return s; }()},
      {"a NUL in the text", std::string("run: { paths: 1\0 }\n", 19)},
      {"a tab indent", "run:\n\tpaths: 10\n"},
  };
  for (const auto& [name, text] : cases) {
    DYNAMIC_SECTION(name) {
      write_file(d / "job.yaml", text);
      const auto r = cli("run " + d / "job.yaml" + " --backend cpu -q");
      INFO(r.output.substr(0, 400));
      CHECK(r.status == 2);
      CHECK(has(r, d / "job.yaml"));
    }
  }
}

TEST_CASE("transport histories that cannot end are refused by the config check", "[robustness]") {
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> cases = {
      {"an infinite scatterer", kScatterOnly, "{ type: infinite }", "histories in group 0 can never end"},
      {"a slab mirrored on both sides", kScatterOnly, "{ type: slab, boundaries: [0, 1], left: reflective, right: reflective }", "can never end"},
      {"a mirrored sphere", kScatterOnly, "{ type: sphere, radii: [1], outer: reflective }", "can never end"},
      {"an infinite scatterer with implicit capture", kScatterOnly, "{ type: infinite }\n  capture: implicit", "can never end"},
      {"a group that only scatters to itself", "    - { name: m, total: [1.0, 1.0], scatter: [[0.5, 0.3], [0, 1.0]] }\n", "{ type: infinite }", "histories in group 1 can never end"},
      {"an absorber of 1e-9", "    - { name: m, total: 1.0, scatter: 0.999999999 }\n", "{ type: infinite }", "a history would take about 1e+09 collisions"},
  };
  for (const auto& [name, materials, geometry, message] : cases) {
    DYNAMIC_SECTION(name) {
      const Scratch d("never");
      write_file(d / "job.yaml", transport_job(materials, geometry));
      const auto r = cli("run " + d / "job.yaml" + " --backend cpu -q -o " + d / "out.h5");
      INFO(r.output);
      CHECK(r.status == 2);
      CHECK(has(r, "model.geometry: "));
      CHECK(has(r, message));
      CHECK(d.files() == std::set<std::string>{"job.yaml"});
    }
  }
  // The same media where histories do end run.
  const std::vector<std::pair<std::string, std::string>> fine = {
      {kAbsorbing, "{ type: infinite }"},
      {kScatterOnly, "{ type: slab, boundaries: [0, 1], left: reflective, right: vacuum }"},
      {"    - { name: m, total: [1.0, 1.0], scatter: [[0.5, 0.5], [0, 0.9]] }\n", "{ type: infinite }"},
  };
  for (const auto& [materials, geometry] : fine) {
    DYNAMIC_SECTION("runs: " << geometry << " " << materials.substr(6, 40)) {
      const Scratch d("ends");
      write_file(d / "job.yaml", transport_job(materials, geometry));
      const auto r = cli("run " + d / "job.yaml" + " --backend cpu -q -o " + d / "out.h5");
      INFO(r.output);
      CHECK(r.status == 0);
    }
  }
}

TEST_CASE("absurd but well-formed values are refused by their ranges", "[robustness]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"model.process.volatility=1e6", "model.process.volatility: must be in (0, 5] (got 1e6)"},
      {"model.process.volatility=0", "model.process.volatility: must be in (0, 5]"},
      {"model.instrument.maturity=1e6", "model.instrument.maturity: must be in (0, 100] (got 1e6)"},
      {"model.process.rate=50", "model.process.rate: must be in [-1, 1]"},
      {"run.paths=0", "run.paths: must be >= 1"},
      {"run.paths=1e30", "run.paths: expected a whole number"},
      {"run.checkpoint_s=-1", "run.checkpoint_s"},
      {"model.process.spot=-100", "model.process.spot: must be > 0"},
      {"run.seed=-1", "run.seed"},
      {"run.target_rel_error=-0.1", "run.target_rel_error: must be > 0"},
  };
  for (const auto& [set, message] : cases) {
    DYNAMIC_SECTION(set) {
      const Scratch d("absurd");
      const auto r = cli("run " + quickstart() + " --backend cpu -q -o " + d / "out.h5 --set " + set);
      INFO(r.output);
      CHECK(r.status == 2);
      CHECK(has(r, message));
      CHECK(d.files().empty());
    }
  }
}

TEST_CASE("a job of 1e15 paths with a target error honours SIGTERM within seconds", "[robustness]") {
  const Scratch d("huge");
  const std::string out = d / "out.h5";
  const pid_t pid = test_exe::start({"run", quickstart(), "--backend", "cpu", "-q", "-o", out, "--set", "run.paths=1e15",
                                     "--set", "run.chunk_paths=null", "--set", "run.target_rel_error=1e-9",
                                     "--set", "run.checkpoint_s=0"},
                                    d / "run.log");
  test_exe::sleep_s(2);
  const auto t = std::chrono::steady_clock::now();
  ::kill(pid, SIGTERM);
  const int status = test_exe::wait_for(pid);
  INFO(read_file(d / "run.log"));
  CHECK(status == 3);
  CHECK(seconds_since(t) < 15);  // a chunk is bounded work (plan::kMaxChunkPathSteps)
  CHECK_FALSE(fs::exists(out));
}
