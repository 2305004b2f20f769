// Config validation: every kind of mistake is reported with FILE:LINE:COLUMN and
// the key, all of them at once.
#include <catch2/catch.hpp>

#include "app/run/plan.hpp"
#include "io/block.hpp"
#include "io/config.hpp"
#include "config_errors.hpp"
#include "models/option/option_model.hpp"

using namespace mcsim;

namespace {
const char* kGood = R"(run:
  name: test
  paths: 10_000_000
  seed: 42
  precision: float
model:
  type: option
  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.01, volatility: 0.2 }
  instrument:
    type: european
    option: call
    strike: 100
    maturity: 1.0
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("a valid job reads into typed values", "[config]") {
  const io::Job job = io::load_job_text(kGood, "job.yaml");
  CHECK(job.run.name == "test");
  CHECK(job.run.paths == 10000000);
  CHECK(job.run.seed == 42);
  CHECK(job.run.chunk_paths == 0);  // the loader leaves the size to the planner
  CHECK(plan::chunk_paths(job) == plan::kDefaultChunkPaths);
  CHECK(job.run.precision == Precision::Float);
  CHECK(job.run.backend == io::BackendChoice::Auto);
  CHECK(job.run.output == "results/test.h5");
  const auto& spec = dynamic_cast<const option::OptionModel&>(*job.model).spec();
  CHECK(spec.spot == 100);
  CHECK(spec.dividend == 0.01);
  CHECK(spec.call);
  CHECK(spec.instrument == option::Instrument::European);
}

TEST_CASE("numbers accept 1e7 and digit grouping", "[config]") {
  CHECK(io::parse_count("1e7").value() == 10000000);
  CHECK(io::parse_count("10_000_000").value() == 10000000);
  CHECK(io::parse_count("2.5e3").value() == 2500);
  CHECK_FALSE(io::parse_count("2.5").has_value());
  CHECK_FALSE(io::parse_count("_100").has_value());
  CHECK_FALSE(io::parse_count("1__0").has_value());
  CHECK(io::parse_number("0.25").value() == 0.25);
  CHECK_FALSE(io::parse_number("abc").has_value());
}

TEST_CASE("an unknown key is an error with line and column and a did-you-mean", "[config]") {
  const auto e = errors_of(replace(kGood, "volatility: 0.2", "volatilty: 0.2"));
  CHECK(has_line(e, "job.yaml:8:"));
  CHECK(has_line(e, "unknown key 'model.process.volatilty' (did you mean 'volatility'?)"));
  CHECK(has_line(e, "missing required key 'volatility'"));
}

TEST_CASE("wrong types and ranges and choices name the key and its place", "[config]") {
  std::string text = replace(kGood, "paths: 10_000_000", "paths: lots");
  text = replace(text, "volatility: 0.2", "volatility: -0.2");
  text = replace(text, "option: call", "option: cal");
  text = replace(text, "precision: float", "precision: [float]");
  const auto e = errors_of(text);
  REQUIRE(e.size() == 4);  // all collected, not just the first
  CHECK(has_line(e, "job.yaml:3:10: run.paths: expected a whole number"));
  CHECK(has_line(e, "job.yaml:8:76: model.process.volatility: must be in (0, 5] (got -0.2)"));
  CHECK(has_line(e, "model.instrument.option: 'cal' is not one of: call, put (did you mean 'call'?)"));
  CHECK(has_line(e, "job.yaml:5:14: run.precision: expected a single value, got a list"));
}

TEST_CASE("missing required keys and blocks are reported", "[config]") {
  CHECK(has_line(errors_of("run: {paths: 10}\n"), "missing required block 'model'"));
  const auto e = errors_of(replace(kGood, "    strike: 100\n", ""));
  CHECK(has_line(e, "model.instrument: missing required key 'strike'"));
  CHECK(has_line(errors_of(replace(kGood, "paths: 10_000_000", "paths: 0")), "run.paths: must be >= 1"));
  CHECK(has_line(errors_of(replace(kGood, "seed: 42", "seed: 42\n  chunk_paths: 1000001")),
                 "run.chunk_paths: must be a multiple of 4"));
  CHECK(has_line(errors_of(replace(kGood, "type: option", "type: optoin")),
                 "model.type: 'optoin' is not one of: option, rates, var, transport (did you mean 'option'?)"));
}

TEST_CASE("a YAML syntax error carries its line", "[config]") {
  const auto e = errors_of("run:\n  paths: [1, 2\nmodel: {}\n");
  REQUIRE(e.size() == 1);
  CHECK(has_line(e, "job.yaml:"));
  CHECK(has_line(e, "YAML syntax error"));
}

TEST_CASE("contract keys of later versions are refused clearly and not as misspellings", "[config]") {
  CHECK(has_line(errors_of(replace(kGood, "type: european", "type: rainbow")), "'rainbow' is not one of"));
  // Transport is a model family now: an option block under it is wrong, key by key.
  CHECK(has_line(errors_of(replace(kGood, "type: option", "type: transport")), "model: missing required key 'mode'"));
}

TEST_CASE("run targets and checkpoint interval are read and checked", "[config]") {
  const io::Job job = io::load_job_text(
      replace(kGood, "seed: 42", "seed: 42\n  target_rel_error: 1e-4\n  checkpoint_s: 5"), "job.yaml");
  CHECK(job.run.target_rel_error == 1e-4);
  CHECK(job.run.target_abs_error == 0);
  CHECK(job.run.checkpoint_s == 5);
  CHECK(io::load_job_text(kGood, "job.yaml").run.checkpoint_s == 60);
  CHECK(has_line(errors_of(replace(kGood, "seed: 42", "seed: 42\n  target_abs_error: -1")),
                 "run.target_abs_error: must be > 0"));
  CHECK(has_line(errors_of(replace(kGood, "seed: 42", "seed: 42\n  checkpoint_s: -1")),
                 "run.checkpoint_s: must be >= 0"));
}

TEST_CASE("the planner's chunk size keeps a job at most 2^16 chunks", "[config]") {
  CHECK(plan::default_chunk_paths(10'000'000) == 65536);
  CHECK(plan::default_chunk_paths(std::uint64_t{1} << 32) == 65536);
  CHECK(plan::default_chunk_paths((std::uint64_t{1} << 32) + 1) == 131072);
  CHECK(plan::default_chunk_paths(std::uint64_t{1} << 40) == std::uint64_t{1} << 24);
  CHECK(plan::default_chunk_paths(8'192'000, 365) == 1024);  // long paths: small chunks
  CHECK(plan::default_chunk_paths(8'192'000, 4) == 32768);
  CHECK(plan::default_chunk_paths(200'000'000, 16, 4096) == 65536);  // a model's own limit on chunks
}

TEST_CASE("paths up to 2^63 are accepted and chunked without overflow", "[config]") {
  const io::Job job = io::load_job_text(kGood, "job.yaml", {"run.paths=9223372036854775808"});
  CHECK(job.run.paths == std::uint64_t{1} << 63);
  CHECK(plan::chunk_paths(job) == plan::kMaxChunkPathSteps);  // bounded work a chunk
  CHECK(has_line(errors_of(kGood, {"run.paths=9223372036854775809"}), "run.paths: must be <= 9223372036854775808"));
  const std::vector<std::string> ranks_sets{"run.paths=9223372036854775808", "run.chunk_paths=4"};
  CHECK(io::load_job_text(kGood, "job.yaml", ranks_sets).run.chunk_paths == 4);  // 2^61 chunks: legal
}

TEST_CASE("set overrides any key and its errors name the option", "[config]") {
  const io::Job job = io::load_job_text(kGood, "job.yaml", {"model.process.volatility=0.3", "run.seed=7"});
  CHECK(dynamic_cast<const option::OptionModel&>(*job.model).spec().volatility == 0.3);
  CHECK(job.run.seed == 7);
  CHECK(job.yaml.find("0.3") != std::string::npos);
  const auto e = errors_of(kGood, {"model.process.volatility=-1"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "--set model.process.volatility: must be in (0, 5] (got -1)");
  CHECK(has_line(errors_of(kGood, {"run.bogus=1"}), "unknown key 'run.bogus'"));
  CHECK(has_line(errors_of(kGood, {"novalue"}), "expected KEY=VALUE"));
  CHECK(has_line(errors_of(kGood, {"run.paths.x=1"}), "'paths' holds a value"));
}

TEST_CASE("did-you-mean picks the nearest name only when it is near", "[config]") {
  CHECK(io::did_you_mean("strik", {"strike", "maturity"}) == "strike");
  CHECK(io::did_you_mean("colour", {"strike", "maturity"}).empty());
}

namespace {
const char* kBasket = R"(run: { name: basket, paths: 1000 }
model:
  type: option
  process:
    rate: 0.05
    assets:
      - { name: A, spot: 100, volatility: 0.2 }
      - { name: B, spot: 90, volatility: 0.3, dividend: 0.01 }
    correlation: [[1, 0.5], [0.5, 1]]
  instrument: { type: basket, payoff: average, option: call, strike: 95, maturity: 1.0 }
)";
}  // namespace

TEST_CASE("several correlated assets read into a basket", "[config][basket]") {
  const auto job = io::load_job_text(kBasket, "job.yaml", {});
  const auto& spec = dynamic_cast<const option::OptionModel&>(*job.model).spec();
  REQUIRE(spec.assets.size() == 2);
  CHECK(spec.assets[1].name == "B");
  CHECK(spec.assets[1].dividend == 0.01);
  CHECK(spec.weights == std::vector<double>{0.5, 0.5});  // an average's default
  // L L^T = C: the second row of L is (rho, sqrt(1 - rho^2)).
  CHECK(spec.cholesky[2] == Approx(0.5));
  CHECK(spec.cholesky[3] == Approx(std::sqrt(0.75)));
}

TEST_CASE("a matrix that is not a correlation matrix is a config error at its line", "[config][basket]") {
  const auto three = [](const std::string& corr) {
    std::string t = replace(kBasket, "      - { name: B, spot: 90, volatility: 0.3, dividend: 0.01 }\n",
                            "      - { name: B, spot: 90, volatility: 0.3, dividend: 0.01 }\n"
                            "      - { name: C, spot: 80, volatility: 0.1 }\n");
    return replace(t, "correlation: [[1, 0.5], [0.5, 1]]", "correlation: " + corr);
  };
  CHECK(has_line(errors_of(three("[[1, 0.9, -0.9], [0.9, 1, 0.9], [-0.9, 0.9, 1]]")),
                 "job.yaml:10:18: model.process.correlation: is not positive semidefinite"));
  CHECK(has_line(errors_of(three("[[1, 0.5, 0], [0.4, 1, 0], [0, 0, 1]]")),
                 "model.process.correlation: must be symmetric; entries [0][1] and [1][0] differ"));
  CHECK(has_line(errors_of(three("[[1, 0, 0], [0, 0.9, 0], [0, 0, 1]]")), "the diagonal must be 1"));
  CHECK(has_line(errors_of(three("[[1, 0.5], [0.5, 1]]")), "model.process.correlation: has 2 rows for 3 assets"));
  CHECK(has_line(errors_of(three("[[1, 0, 0], [0, 1], [0, 0, 1]]")), "row 1 has 2 entries"));
  CHECK(has_line(errors_of(three("[[1, 0, 2], [0, 1, 0], [2, 0, 1]]")), "every value must be in [-1, 1]"));
  // Perfectly correlated assets are a valid (singular) correlation matrix.
  CHECK(errors_of(three("[[1, 1, 0], [1, 1, 0], [0, 0, 1]]")).empty());
  // Three assets each perfectly tied to the next cannot have the first two anti-correlated.
  CHECK(has_line(errors_of(three("[[1, -1, 1], [-1, 1, 1], [1, 1, 1]]")), "not positive semidefinite"));
}

TEST_CASE("basket mistakes name their keys", "[config][basket]") {
  CHECK(has_line(errors_of(kBasket, {"model.instrument.payoff=exchange"}), "an exchange option has no strike"));
  CHECK(has_line(errors_of(kBasket, {"model.instrument.weights=[1, 2, 3]"}), "needs one weight per asset (2), got 3"));
  CHECK(has_line(errors_of(kBasket, {"model.process.spot=100"}), "with assets, each asset has its own spot"));
  CHECK(has_line(errors_of(kBasket, {"model.process.assets=[{name: A, spot: 1, volatility: 0.1}, {name: A, spot: 2, volatility: 0.1}]"}),
                 "asset 'A' is listed twice"));
  CHECK(has_line(errors_of(kBasket, {"model.instrument.type=european"}), "several assets price a basket (type: basket, or american or bermudan"));
  CHECK(has_line(errors_of(kGood, {"model.instrument.type=basket"}), "a basket needs several assets"));
  CHECK(has_line(errors_of(kBasket, {"model.instrument.payoff=max", "model.variance_reduction=[control_variate]"}),
                 "a basket's control is the geometric basket"));
  CHECK(has_line(errors_of(kBasket, {"model.steps=10"}), "a gbm basket pays on its assets at maturity"));
  // An item of a list set on the command line is named by the option and its place.
  CHECK(has_line(errors_of(kBasket, {"model.process.assets=[{name: A, spot: 1}]"}),
                 "--set model.process.assets: model.process.assets[0]: missing required key 'volatility'"));
}

TEST_CASE("set reaches an item of a list by its number", "[config][basket]") {
  const auto job = io::load_job_text(kBasket, "job.yaml", {"model.process.assets.1.volatility=0.45"});
  const auto& spec = dynamic_cast<const option::OptionModel&>(*job.model).spec();
  CHECK(spec.assets[1].volatility == 0.45);
  CHECK(spec.assets[0].volatility != 0.45);
  CHECK(has_line(errors_of(kBasket, {"model.process.assets.2.spot=50"}), "the list has no item 2 (it holds 2, numbered from 0)"));
  // Greeks of a basket are per asset, by bumps of these keys (where the path does not score them).
  const auto greeks =
      io::load_job_text(kBasket, "job.yaml", {"model.greeks=[delta, vega]", "model.greek_method=bump"}).model->greek_bumps();
  REQUIRE(greeks.size() == 4);
  CHECK(greeks[1].greek == "delta_B");
  CHECK(greeks[1].key == "model.process.assets.1.spot");
  CHECK(greeks[3].key == "model.process.assets.1.volatility");
}

TEST_CASE("hostile input gives a clear error and never a crash", "[config]") {
  const auto spot = [](const std::string& v) { return replace(kGood, "spot: 100", "spot: " + v); };
  CHECK(has_line(errors_of(spot("1e400")), "job.yaml:8:31: model.process.spot: expected a number, got '1e400'"));
  CHECK(has_line(errors_of(spot(".nan")), "model.process.spot: expected a number, got '.nan'"));
  CHECK(has_line(errors_of(spot("-.inf")), "model.process.spot: expected a number"));
  CHECK(has_line(errors_of(spot("[1, 2]")), "model.process.spot: expected a single value, got a list"));
  CHECK(has_line(errors_of(spot("{ a: 1 }")), "model.process.spot: expected a single value, got a mapping"));
  CHECK(has_line(errors_of(replace(kGood, "10_000_000", "99999999999999999999999")), "run.paths: expected a whole number"));
  // A repeated key would silently drop one of its values.
  auto e = errors_of(spot("100, spot: 90") + "model: {}\n");
  CHECK(has_line(e, "job.yaml:8:36: 'model.process.spot' is given twice (first on line 8)"));
  CHECK(has_line(e, "job.yaml:14:1: 'model' is given twice (first on line 6)"));
  // Deep nesting, stray bytes, a self-referring alias and unclosed brackets.
  CHECK(has_line(errors_of("run: " + std::string(100000, '[') + std::string(100000, ']')), "YAML syntax error"));
  std::string maps = "run: ";
  for (int i = 0; i < 5000; ++i) maps += "{a: ";
  CHECK(has_line(errors_of(maps + "1" + std::string(5000, '}')), "YAML syntax error"));
  CHECK(has_line(errors_of(std::string("run: {paths: 1\0\xff\xfe}\n", 22)), "job.yaml:1:"));
  CHECK(has_line(errors_of("run: &a [*a]\n"), "run: expected a mapping"));
  CHECK(has_line(errors_of("run: { paths: [1, 2\nmodel: {"), "YAML syntax error"));
  CHECK(has_line(errors_of(std::string("\xef\xbb\xbf") + kGood + "\t- bad"), "job.yaml:"));
}
