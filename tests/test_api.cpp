// The library API (app/mcsim.hpp): a job read from text, run in memory on a
// session's devices, its results without a file; errors as exceptions.
#include <catch2/catch.hpp>

#include <cmath>

#include "app/mcsim.hpp"
#include "job_text.hpp"

using namespace mcsim;

TEST_CASE("a session runs jobs in memory on the same devices and reports each job's own device time", "[api]") {
  const Session session(io::BackendChoice::Cpu);
  REQUIRE(session.devices().size() == 1);
  const io::Job small = parse_job(option_job("european", "call"), "api.yaml", {"run.paths=100000"});
  const io::Job large = parse_job(option_job("european", "call"), "api.yaml", {"run.paths=300000"});
  const io::Results a = session.run(small), b = session.run(large);
  REQUIRE(a.device_times.size() == 1);
  REQUIRE(b.device_times.size() == 1);
  CHECK(a.device_times.front().paths == 100000);
  CHECK(b.device_times.front().paths == 300000);  // not the session's running total
  CHECK(session.devices().front()->timing().paths == 400000);
  const reduce::Estimate& price = b.scenarios.front().estimates.front();
  CHECK(price.name == "price");
  CHECK(std::fabs(price.value - b.scenarios.front().references.front().value) < 4 * price.std_error);
  // The same job again on the same devices: the same bits.
  const io::Results again = session.run(large);
  CHECK(again.scenarios.front().estimates.front().value == price.value);
}

TEST_CASE("a bad job text throws a ConfigError naming its line", "[api]") {
  try {
    parse_job("run: { paths: 10, seed: 1 }\nmodel:\n  type: option\n  proces: {}\n", "bad.yaml");
    FAIL("no error");
  } catch (const io::ConfigError& e) {
    CHECK(std::string(e.what()).find("bad.yaml:4:") != std::string::npos);
  }
}
