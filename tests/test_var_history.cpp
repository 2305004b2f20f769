// Risk on a book and a history from files, on the CPU backend: historical
// simulation against the order statistic and tail mean computed here from the
// history by hand, its moves (absolute, windowed, volatility-scaled), Monte Carlo
// with a covariance estimated from the history, positions from a CSV file, and the
// errors of both files.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <map>
#include <string>

#include "config_errors.hpp"
#include "cpu_run.hpp"
#include "var_history_job.hpp"
#include "io/config.hpp"
#include "io/results.hpp"
#include "models/var/bootstrap.hpp"
#include "models/var/var_model.hpp"
#include "rng/stream.hpp"

using namespace mcsim;
using namespace var_history;

namespace {
// The book's positions' shares of level `name` add up to its VaR and ES.
void check_shares_add_up(const std::map<std::string, reduce::Estimate>& est, const std::string& name, double var, double es) {
  double var_sum = 0, es_sum = 0;
  for (const char* p : {"a", "b", "fwd"}) var_sum += est.at("var_" + name + "." + p).value, es_sum += est.at("es_" + name + "." + p).value;
  CHECK(var_sum == Approx(var).epsilon(1e-9));
  CHECK(es_sum == Approx(es).epsilon(1e-9));
}
}  // namespace

TEST_CASE("historical VaR and ES are the order statistic and tail mean of the history's losses", "[var][historical]") {
  const std::string path = write("history.csv", history_csv());
  const auto r = run_cpu(historical_job(path), {"model.keep_pnl=true"});
  const int h = 5, n = kDays - h;
  REQUIRE(r.paths == static_cast<std::uint64_t>(n));
  // By hand: today's spots are the last prices; each window's relative move applied.
  const double sa = as_written(price_a(kDays - 1)), sb = as_written(price_b(kDays - 1));
  const double rate = 0.02, t = 5.0 / 252, fwd_today = sb - 41 * std::exp(-rate * 1);
  std::vector<double> losses;
  for (int d = 0; d < n; ++d) {
    const double a = sa * as_written(price_a(d + h)) / as_written(price_a(d));
    const double b = sb * as_written(price_b(d + h)) / as_written(price_b(d));
    losses.push_back(-1000 * (a - sa) + 500 * (b - sb) - 300 * ((b - 41 * std::exp(-rate * (1 - t))) - fwd_today));
  }
  // keep_pnl: every window's P&L, named by its first date.
  const auto& tables = r.scenarios.front().tables;
  const auto pnl = std::find_if(tables.begin(), tables.end(), [](const io::Table& x) { return x.name == "pnl"; });
  REQUIRE(pnl != tables.end());
  REQUIRE(pnl->row_names.size() == static_cast<std::size_t>(n));
  CHECK(pnl->row_names[3] == date(3));
  for (int d = 0; d < n; ++d) CHECK(pnl->data[2 * static_cast<std::size_t>(d) + 1] == Approx(-losses[d]).epsilon(1e-9));
  std::sort(losses.begin(), losses.end());
  const auto est = by_name(r);
  // ceil(a n): 0.8 x 115 is 92 exactly, which a double's 0.8 (a hair above) must not round up.
  for (const auto& [level, k] : std::vector<std::pair<double, int>>{{0.8, 92}, {0.9, 104}, {0.95, 110}, {0.975, 113}}) {
    INFO(level);
    const std::string name = fmt::format("{:g}", level);
    const double var = losses[static_cast<std::size_t>(k - 1)];
    double above = 0;
    for (int i = k; i < n; ++i) above += losses[static_cast<std::size_t>(i)];
    const double es = (above + (k - level * n) * var) / ((1 - level) * n);
    CHECK(est.at("var_" + name).value == Approx(var).epsilon(1e-9));
    CHECK(est.at("es_" + name).value == Approx(es).epsilon(1e-9));
    check_shares_add_up(est, name, var, es);
  }
  CHECK(r.scenarios.front().references.empty());  // GBM's closed form does not apply
  // Errors by the block bootstrap: there, and not so wide that anything passes.
  for (const char* level : {"0.9", "0.975"}) {
    INFO(level);
    const auto& e = est.at(std::string("var_") + level);
    CHECK(e.std_error > 0);
    CHECK(e.std_error < 0.5 * std::fabs(e.value));
  }
  bool resampled = false;
  for (const auto& [name, value] : r.scenarios.front().diagnostics) resampled = resampled || (name == "bootstrap_resamples" && value == 1000);
  CHECK(resampled);
}

TEST_CASE("age-weighted VaR and ES are the weighted order statistic and tail of the history's losses", "[var][historical]") {
  // Window s of n (oldest first) weighs decay^(n - 1 - s); by hand: F(x) = weight of
  // the losses <= x, VaR = the first loss upward with F >= a, ES = (the weight
  // above the VaR times its losses + (F(VaR) - a) VaR) / (1 - a).
  const std::string path = write("history.csv", history_csv());
  const double decay = 0.97;
  const auto r = run_cpu(historical_job(path, ", age_decay: 0.97"), {"model.keep_pnl=true"});
  const int n = kDays - 5;
  const auto& tables = r.scenarios.front().tables;
  const auto pnl = std::find_if(tables.begin(), tables.end(), [](const io::Table& x) { return x.name == "pnl"; });
  REQUIRE(pnl != tables.end());
  REQUIRE(pnl->columns == std::vector<std::string>{"scenario", "pnl", "weight"});
  std::vector<double> w(n), loss(n);
  double total = 0;
  for (int s = 0; s < n; ++s) total += w[s] = std::pow(decay, n - 1 - s);
  std::vector<int> order(n);
  for (int s = 0; s < n; ++s) {
    w[s] /= total, loss[s] = -pnl->data[3 * s + 1], order[s] = s;
    CHECK(pnl->data[3 * s + 2] == Approx(w[s]).epsilon(1e-12));
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) { return loss[a] < loss[b]; });
  const auto est = by_name(r);
  for (const double level : {0.8, 0.9, 0.95, 0.975}) {
    INFO(level);
    std::size_t i = 0;
    double F = w[order[0]];
    while (F < level) F += w[order[++i]];
    const double var = loss[order[i]];
    double tail = (F - level) * var;
    for (std::size_t j = i + 1; j < order.size(); ++j) tail += w[order[j]] * loss[order[j]];
    const double es = tail / (1 - level);
    const std::string name = fmt::format("{:g}", level);
    CHECK(est.at("var_" + name).value == Approx(var).epsilon(1e-12));
    CHECK(est.at("es_" + name).value == Approx(es).epsilon(1e-9));
    check_shares_add_up(est, name, var, es);  // errors from the weighted bootstrap:
    CHECK(est.at("var_" + name).std_error > 0);
    CHECK(est.at("var_" + name).std_error < 0.5 * std::fabs(var));
  }
  // The recent windows count: these levels' figures move off the equal-weight ones.
  const auto plain = by_name(run_cpu(historical_job(path)));
  CHECK(est.at("es_0.9").value != Approx(plain.at("es_0.9").value).epsilon(1e-3));
  std::map<std::string, double> diag(r.scenarios.front().diagnostics.begin(), r.scenarios.front().diagnostics.end());
  double squares = 0;
  for (double x : w) squares += x * x;
  CHECK(diag.at("effective_scenarios") == Approx(1 / squares));
}

TEST_CASE("a decay near 1 weighs the windows the same, bootstrap errors included", "[var][historical]") {
  // Equal weights give the plain order statistic and tail mean; the weighted
  // bootstrap draws the same resamples as the plain one.
  const std::string path = write("history.csv", history_csv());
  const auto aged = by_name(run_cpu(historical_job(path, ", age_decay: 0.999999999")));
  const auto plain = by_name(run_cpu(historical_job(path)));
  for (const char* level : {"0.9", "0.975"})
    for (const char* figure : {"var_", "es_"}) {
      const std::string name = std::string(figure) + level;
      INFO(name);
      CHECK(aged.at(name).value == Approx(plain.at(name).value).epsilon(1e-6));
      CHECK(aged.at(name).std_error == Approx(plain.at(name).std_error).epsilon(1e-3));
    }
}

TEST_CASE("a P&L table past its size is refused before any work, naming the key", "[var][config]") {
  const std::string job = "run: { name: mc, paths: 10_000_001, seed: 1 }\nmodel:\n  type: var\n  horizon_days: 1\n"
                          "  keep_pnl: true\n  factors: { assets: [{ name: A, spot: 100, volatility: 0.2 }] }\n"
                          "  portfolio:\n    - { type: stock, asset: A, quantity: 1 }\n";
  CHECK_THROWS_WITH(run_cpu(job), Catch::Contains("model.keep_pnl") && Catch::Contains("10000000"));
  CHECK(has_line(errors_of(job, {"model.keep_pnl=yes"}), "keep_pnl"));
}

TEST_CASE("historical simulation gives the same bits on any chunks and threads", "[var][historical]") {
  const std::string path = write("history.csv", history_csv());
  const auto a = run_cpu(historical_job(path), {"run.chunk_paths=8"});
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto b = run_cpu(historical_job(path), {"run.chunk_paths=32"});
  omp_set_num_threads(threads);
  const auto ea = by_name(a), eb = by_name(b);
  REQUIRE(ea.size() == eb.size());
  for (const auto& [name, e] : ea) {
    INFO(name);
    CHECK(std::memcmp(&e.value, &eb.at(name).value, sizeof(double)) == 0);
  }
}

TEST_CASE("historical moves: absolute, within a window of dates, scaled to today's volatility", "[var][historical]") {
  const std::string path = write("history.csv", history_csv());
  SECTION("absolute moves shift today's price by the history's change") {
    const auto job = io::load_job_text(historical_job(path, ", returns: absolute"), "hs.yaml");
    const var::VarSpec& s = spec_of(job);
    REQUIRE(s.scenarios() == kDays - 5);
    const double sb = as_written(price_b(kDays - 1));
    for (int d : {0, 17, kDays - 6})
      CHECK(std::exp(s.historical_log_spots[2 * d + 1]) ==
            Approx(sb + as_written(price_b(d + 5)) - as_written(price_b(d))).epsilon(1e-12));
  }
  SECTION("a window of dates: its scenarios, and today's spot its last price") {
    const auto job = io::load_job_text(historical_job(path, ", from: " + date(10) + ", to: " + date(59)), "hs.yaml");
    const var::VarSpec& s = spec_of(job);
    CHECK(s.scenarios() == 50 - 5);
    CHECK(s.assets[0].spot == as_written(price_a(59)));
    CHECK(s.scenario_start.front() == date(10));
    CHECK(std::exp(s.historical_log_spots[0]) == Approx(s.assets[0].spot * as_written(price_a(15)) / as_written(price_a(10))));
  }
  SECTION("EWMA scaling leaves a steady volatility's moves as they are and scales a calm past up to a wild present") {
    // Daily log returns +-x for 60 days, then +-3x: the scaled early moves grow about 3 times.
    std::string t = "date,A,B\n";
    double p = 100;
    for (int d = 0; d < kDays; ++d) {
      const double x = (d < 60 ? 0.01 : 0.03) * (d % 2 ? 1 : -1);
      if (d) p *= std::exp(x);
      t += date(d) + "," + fmt::format("{:.17g}", p) + ",40\n";
    }
    const std::string wild = write("wild.csv", t);
    const auto plain = io::load_job_text(historical_job(wild, ", returns: relative"), "hs.yaml",
                                         {"model.horizon_days=1", "model.confidence=[0.9]"});
    const auto scaled = io::load_job_text(historical_job(wild, ", ewma_lambda: 0.9"), "hs.yaml",
                                          {"model.horizon_days=1", "model.confidence=[0.9]"});
    const auto& a = spec_of(plain).historical_log_spots;
    const auto& b = spec_of(scaled).historical_log_spots;
    const double today = std::log(spec_of(plain).assets[0].spot);
    // lambda = 0.9 has forgotten the variance it started from (the window's mean square) by day 50.
    const double early = (b[2 * 50] - today) / (a[2 * 50] - today), late = (b[2 * 110] - today) / (a[2 * 110] - today);
    CHECK(early == Approx(3).epsilon(0.05));
    CHECK(late == Approx(1).epsilon(0.05));
  }
}

TEST_CASE("Monte Carlo takes its volatilities and correlation from a history", "[var][historical]") {
  const std::string path = write("history.csv", history_csv());
  const std::string job_text =
      "run: { name: mc, paths: 20000, seed: 3 }\nmodel:\n  type: var\n  horizon_days: 5\n  confidence: [0.99]\n"
      "  factors:\n    history: { file: " + path + " }\n    assets: [{ name: A }, { name: B }]\n  portfolio:\n" + kBook;
  std::vector<double> ra, rb;
  for (int d = 1; d < kDays; ++d) {
    ra.push_back(std::log(as_written(price_a(d)) / as_written(price_a(d - 1))));
    rb.push_back(std::log(as_written(price_b(d)) / as_written(price_b(d - 1))));
  }
  const auto cov = [](const std::vector<double>& x, const std::vector<double>& y, double lambda) {
    const double m = static_cast<double>(x.size());
    double mx = 0, my = 0, s = 0;
    if (lambda == 0) {
      for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / m, my += y[i] / m;
      for (std::size_t i = 0; i < x.size(); ++i) s += (x[i] - mx) * (y[i] - my) / (m - 1);
    } else {
      for (std::size_t i = 0; i < x.size(); ++i) s += (1 - lambda) * std::pow(lambda, m - 1 - i) * x[i] * y[i];
    }
    return 252 * s;
  };
  for (double lambda : {0.0, 0.94}) {
    INFO(lambda);
    const auto job = io::load_job_text(job_text, "mc.yaml", lambda ? std::vector<std::string>{"model.factors.history.ewma_lambda=0.94"}
                                                                    : std::vector<std::string>{});
    const var::VarSpec& s = spec_of(job);
    CHECK(s.assets[0].volatility == Approx(std::sqrt(cov(ra, ra, lambda))).epsilon(1e-10));
    CHECK(s.assets[1].volatility == Approx(std::sqrt(cov(rb, rb, lambda))).epsilon(1e-10));
    CHECK(s.correlation[0][1] ==
          Approx(cov(ra, rb, lambda) / std::sqrt(cov(ra, ra, lambda) * cov(rb, rb, lambda))).epsilon(1e-10));
    CHECK(s.assets[1].spot == as_written(price_b(kDays - 1)));
  }
  // A linear book on two correlated assets (daily moves near 1%, correlation near
  // 0.8): over one day its VaR and ES are delta-normal's on the hand-estimated
  // covariance, to the lognormal's second order (a relative bias below the largest
  // sigma sqrt(h) times the level's z, stated as the bound).
  {
    const auto noise = [](int d, double salt) {  // a deterministic sequence, mean 0, sd about 1
      const double x = std::sin(12.9898 * d + salt) * 43758.5453;
      return (x - std::floor(x) - 0.5) * std::sqrt(12.0);
    };
    std::string text = "date,A,B\n";
    std::vector<double> pa{100}, pb{50};
    for (int d = 1; d < 400; ++d) {
      const double x = noise(d, 0.3), y = noise(d, 7.1);
      pa.push_back(pa.back() * std::exp(0.01 * x));
      pb.push_back(pb.back() * std::exp(0.01 * (0.8 * x + 0.6 * y)));
    }
    std::vector<double> la, lb;
    for (std::size_t d = 0; d < pa.size(); ++d) {
      text += date(static_cast<int>(d)) + "," + std::to_string(pa[d]) + "," + std::to_string(pb[d]) + "\n";
      if (d) la.push_back(std::log(as_written(pa[d]) / as_written(pa[d - 1]))), lb.push_back(std::log(as_written(pb[d]) / as_written(pb[d - 1])));
    }
    const std::string moves = write("linear.csv", text);
    const std::string linear =
        "run: { name: mc, paths: 400000, seed: 9 }\nmodel:\n  type: var\n  horizon_days: 1\n  confidence: [0.975, 0.99]\n"
        "  rate: 0.02\n  factors:\n    history: { file: " + moves + " }\n    assets: [{ name: A }, { name: B }]\n"
        "  portfolio:\n    - { name: a, type: stock, asset: A, quantity: 1000 }\n"
        "    - { name: b, type: stock, asset: B, quantity: -1500 }\n"
        "    - { name: fwd, type: forward, asset: B, strike: 41, maturity: 1, quantity: -500 }\n";
    const auto r = run_cpu(linear);
    const auto est = by_name(r);
    const double h = 1.0 / 252, da = 1000 * as_written(pa.back()), db = -2000 * as_written(pb.back());
    const double va = cov(la, la, 0), vb = cov(lb, lb, 0), vab = cov(la, lb, 0);
    const double sd = std::sqrt(h * (da * da * va + db * db * vb + 2 * da * db * vab));
    const double largest = std::sqrt(std::max(va, vb) * h);
    for (const auto& [level, z] : std::vector<std::pair<double, double>>{{0.975, 1.959963984540054}, {0.99, 2.326347874040841}}) {
      const std::string name = fmt::format("{:g}", level);
      INFO(name);
      const double var = z * sd, es = std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI) / (1 - level) * sd;
      const auto &v = est.at("var_" + name), &e = est.at("es_" + name);
      CHECK(std::fabs(v.value - var) <= 4 * v.std_error + largest * z * var);
      CHECK(std::fabs(e.value - es) <= 4 * e.std_error + largest * z * es);
      // Without the correlation the figure would be off by far more than the bound.
      const double independent = z * std::sqrt(h * (da * da * va + db * db * vb));
      CHECK(std::fabs(independent - var) > 4 * (4 * v.std_error + largest * z * var));
    }
  }
  // One asset: the exact lognormal VaR and ES at the estimated volatility are the references.
  const std::string one =
      "run: { name: mc, paths: 400000, seed: 3 }\nmodel:\n  type: var\n  horizon_days: 5\n  confidence: [0.95, 0.99]\n"
      "  factors:\n    history: { file: " + path + " }\n    assets: [{ name: A }]\n  portfolio:\n"
      "    - { name: a, type: stock, asset: A, quantity: 1000 }\n"
      "    - { name: put, type: option, option: put, asset: A, strike: 110, maturity: 0.5, quantity: 800 }\n";
  const auto r = run_cpu(one);
  const auto est = by_name(r);
  const auto& refs = r.scenarios.front().references;
  REQUIRE(refs.size() == 2 * (2 + 2 * 2));
  for (const auto& ref : refs) {
    INFO(ref.name);
    const auto& e = est.at(ref.name);
    CHECK(std::fabs(e.value - ref.value) < 4 * e.std_error);
    CHECK(e.std_error < 0.03 * std::fabs(ref.value));
  }
}

TEST_CASE("the block bootstrap's errors match the order statistic's theory and grow with overlap", "[var][historical]") {
  // Losses uniform on (0, 1): VaR_a has sd sqrt(a (1 - a) / n) (the density is 1),
  // ES_a sd sqrt((1 - a) (1/12 + a/4) / n).
  const std::size_t n = 4000;
  std::vector<double> u(n);
  rng::Stream stream(99, 0);
  for (std::size_t i = 0; i < n; i += 2) {
    const auto b = rng::uniforms<double>(stream);
    u[i] = b.z[0], u[i + 1] = b.z[1];
  }
  const double a = 0.975;
  const auto e = var::bootstrap_errors(u, {a}, 1, 5, 2000).front();
  CHECK(e.var_se == Approx(std::sqrt(a * (1 - a) / n)).epsilon(0.25));
  CHECK(e.es_se == Approx(std::sqrt((1 - a) * (1.0 / 12 + a / 4) / n)).epsilon(0.25));
  // Each loss ten times running, as overlapping 10-day windows repeat most of a move:
  // blocks of ten see about sqrt(10) times the error that single draws see.
  std::vector<double> repeated;
  for (std::size_t i = 0; i < n / 10; ++i) repeated.insert(repeated.end(), 10, u[i]);
  const double single = var::bootstrap_errors(repeated, {a}, 1, 5, 2000).front().var_se;
  const double blocks = var::bootstrap_errors(repeated, {a}, 10, 5, 2000).front().var_se;
  CHECK(blocks / single > 2.2);
  CHECK(blocks / single < 4.5);
}
