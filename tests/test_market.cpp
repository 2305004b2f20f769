// Market data (curves, volatility term structures, surfaces) and the processes
// that use them: checked against hand-computed curve values, Black-Scholes on the
// equivalent flat inputs, Dupire's volatility from flat and Heston surfaces, and
// the CEV closed form.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "app/run/runner.hpp"
#include "cpu_run.hpp"
#include "market_job.hpp"
#include "io/csv.hpp"
#include "config_errors.hpp"
#include "models/market/curve.hpp"
#include "models/option/analytic.hpp"

using namespace mcsim;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/mcsim_test_market_" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("a curve is linear in log discount factor between pillars and at the last zero rate beyond", "[market]") {
  const market::Curve c({0.5, 1.0, 2.0}, {-0.5 * 0.02, -1.0 * 0.03, -2.0 * 0.045});
  CHECK(c.discount(1.0) == Approx(std::exp(-0.03)).epsilon(1e-14));
  CHECK(c.log_discount(0.25) == Approx(-0.25 * 0.02).epsilon(1e-14));               // the first zero rate before it
  CHECK(c.log_discount(1.5) == Approx(0.5 * (-0.03) + 0.5 * (-0.09)).epsilon(1e-14));  // half way in log P
  CHECK(c.zero_rate(4.0) == Approx(0.045).epsilon(1e-14));
  // Flat forwards between pillars: the forward over [1, 2] is (0.09 - 0.03) / 1.
  CHECK((c.log_discount(1.2) - c.log_discount(1.7)) / 0.5 == Approx(0.06).epsilon(1e-12));
  const market::VolTerm v({0.5, 1.0}, {0.3, 0.2});
  CHECK(v.variance(0, 1.5) == Approx(0.09 * 0.5 + 0.04 * 0.5 + 0.04 * 0.5).epsilon(1e-14));
  CHECK(v.variance(0.25, 0.75) == Approx(0.09 * 0.25 + 0.04 * 0.25).epsilon(1e-14));
}

TEST_CASE("a European under curves, dividends and a volatility term structure is Black-Scholes on their averages",
          "[market]") {
  // By hand: P(1.5) from the pillars, the yield curve's growth, the dividend, the variance.
  const double t = 1.5, log_p = 0.5 * (-0.03) + 0.5 * (-0.09);
  const double log_q = -0.01 + (0.5 / 2) * (-0.045 + 0.01);  // yield pillars 1 and 3: log P_q linear between
  const double r = -log_p / t, growth = log_q - log_p + std::log(1 - 0.02);
  const double q = r - growth / t, sigma = std::sqrt((0.09 * 0.5 + 0.04 * 1.0) / t);
  for (const char* precision : {"float", "double"})
    for (const char* option : {"call", "put"}) {
      INFO(precision << " " << option);
      const auto res = run_cpu(market_job(fmt::format("type: european, option: {}, strike: 100, maturity: 1.5", option)),
                               {std::string("run.precision=") + precision});
      const double expect = option::bsm_price({100, 100, r, q, sigma, t, option[0] == 'c'});
      CHECK(reference(res) == Approx(expect).epsilon(1e-10));
      CHECK(std::fabs(price(res).value - expect) < 4 * price(res).std_error);
      // Stepped through the per-step table: a barrier out of reach is the European.
      const auto stepped = run_cpu(market_job(fmt::format("type: barrier, option: {}, strike: 100, maturity: 1.5, "
                                                          "barrier: 1, kind: down-and-out",
                                                          option),
                                              "  steps: 12\n"),
                                   {std::string("run.precision=") + precision});
      CHECK(std::fabs(price(stepped).value - expect) < 4 * price(stepped).std_error);
    }
}

TEST_CASE("a wrong curve would be caught: the dividend moves the price by many standard errors", "[market]") {
  const auto with = run_cpu(market_job("type: european, option: call, strike: 100, maturity: 1.5"));
  const auto without = run_cpu(market_job("type: european, option: call, strike: 100, maturity: 1.5"),
                               {"model.market.dividends=null"});
  CHECK(std::fabs(price(without).value - reference(with)) > 8 * price(without).std_error);
}

TEST_CASE("curves and surfaces from CSV files go inline into the job's text", "[market]") {
  const std::string curve = write_file("curve.csv", "time,zero_rate\n0.5,0.02\n1,0.03\n2,0.045\n");
  const std::string text = market_job("type: european, option: call, strike: 100, maturity: 1.5");
  const std::string from_file = fmt::format(
      "run: {{ name: t, paths: 65536, seed: 7 }}\nmodel:\n  type: option\n  market:\n    discount: {{ file: {} }}\n"
      "  process: {{ type: gbm, spot: 100, volatility: 0.2 }}\n"
      "  instrument: {{ type: european, option: call, strike: 100, maturity: 1.5 }}\n",
      curve);
  const io::Job job = io::load_job_text(from_file, "test.yaml");
  CHECK(job.yaml.find("zero_rates") != std::string::npos);
  CHECK(job.yaml.find("loaded_from") != std::string::npos);
  CHECK(job.yaml.find("file:") == std::string::npos);
  // The job's own text (as a checkpoint stores it) needs the file no more.
  std::remove(curve.c_str());
  const io::Job again = io::load_job_text(job.yaml, "again.yaml");
  const auto a = run_job(job, RunOptions{io::BackendChoice::Cpu, false, "t"});
  const auto b = run_job(again, RunOptions{io::BackendChoice::Cpu, false, "t"});
  CHECK(price(a).value == price(b).value);
  CHECK(reference(a) == Approx(option::bsm_price({100, 100, -(0.5 * -0.03 + 0.5 * -0.09) / 1.5, 0, 0.2, 1.5, true})));
  // Inline data stays whole in the job's text (errors' places are read without
  // writing to it), so the text a checkpoint or a bumped rerun reads is the same job.
  const io::Job inline_job = io::load_job_text(text, "inline.yaml", {"run.paths=65536"});
  CHECK(inline_job.yaml.find("[0.5, 1, 2]") != std::string::npos);
  const io::Job inline_again = io::load_job_text(inline_job.yaml, "inline-again.yaml");
  CHECK(inline_again.yaml == inline_job.yaml);
  CHECK(price(run_job(inline_job, RunOptions{io::BackendChoice::Cpu, false, "t"})).value ==
        price(run_job(inline_again, RunOptions{io::BackendChoice::Cpu, false, "t"})).value);
}

TEST_CASE("bad market data is an error at its key and line, or at FILE:LINE:COLUMN", "[market][config]") {
  const std::string base = market_job("type: european, option: call, strike: 100, maturity: 1.5");
  CHECK(has_line(errors_of(base, {"model.market.discount.times=[1, 0.5, 2]"}), "pillar times must increase: 0.5 after 1"));
  CHECK(has_line(errors_of(base, {"model.market.discount={times: [1], discount_factors: [-0.9]}"}), "> 0"));
  CHECK(has_line(errors_of(base, {"model.process.rate=0.03"}), "the rate comes from model.market.discount"));
  CHECK(has_line(errors_of(base, {"model.market.discount.zero_rates=[0.02, 0.03]"}), "one value per time (3), got 2"));
  const std::string bad = write_file("bad.csv", "time,zero_rate\n0.5,0.02\n1,zero\n");
  const auto lines = errors_of(base, {"model.market.discount={file: " + bad + "}"});
  CHECK(has_line(lines, bad + ":3:3: expected a number in column 'zero_rate', got 'zero'"));
  const std::string unsorted = write_file("unsorted.csv", "time,discount_factor\n1,0.97\n0.5,0.99\n");
  CHECK(has_line(errors_of(base, {"model.market.discount={file: " + unsorted + "}"}),
                 unsorted + ":3:1: pillar times must increase"));
  const std::string ragged = write_file("ragged.csv", "time,zero_rate\n1,0.03,7\n");
  CHECK(has_line(errors_of(base, {"model.market.discount={file: " + ragged + "}"}), ragged + ":2:1: 3 fields"));
  CHECK(has_line(errors_of(base, {"model.market.discount={file: /nonexistent/curve.csv}"}), "cannot open the data file"));
  CHECK(has_line(errors_of(base, {"model.market.discount={file: /dev/zero}"}), "not a regular file"));
  // A FIFO (which would block a plain open), a link to a device, and a file past the size bound.
  const std::string fifo = "/tmp/mcsim_test_market_fifo.csv";
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(has_line(errors_of(base, {"model.market.discount={file: " + fifo + "}"}), fifo + ": not a regular file"));
  const std::string link = "/tmp/mcsim_test_market_link.csv";
  ::unlink(link.c_str());
  REQUIRE(::symlink("/dev/zero", link.c_str()) == 0);
  CHECK(has_line(errors_of(base, {"model.market.discount={file: " + link + "}"}), link + ": not a regular file"));
  const std::string huge = write_file("huge.csv", "time,zero_rate\n1,0.03\n");
  REQUIRE(::truncate(huge.c_str(), static_cast<off_t>(io::kMaxCsvBytes) + 1) == 0);  // sparse
  CHECK(has_line(errors_of(base, {"model.market.discount={file: " + huge + "}"}), "more than a data file may hold"));
  ::unlink(fifo.c_str()), ::unlink(link.c_str()), ::unlink(huge.c_str());
}

namespace {
std::string surface_job(const std::string& surface, const std::string& instrument = "type: european, option: call, "
                                                                                    "strike: 100, maturity: 1") {
  return "run: { name: t, paths: 200_000, seed: 11, chunk_paths: 16384 }\n"
         "model:\n"
         "  type: option\n"
         "  market: { vol_surface: " + surface + " }\n"
         "  process: { type: local_vol, spot: 100, rate: 0.03, dividend: 0.01 }\n"
         "  instrument: { " + instrument + " }\n"
         "  steps: 50\n";
}
}  // namespace

TEST_CASE("a surface with calendar or butterfly arbitrage is refused, saying where", "[market][config]") {
  // Total variance at expiry 1 below that at 0.5 near the money: calendar arbitrage.
  const auto calendar = errors_of(surface_job("{ expiries: [0.5, 1], strikes: [80, 100, 120], "
                                              "vols: [[0.3, 0.3, 0.3], [0.3, 0.2, 0.3]] }"));
  CHECK(has_line(calendar, "calendar arbitrage between expiries 0.5 and 1 at strike 100"));
  CHECK(has_line(calendar, "job.yaml:4:103: model.market.vol_surface.vols: calendar"));  // at the quote
  // A spike at one strike makes call prices concave there: butterfly arbitrage.
  const auto butterfly = errors_of(surface_job("{ expiries: [1], strikes: [90, 95, 100, 105, 110], "
                                               "vols: [[0.2, 0.2, 0.6, 0.2, 0.2]] }"));
  CHECK(has_line(butterfly, "butterfly arbitrage at expiry 1, strike"));
  const std::string file = write_file("surface.csv", "expiry,strike,vol\n1,90,0.2\n1,100,0.2\n1,110,0.2\n2,90,0.2\n2,100,0.1\n2,110,0.2\n");
  CHECK(has_line(errors_of(surface_job("{ file: " + file + " }")), file + ":6:"));
  const std::string hole = write_file("hole.csv", "expiry,strike,vol\n1,90,0.2\n1,100,0.2\n1,110,0.2\n2,90,0.2\n2,110,0.2\n");
  CHECK(has_line(errors_of(surface_job("{ file: " + hole + " }")), "expiry 2 has no quote at strike 100"));
  CHECK(has_line(errors_of(surface_job("{ expiries: [1], strikes: [90, 100, 110], vols: [[0.2, 0.2, 0.2]] }"),
                           {"model.process.type=gbm", "model.process.volatility=0.2"}),
                 "a vol_surface is the input of process type local_vol"));
  // Without a spot the surface is not read against a forward (which once read past a spline's end).
  CHECK(has_line(errors_of(surface_job("{ expiries: [1], strikes: [90, 100, 110], vols: [[0.2, 0.2, 0.2]] }"),
                           {"model.process={type: local_vol, rate: 0.03}"}),
                 "model.process: missing required key 'spot'"));
}

TEST_CASE("Dupire's volatility from a flat surface is Black-Scholes", "[market][local_vol]") {
  const std::string flat = "{ expiries: [0.5, 1, 2], strikes: [60, 80, 100, 120, 140], vols: [[0.25, 0.25, 0.25, "
                           "0.25, 0.25], [0.25, 0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25, 0.25]] }";
  for (const char* precision : {"float", "double"})
    for (const char* inst : {"type: european, option: call, strike: 110, maturity: 1",
                             "type: european, option: put, strike: 95, maturity: 1.5",
                             "type: digital, option: call, strike: 100, maturity: 1"}) {
      INFO(precision << " " << inst);
      const auto r = run_cpu(surface_job(flat, inst), {std::string("run.precision=") + precision});
      CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
    }
}

TEST_CASE("Dupire's volatility from a Heston surface reprices Heston's vanillas", "[market][local_vol]") {
  // Heston's implied volatilities on a grid of 5 expiries x 21 strikes.
  option::HestonInput h{100, 100, 0.03, 0.01, 1, 0.04, 1.5, 0.04, 0.4, -0.6, true};
  const std::vector<double> expiries{0.25, 0.5, 0.75, 1.0, 1.5};
  std::string strikes, rows;
  for (int k = 60; k <= 160; k += 5) strikes += (strikes.empty() ? "" : ", ") + std::to_string(k);
  for (double t : expiries) {
    std::string row;
    for (int k = 60; k <= 160; k += 5) {
      // Inverted from the out-of-the-money option, whose price is all time value.
      h.strike = k, h.maturity = t, h.call = k >= 100;
      const double vol = option::implied_volatility({100, double(k), 0.03, 0.01, 0.2, t, h.call}, option::heston_price(h));
      INFO("expiry " << t << ", strike " << k);
      REQUIRE(std::isfinite(vol));
      row += (row.empty() ? "" : ", ") + fmt::format("{:.10f}", vol);
    }
    rows += (rows.empty() ? "[" : ", [") + row + "]";
  }
  const std::string surface = "{ expiries: [0.25, 0.5, 0.75, 1.0, 1.5], strikes: [" + strikes + "], vols: [" + rows + "] }";
  for (int strike : {80, 100, 120}) {
    h.strike = strike, h.maturity = 1.0, h.call = true;
    const double heston = option::heston_price(h);
    const auto r = run_cpu(surface_job(surface, fmt::format("type: european, option: call, strike: {}, maturity: 1", strike)),
                           {"run.paths=400000", "model.steps=100"});
    INFO("strike " << strike << ": local vol " << price(r).value << " +- " << price(r).std_error << ", Heston " << heston);
    // The grid's error (strike spacing, linear time interpolation, Euler steps): 0.2% of the price.
    CHECK(std::fabs(price(r).value - heston) < 4 * price(r).std_error + 0.002 * heston);
  }
}

TEST_CASE("CEV prices agree with the closed form and the closed form with its limits", "[cev]") {
  // beta -> 1 is Black-Scholes at the spot's local volatility; put-call parity.
  const option::CevInput near{100, 105, 0.05, 0.02, 1.0, 0.25 * std::pow(100, 0.01), 0.99, true};
  CHECK(option::cev_price(near) == Approx(option::bsm_price({100, 105, 0.05, 0.02, 0.25, 1.0, true})).epsilon(1e-3));
  option::CevInput c{100, 105, 0.05, 0.02, 1.0, 2.5, 0.5, true}, p = c;
  p.call = false;
  CHECK(option::cev_price(c) - option::cev_price(p) == Approx(100 * std::exp(-0.02) - 105 * std::exp(-0.05)).epsilon(1e-10));
  // A far out-of-the-money put, where the elasticity's skew shows.
  const std::string job = "run: { name: t, paths: 400_000, seed: 5, chunk_paths: 16384 }\nmodel:\n  type: option\n"
                          "  process: { type: cev, spot: 100, rate: 0.05, dividend: 0.02, sigma: 2.5, beta: 0.5 }\n"
                          "  instrument: { type: european, option: put, strike: 70, maturity: 1 }\n  steps: 100\n";
  for (const char* precision : {"float", "double"}) {
    INFO(precision);
    const auto r = run_cpu(job, {std::string("run.precision=") + precision});
    CHECK(std::fabs(price(r).value - reference(r)) < 4 * price(r).std_error);
    // GBM at the same volatility at the spot (beta = 1) would be seen.
    const auto gbm = run_cpu(job, {std::string("run.precision=") + precision, "model.process.beta=1",
                                   "model.process.sigma=0.25"});
    CHECK(std::fabs(price(gbm).value - reference(r)) > 8 * price(gbm).std_error);
  }
}
