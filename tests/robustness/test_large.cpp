// What used to overflow an HDF5 attribute (64 KB) after a whole run: a long
// config, a long scenario order, many positions. They run, save and read back.
#include <catch2/catch.hpp>

#include "harness.hpp"

using namespace robust;

TEST_CASE("a 5000-option book and 340 long-named scenarios run and save", "[robustness]") {
  const Scratch d("large");
  SECTION("configs/var-large.yaml: 510 KB of config") {
    const std::string out = d / "var.h5";
    const auto r = cli("run " + source("configs/var-large.yaml") + " --backend cpu -q --set run.paths=20000 -o " + out);
    INFO(r.output.substr(0, 2000));
    REQUIRE(r.status == 0);
    const auto shown = cli("show " + out + " --json");
    CHECK(shown.status == 0);
    CHECK(has(shown, "\"var_0.99\""));
  }
  SECTION("340 scenarios of 200-character names: an order of 68 KB") {
    std::string list;
    for (int i = 0; i < 340; ++i)
      list += "  - { name: s" + std::to_string(1000 + i) + std::string(195, 'x') + ", set: { model.instrument.strike: " +
              std::to_string(80 + i / 10.0) + " } }\n";
    write_file(d / "many.yaml", "run: { name: many, paths: 65536, seed: 4, output: \"" + d / "many.h5" +
                                    "\" }\nmodel:\n  type: option\n  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }\n"
                                    "  instrument: { type: european, option: call, strike: 100, maturity: 1 }\nscenarios:\n" + list);
    const auto r = cli("run " + d / "many.yaml" + " --backend cpu -q");
    INFO(r.output.substr(0, 2000));
    REQUIRE(r.status == 0);
    const auto shown = cli("show " + d / "many.h5" + " --csv");
    REQUIRE(shown.status == 0);
    CHECK(std::count(shown.output.begin(), shown.output.end(), '\n') == 1 + 341);  // header, base and 340
    CHECK(has(shown, "s1339" + std::string(195, 'x') + ",113.900000,price,"));  // its strike, as a column
    CHECK(d.files() == std::set<std::string>{"many.h5", "many.yaml"});  // no checkpoint left behind
  }
}
