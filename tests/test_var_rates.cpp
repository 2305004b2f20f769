// Bonds, caps, floors and swaptions in a risk book, on a Hull-White short-rate
// factor: today's values against the rates family's closed forms and parity, the
// horizon's revaluation as a martingale under the horizon's forward measure,
// Monte Carlo VaR against the exact one-factor figures, historical simulation
// against losses computed here by hand, and the mistakes a book can make.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "io/config.hpp"
#include "models/option/quadrature.hpp"
#include "models/var/rate_positions.hpp"
#include "var_history_job.hpp"
#include "var_job.hpp"

using namespace mcsim;

namespace {
const rates::HullWhite kModel{0.05, 0.012, market::Curve::flat(0.03)};

var::Position rate_position(var::Instrument kind, double strike, double start, double maturity, double period,
                            double coupon = 0) {
  var::Position p;
  p.instrument = kind;
  p.quantity = 1;
  p.strike = strike, p.start = start, p.maturity = maturity, p.period = period, p.coupon = coupon;
  return p;
}
double today(const var::Position& p) { return var::rate_value(kModel, p, 0, 0); }
double discount(double t) { return std::exp(-0.03 * t); }
std::string with_text(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}
// The job is refused with an error at `key` that says `message`.
void check_config_error(const std::string& text, const std::string& key, const std::string& message) {
  const std::vector<std::string> lines = errors_of(text);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  INFO(all);
  CHECK(has_line(lines, key + ": " + message));
}
// K times the fixed leg's annuity on dates d_0 .. d_n.
double fixed_leg(const std::vector<double>& d, double k) {
  double s = 0;
  for (std::size_t i = 1; i < d.size(); ++i) s += k * (d[i] - d[i - 1]) * discount(d[i]);
  return s;
}
}  // namespace

TEST_CASE("rate positions are worth the Hull-White closed forms today and keep parity", "[var][rates]") {
  using var::Instrument;
  CHECK(today(rate_position(Instrument::Bond, 0, 0, 5, 0)) == Approx(discount(5)).epsilon(1e-14));
  // Coupons of 2% every half year back from 7.25 years: the first at 0.25.
  double bullet = discount(7.25);
  for (double t = 0.25; t < 7.3; t += 0.5) bullet += 0.02 * discount(t);
  CHECK(today(rate_position(Instrument::Bond, 0, 0, 7.25, 0.5, 0.04)) == Approx(bullet).epsilon(1e-14));

  const std::vector<double> caps = rates::schedule(1, 5, 0.5), swaps = rates::schedule(2, 7, 1);
  const double cap = today(rate_position(Instrument::Cap, 0.035, 1, 5, 0.5));
  const double floor = today(rate_position(Instrument::Floor, 0.035, 1, 5, 0.5));
  CHECK(cap == Approx(rates::cap_price(kModel, caps, 0.035, true)).epsilon(1e-10));
  CHECK(floor == Approx(rates::cap_price(kModel, caps, 0.035, false)).epsilon(1e-10));
  const double payer = today(rate_position(Instrument::PayerSwaption, 0.03, 2, 7, 1));
  const double receiver = today(rate_position(Instrument::ReceiverSwaption, 0.03, 2, 7, 1));
  CHECK(payer == Approx(rates::swaption_price(kModel, swaps, 0.03, true)).epsilon(1e-10));
  // Parity, free of the model: a cap less a floor, and a payer less a receiver
  // swaption, are the forward-starting swap paying the strike.
  CHECK(cap - floor == Approx(discount(1) - discount(5) - fixed_leg(caps, 0.035)).epsilon(1e-9));
  CHECK(payer - receiver == Approx(discount(2) - discount(7) - fixed_leg(swaps, 0.03)).epsilon(1e-9));
  CHECK(payer > 0.01);  // at the money on a flat 3% curve: worth something
}

TEST_CASE("rate positions at the horizon are worth today's value under the horizon's forward measure", "[var][rates]") {
  // Under the h-forward measure x(h) is normal with x's own sd over h and mean -M
  // (Brigo and Mercurio 3.39), and V(0) = P(0, h) E[V(h, x(h))]. (A coupon paid
  // before h would count at its amount there: the bonds here pay none by then.)
  using var::Instrument;
  const double h = 0.5, a = kModel.a, s2 = kModel.sigma * kModel.sigma;
  const double sd = rates::rate_step(kModel, h).sd_x;
  const double mean = -(s2 / (a * a) * -std::expm1(-a * h) - s2 / (2 * a * a) * -std::expm1(-2 * a * h));
  for (const var::Position& p :
       {rate_position(Instrument::Bond, 0, 0, 5, 0), rate_position(Instrument::Bond, 0, 0, 7.75, 1, 0.04),
        rate_position(Instrument::Cap, 0.035, 1, 5, 0.5), rate_position(Instrument::Floor, 0.025, 0.75, 3, 0.25),
        rate_position(Instrument::PayerSwaption, 0.03, 2, 7, 1), rate_position(Instrument::ReceiverSwaption, 0.028, 1, 11, 0.5)}) {
    INFO("kind " << static_cast<int>(p.instrument));
    const double expected = discount(h) * option::integrate(mean - 12 * sd, mean + 12 * sd, 400, [&](double x) {
      const double z = (x - mean) / sd;
      return var::rate_value(kModel, p, h, x) * std::exp(-0.5 * z * z) / (sd * std::sqrt(2 * M_PI));
    });
    CHECK(expected == Approx(today(p)).epsilon(1e-10));
  }
}

TEST_CASE("a book on one short-rate factor matches the exact VaR, ES and contributions", "[var][rates]") {
  const auto r = run_cpu(var_rates_job());
  const auto est = var_history::by_name(r);
  const auto& refs = r.scenarios.front().references;
  REQUIRE(refs.size() == 2 * (2 + 2 * 5));  // var, es and five positions' shares, per level
  for (const auto& ref : refs) {
    INFO(ref.name << ": " << est.at(ref.name).value << " +- " << est.at(ref.name).std_error << " vs " << ref.value);
    const auto& e = est.at(ref.name);
    CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error);
    CHECK(e.std_error < 0.03 * std::fabs(ref.value));
  }
  // The delta-normal figure sees the same risk to first order.
  double dn = 0;
  for (const auto& [name, value] : r.scenarios.front().diagnostics)
    if (name == "delta_normal_var_0.99") dn = value;
  CHECK(dn == Approx(est.at("var_0.99").value).epsilon(0.1));
}

TEST_CASE("historical simulation moves a short-rate factor by the history's rate changes", "[var][rates][historical]") {
  using namespace var_history;
  const auto rate_on = [](int d) { return 0.03 + 0.004 * std::sin(0.9 * d) + 0.0001 * d; };
  std::string csv = "date,A,USD\n";
  for (int d = 0; d < kDays; ++d) csv += date(d) + "," + std::to_string(price_a(d)) + "," + std::to_string(rate_on(d)) + "\n";
  const std::string path = write("rates.csv", csv);
  const std::string job = "run: { name: hs, seed: 3 }\n"
                          "model:\n  type: var\n  method: historical\n  horizon_days: 5\n  confidence: [0.9, 0.975]\n"
                          "  rate: 0.03\n  keep_pnl: true\n"
                          "  factors:\n    history: { file: " + path + " }\n"
                          "    assets: [{ name: A }, { name: USD, short_rate: { a: 0.05, sigma: 0.012 } }]\n"
                          "  portfolio:\n"
                          "    - { name: a, type: stock, asset: A, quantity: 1000 }\n"
                          "    - { name: zero, type: bond, asset: USD, maturity: 5, quantity: 1000000 }\n";
  const auto r = run_cpu(job);
  const int h = 5, n = kDays - h;
  REQUIRE(r.paths == static_cast<std::uint64_t>(n));
  // By hand: the stock by its relative move, the bond by the rate's change as x.
  const double sa = as_written(price_a(kDays - 1)), t = 5.0 / 252;
  std::vector<double> losses;
  for (int d = 0; d < n; ++d) {
    const double a = sa * as_written(price_a(d + h)) / as_written(price_a(d));
    const double x = as_written(rate_on(d + h)) - as_written(rate_on(d));
    losses.push_back(-1000 * (a - sa) - 1e6 * (kModel.bond(t, 5, x) - discount(5)));
  }
  const auto& tables = r.scenarios.front().tables;
  const auto pnl = std::find_if(tables.begin(), tables.end(), [](const io::Table& x) { return x.name == "pnl"; });
  REQUIRE(pnl != tables.end());
  for (int d = 0; d < n; ++d) CHECK(pnl->data[2 * static_cast<std::size_t>(d) + 1] == Approx(-losses[d]).epsilon(1e-9));
  std::sort(losses.begin(), losses.end());
  const auto est = by_name(r);
  CHECK(est.at("var_0.9").value == Approx(losses[static_cast<std::size_t>(std::ceil(0.9 * n) - 1)]).epsilon(1e-9));
  // A rate's history moves by changes: relative returns are refused, naming the key.
  check_config_error(with_text(job, "short_rate:", "returns: relative, short_rate:"), "model.factors.assets[1].returns",
                     "a short-rate factor moves by changes of its rate");
}

TEST_CASE("rate-position mistakes name their key and line", "[var][rates][config]") {
  const std::string job = var_rates_job();
  const auto has = [&](const std::string& from, const std::string& to, const std::string& key, const std::string& message) {
    check_config_error(with_text(job, from, to), key, message);
  };
  has("assets: [{ name: USD,", "assets: [{ name: ACME, spot: 100, volatility: 0.3 }, { name: USD,",
      "model.factors", "missing required key 'correlation'");
  const std::string two = with_text(job, "assets: [{ name: USD,", "correlation: 0.1\n    assets: [{ name: ACME, spot: 100, volatility: 0.3 }, { name: USD,");
  check_config_error(with_text(two, "name: zero, type: bond, asset: USD", "name: zero, type: bond, asset: ACME"),
                     "model.portfolio[0].asset", "'ACME' is no short-rate factor");
  check_config_error(two + "    - { type: option, option: put, asset: USD, strike: 1, maturity: 1, quantity: 1 }\n",
                     "model.portfolio[5].asset", "'USD' is a short-rate factor: it carries bonds");
  check_config_error(two + "    - { type: exchange, asset: ACME, other: USD, maturity: 1, quantity: 1 }\n",
                     "model.portfolio[5].other", "'USD' is a short-rate factor");
  has("start: 0.5,", "start: 0.02,", "model.portfolio[3].start", "0.02 years comes before the horizon of 10 days");
  has("maturity: 3, period: 0.25", "maturity: 3.1, period: 0.25", "model.portfolio[3].period",
      "maturity - start must be a whole number (>= 1) of periods");
  has("maturity: 5, quantity", "maturity: 5, period: 1, quantity", "model.portfolio[0].period", "a zero-coupon bond has no coupon period");
  has("coupon: 0.04, period: 0.5,", "coupon: 0.04,", "model.portfolio[1]", "missing required key 'period'");
  has("position: receiver,", "position: straddle,", "model.portfolio[2].position", "'straddle' is not one of: payer, receiver");
  has("short_rate: { a: 0.05,", "spot: 0.03, short_rate: { a: 0.05,", "model.factors.assets[0].spot",
      "a short-rate factor's level is its Hull-White state");
  has("type: swaption, position: receiver,", "type: bermudan_swaption, position: receiver,", "model.portfolio[2].type",
      "a Bermudan swaption has no closed form");
  has("sigma: 0.012", "sigma: 0", "model.factors.assets[0].short_rate.sigma", "must be in (0, 1]");
}

TEST_CASE("rate positions from a CSV file value as the same positions in the config", "[var][rates][config]") {
  using namespace var_history;
  const std::string header = "id,type,underlying,quantity,strike,maturity,coupon,start,period,position\n";
  const std::string rows = "zero,bond,USD,1000000,,5,,,,\n"
                           "bullet,bond,USD,400000,,7.25,0.04,,0.5,\n"
                           "receiver,swaption,USD,3000000,0.03,7,,2,1,receiver\n"
                           "floor,floor,USD,1000000,0.025,3,,0.5,0.25,\n"
                           "cap,cap,USD,-2000000,0.035,5,,1,0.5,\n";
  const std::string listed = var_rates_job();
  const std::string filed =
      listed.substr(0, listed.find("  portfolio:")) + "  portfolio: { file: " + write("rates-book.csv", header + rows) + " }\n";
  const auto ea = by_name(run_cpu(listed)), eb = by_name(run_cpu(filed));
  REQUIRE(ea.size() == eb.size());
  for (const auto& [name, e] : ea) {
    INFO(name);
    CHECK(std::memcmp(&e.value, &eb.at(name).value, sizeof(double)) == 0);
  }
  // Mistakes name the file, line and column (of characters).
  const auto refused = [&](const std::string& row, const std::string& message) {
    const std::string path = write("rates-bad.csv", header + rows + row);
    const std::vector<std::string> lines = errors_of(listed.substr(0, listed.find("  portfolio:")) + "  portfolio: { file: " + path + " }\n");
    std::string all;
    for (const auto& l : lines) all += l + "\n";
    INFO(all);
    CHECK(has_line(lines, path + ":7:" + message));
  };
  refused("x,bond,USD,1,0.03,5,,,,\n", "14: a bond takes no strike (got '0.03')");
  refused("x,swaption,USD,1,0.03,7,,2,1,\n", "30: a swaption needs a value in column position");
  refused("x,swaption,USD,1,0.03,7,,2,1,straddle\n", "30: position must be payer or receiver (got 'straddle')");
  refused("x,cap,USD,1,0.03,5,,0.01,0.5,\n", "21: 0.01 years comes before the horizon of 10 days");
  refused("x,floor,USD,1,0.03,5.1,,1,0.5,\n", "27: maturity - start must be a whole number (>= 1) of periods");
  refused("x,bond,USD,1,,5,0.04,,,\n", "23: a bond needs a value in column period");
  refused("x,bermudan_swaption,USD,1,0.03,7,,2,1,payer\n", "3: a Bermudan swaption has no closed form");
}

TEST_CASE("a short-rate factor fits its own discount curve", "[var][rates][config]") {
  // Pillars at 1, 5 and 10 years: the 5-year zero is worth its pillar's discount
  // factor today, whatever model.rate says.
  const std::string job = with_text(var_rates_job(), "sigma: 0.012 }",
                                    "sigma: 0.012, discount: { times: [1, 5, 10], zero_rates: [0.02, 0.031, 0.035] } }");
  const auto one_zero = [](const std::string& text) {
    return text.substr(0, text.find("    - { name: bullet")) ;
  };
  const auto r = run_cpu(one_zero(job));
  double value = 0;
  for (const auto& [name, v] : r.scenarios.front().diagnostics)
    if (name == "portfolio_value") value = v;
  CHECK(value == Approx(1e6 * std::exp(-0.031 * 5)).epsilon(1e-12));
  check_config_error(with_text(job, "zero_rates: [0.02, 0.031, 0.035]", "zero_rates: [0.02, 0.031]"),
                     "model.factors.assets[0].short_rate.discount.zero_rates", "needs one value per time (3), got 2");
}
