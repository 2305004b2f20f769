// Risk on a book from a positions file, on the CPU backend: positions in CSV
// value as the same positions in YAML, grouping columns' shares and standalone
// figures, and the errors of the positions and history files.
#include <catch2/catch.hpp>
#include <fmt/format.h>

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
#include "models/var/var_model.hpp"

using namespace mcsim;
using namespace var_history;

TEST_CASE("positions from a CSV file value as the same positions in the config", "[var][historical][config]") {
  const std::string history = write("history.csv", history_csv());
  const std::string book = write("book.csv",
                                 "id,type,underlying,quantity,option,strike,maturity,desk,barrier,kind,average,fixings,"
                                 "other,correlation\n"
                                 "a,stock,A,1000,,,,equity,,,,,,\n"
                                 "b,stock,B,-500,,,,equity,,,,,,\n"
                                 "fwd,forward,B,300,,41,1,delta-one,,,,,,\n"
                                 "put,option,A,200,put,95,0.5,vol,,,,,,\n"
                                 "dig,digital,A,-5000,call,105,0.75,vol,,,,,,\n"
                                 "ko,barrier,A,400,put,125,0.5,vol,150,up-and-out,,,,\n"
                                 "avg,asian,A,-300,call,130,0.6,vol,,,geometric,30,,\n"
                                 "swap,exchange,B,150,,,0.9,vol,,,,,A,0.35\n");
  const std::string listed = "  portfolio:\n" + kBook +
                             "    - { name: put, type: option, option: put, asset: A, strike: 95, maturity: 0.5, quantity: 200 }\n"
                             "    - { name: dig, type: digital, option: call, asset: A, strike: 105, maturity: 0.75, quantity: -5000 }\n"
                             "    - { name: ko, type: barrier, option: put, kind: up-and-out, barrier: 150, asset: A, strike: 125,"
                             " maturity: 0.5, quantity: 400 }\n"
                             "    - { name: avg, type: asian, average: geometric, fixings: 30, option: call, asset: A, strike: 130,"
                             " maturity: 0.6, quantity: -300 }\n"
                             "    - { name: swap, type: exchange, asset: B, other: A, correlation: 0.35, maturity: 0.9, quantity: 150 }\n";
  const std::string vols = "    assets: [{ name: A, volatility: 0.25 }, { name: B, volatility: 0.4 }]\n";
  const auto with_vols = [&](std::string t) { const std::string plain = "    assets: [{ name: A }, { name: B }]\n";
    return t.replace(t.find(plain), plain.size(), vols); };
  const auto a = run_cpu(with_vols(historical_job(history, "", listed)));
  const auto b = run_cpu(with_vols(historical_job(history, "", "  portfolio: { file: " + book + ", groups: [desk] }\n")));
  const auto ea = by_name(a), eb = by_name(b);
  REQUIRE(eb.size() == ea.size() + 2 * 4 * 3);  // and the desks' shares: VaR and ES at 4 levels, 3 desks
  for (const auto& [name, e] : ea) {
    INFO(name);
    CHECK(std::memcmp(&e.value, &eb.at(name).value, sizeof(double)) == 0);
  }
  const auto job = io::load_job_text(with_vols(historical_job(history, "", "  portfolio: { file: " + book + ", groups: [desk] }\n")), "hs.yaml");
  const var::VarSpec& s = spec_of(job);
  CHECK(s.group_columns == std::vector<std::string>{"desk"});
  CHECK(s.portfolio[2].groups == std::vector<std::string>{"delta-one"});
  // The job's text keeps the file's name and digest; a changed file is refused when read again.
  CHECK(job.yaml.find("digest:") != std::string::npos);
  write("book.csv", "id,type,underlying,quantity,option,strike,maturity,desk\na,stock,A,1001,,,,equity\n");
  CHECK(has_line(errors_of(job.yaml), "has changed since this job was written"));
  // A scenario that names another book reads it afresh.
  const std::string other = write("other.csv", "id,type,underlying,quantity,desk\nz,stock,B,7,x\n");
  const auto afresh = errors_of(with_vols(historical_job(history, "", "  portfolio: { file: " + book + ", groups: [desk] }\n")) +
                                "scenarios: [{ name: other, set: { model.portfolio.file: " + other + " } }]\n");
  std::string said;
  for (const auto& line : afresh) said += line + "\n";
  INFO(said);
  CHECK(afresh.empty());
}

TEST_CASE("a grouping column's shares are its positions' losses summed per scenario, and add up", "[var][historical]") {
  const std::string history = write("history.csv", history_csv());
  // Desk eq holds a stock and its exact hedge: its loss is 0 in every scenario, while
  // each of the two has a share with an error of its own.
  const std::string book = write("grouped.csv", kGroupedBook);
  const auto r = run_cpu(historical_job(history, "", "  portfolio: { file: " + book + ", groups: [desk, book] }\n"));
  const auto est = by_name(r);
  for (const char* level : {"0.8", "0.9", "0.95", "0.975"})
    for (const char* figure : {"var_", "es_"}) {
      const std::string total = figure + std::string(level), at = total + ".";
      INFO(total);
      CHECK(est.at(at + "desk=eq").value == 0);
      CHECK(est.at(at + "desk=eq").std_error == 0);
      CHECK(est.at(at + "a").std_error > 0);
      CHECK(est.at(at + "desk=rates").value == Approx(est.at(at + "b").value + est.at(at + "fwd").value).epsilon(1e-9));
      CHECK(est.at(at + "desk=rates").value == Approx(est.at(total).value).epsilon(1e-9));
      CHECK(est.at(at + "book=x").value + est.at(at + "book=y").value == Approx(est.at(total).value).epsilon(1e-9));
      CHECK(est.at(at + "book=x").value == Approx(est.at(at + "a").value + est.at(at + "b").value).epsilon(1e-9));
    }
  // The desk x level table: one row per level and group, named by its group.
  const auto& tables = r.scenarios.front().tables;
  const auto t = std::find_if(tables.begin(), tables.end(), [](const io::Table& x) { return x.name == "group_contributions"; });
  REQUIRE(t != tables.end());
  CHECK(t->row_names.size() == 4 * 4);
  CHECK(t->row_names[1] == "desk=rates");
  CHECK(t->data[1 * 6 + 2] == est.at("var_0.8.desk=rates").value);
}

TEST_CASE("a group's standalone VaR and ES are its positions' own, as a book of them alone", "[var][historical]") {
  // Desk eq (a stock and its hedge) never loses: its own VaR and ES are 0. Desk rates
  // is the whole book's risk; book x (stocks A and B) is the order statistic of
  // its two positions' losses, computed here by hand.
  const std::string history = write("history.csv", history_csv());
  const std::string book = write("standalone.csv", kGroupedBook);
  const auto r = run_cpu(historical_job(history, "", "  portfolio: { file: " + book + ", groups: [desk, book], standalone: true }\n"));
  const auto est = by_name(r);
  const int h = 5, n = kDays - h;
  const double sa = as_written(price_a(kDays - 1)), sb = as_written(price_b(kDays - 1));
  std::vector<double> x;
  for (int d = 0; d < n; ++d)
    x.push_back(-1000 * sa * (as_written(price_a(d + h)) / as_written(price_a(d)) - 1) +
                500 * sb * (as_written(price_b(d + h)) / as_written(price_b(d)) - 1));
  std::sort(x.begin(), x.end());
  std::map<std::string, double> diag(r.scenarios.front().diagnostics.begin(), r.scenarios.front().diagnostics.end());
  for (const auto& [level, k] : std::vector<std::pair<std::string, int>>{{"0.8", 92}, {"0.9", 104}, {"0.95", 110}, {"0.975", 113}}) {
    INFO(level);
    CHECK(est.at("standalone_var_" + level + ".desk=eq").value == 0);
    CHECK(est.at("standalone_es_" + level + ".desk=eq").value == 0);
    CHECK(est.at("standalone_var_" + level + ".desk=rates").value == Approx(est.at("var_" + level).value).epsilon(1e-12));
    CHECK(est.at("standalone_es_" + level + ".desk=rates").value == Approx(est.at("es_" + level).value).epsilon(1e-12));
    CHECK(est.at("standalone_var_" + level + ".book=x").value == Approx(x[static_cast<std::size_t>(k - 1)]).epsilon(1e-9));
    CHECK(est.at("standalone_var_" + level + ".book=x").std_error > 0);
    // The desks' standalone VaRs add up to the book's: nothing to diversify.
    CHECK(diag.at("diversification_" + level + ".desk") == Approx(0).margin(1e-9 * est.at("var_" + level).value));
  }
  // Each group's loss histogram: all the windows, eq's in the one bin of 0.
  const auto& tables = r.scenarios.front().tables;
  const auto t = std::find_if(tables.begin(), tables.end(), [](const io::Table& y) { return y.name == "group_loss_histograms"; });
  REQUIRE(t != tables.end());
  std::map<std::string, double> counts;
  std::map<std::string, int> rows;
  for (std::size_t i = 0; i < t->row_names.size(); ++i) counts[t->row_names[i]] += t->data[4 * i + 3], ++rows[t->row_names[i]];
  for (const char* g : {"desk=eq", "desk=rates", "book=x", "book=y"}) CHECK(counts.at(g) == n);
  CHECK(rows.at("desk=eq") == 1);
  CHECK(has_line(errors_of(historical_job(history, "", "  portfolio: { file: " + book + ", standalone: true }\n")),
                 "model.portfolio.standalone: a group's own VaR needs grouping columns"));
}

TEST_CASE("mistakes in a positions file name its line and column", "[var][historical][config]") {
  const std::string history = write("history.csv", history_csv());
  const auto errors = [&](const std::string& name, const std::string& csv, const std::string& groups = "") {
    const std::string path = write(name, csv);
    return std::make_pair(path, errors_of(historical_job(history, "", "  portfolio: { file: " + path + groups + " }\n")));
  };
  const std::string header = "id,type,underlying,quantity,option,strike,maturity\n";
  {
    const auto [p, e] = errors("typo.csv", "id,type,underlying,quantity,strke\na,stock,A,1,\n");
    CHECK(has_line(e, p + ":1:29: unknown column 'strke' (did you mean 'strike'?)"));
  }
  {
    const auto [p, e] = errors("rows.csv", header + "a,stock,A,1,,,\n"            // fine
                                                     "a,stock,A,1,,,\n"            // the id again
                                                     "c,swap,A,1,,,\n"             // no such type
                                                     "d,stock,AA,1,,,\n"           // no such asset
                                                     "e,stock,A,lots,,,\n"         // not a number
                                                     "f,stock,A,1,,100,\n"         // a stock has no strike
                                                     "g,option,A,1,call,,1\n"      // an option needs a strike
                                                     "h,forward,B,1,,40,0.01\n"    // ends before the horizon
                                                     "i,digital,A,1,,40,1\n");      // a digital call or put?
    CHECK(has_line(e, p + ":3:1: position 'a' is listed twice"));
    CHECK(has_line(e, p + ":4:3: type must be one of stock, forward, option, digital, barrier, asian, exchange, bond, cap, floor, "
                      "swaption (got 'swap')"));
    CHECK(has_line(e, p + ":5:9: no risk factor named 'AA' (did you mean 'A'?)"));
    CHECK(has_line(e, p + ":6:11: expected a number in column 'quantity', got 'lots'"));
    CHECK(has_line(e, p + ":7:14: a stock takes no strike (got '100')"));
    CHECK(has_line(e, p + ":8:19: an option needs a value in column strike"));
    CHECK(has_line(e, p + ":9:19: 0.01 years ends before the horizon"));
    CHECK(has_line(e, p + ":10:15: a digital needs a value in column option"));
  }
  {
    // Barriers: a level, a kind, and today's spot (A's last price, 129.5) on the live side.
    const auto [p, e] = errors("barriers.csv", "id,type,underlying,quantity,option,strike,maturity,barrier,kind\n"
                                               "a,barrier,A,1,call,120,1,100,down-and-out\n"   // fine
                                               "b,barrier,A,1,call,120,1,130,down-and-out\n"   // crossed today
                                               "c,barrier,A,1,call,120,1,100,\n"               // which kind?
                                               "d,barrier,A,1,call,120,1,100,sideways\n"       // no such kind
                                               "e,option,A,1,call,120,1,100,\n");              // an option has none
    CHECK(has_line(e, p + ":3:26: 130 is crossed at today's spot of A (129.523): the option is knocked already"));
    CHECK(has_line(e, p + ":4:30: a barrier needs a value in column kind"));
    CHECK(has_line(e, p + ":5:30: kind must be one of down-and-out, up-and-out, down-and-in, up-and-in (got 'sideways')"));
    CHECK(has_line(e, p + ":6:25: an option takes no barrier (got '100')"));
    for (const auto& line : e) UNSCOPED_INFO(line);
    CHECK(e.size() == 5);  // and the job's: A's options need its volatility
  }
  {
    // Asians: a geometric average and a count of fixings.
    const auto [p, e] = errors("asians.csv", "id,type,underlying,quantity,option,strike,maturity,average,fixings\n"
                                             "a,asian,A,1,call,120,1,geometric,12\n"    // fine
                                             "b,asian,A,1,call,120,1,arithmetic,12\n"   // no closed form
                                             "c,asian,A,1,call,120,1,geometric,\n"      // how many fixings?
                                             "d,asian,A,1,call,120,1,geometric,2.5\n"   // not a count
                                             "e,option,A,1,call,120,1,,12\n");          // an option has none
    CHECK(has_line(e, p + ":3:24: an arithmetic average has no closed form"));
    CHECK(has_line(e, p + ":4:34: an asian needs a value in column fixings"));
    CHECK(has_line(e, p + ":5:34: fixings must be a whole number from 1 to 10000 (got '2.5')"));
    CHECK(has_line(e, p + ":6:26: an option takes no fixings (got '12')"));
    for (const auto& line : e) UNSCOPED_INFO(line);
    CHECK(e.size() == 5);  // and the job's: A's options need its volatility
  }
  {
    // Exchanges: another asset, and in historical simulation their own correlation.
    const auto [p, e] = errors("exchanges.csv", "id,type,underlying,quantity,strike,maturity,other,correlation\n"
                                                "a,exchange,A,1,,1,B,0.3\n"     // fine
                                                "b,exchange,A,1,,1,B,\n"        // which correlation?
                                                "c,exchange,A,1,,1,A,0.3\n"     // for itself
                                                "d,exchange,A,1,100,1,B,0.3\n"  // no strike
                                                "e,stock,A,1,,,B,\n");          // a stock has no other
    CHECK(has_line(e, p + ":3:21: an exchange needs a value in column correlation"));
    CHECK(has_line(e, p + ":4:19: an exchange gives one asset for another, not for itself"));
    CHECK(has_line(e, p + ":5:16: an exchange takes no strike (got '100')"));
    CHECK(has_line(e, p + ":6:15: a stock takes no other (got 'B')"));
    for (const auto& line : e) UNSCOPED_INFO(line);
    CHECK(e.size() == 6);  // and the job's: A's and B's options need their volatilities
  }
  {
    // A volatility factor: another factor, for options and digitals only.
    const auto [p, e] = errors("vols.csv", "id,type,underlying,quantity,option,strike,maturity,volatility_factor\n"
                                           "a,option,A,1,call,120,1,B\n"     // fine: B's level is its volatility
                                           "b,digital,A,1,call,120,1,A\n"    // its own asset
                                           "c,forward,A,1,,120,1,B\n");      // a forward has none
    CHECK(has_line(e, p + ":3:26: names the option's own asset"));
    CHECK(has_line(e, p + ":4:22: a forward takes no volatility_factor (got 'B')"));
    for (const auto& line : e) UNSCOPED_INFO(line);
    CHECK(e.size() == 2);
  }
  {
    const auto [p, e] = errors("group.csv", header + "a,stock,A,1,,,\n", ", groups: [desk]");
    CHECK(has_line(e, p + ":1:1: the header has no column 'desk'"));
    // A grouping column of ids would make a unit of every position: refused at the
    // row that passes the bound.
    std::string ids = "id,type,underlying,quantity,desk\n";
    for (int i = 0; i < 1002; ++i) ids += fmt::format("p{},stock,A,1,d{}\n", i, i);
    const auto [q, f] = errors("ids.csv", ids, ", groups: [desk]");
    CHECK(has_line(f, q + ":1002:17: the grouping columns make more than 1000 groups here ('desk' = 'd1000')"));
  }
  {
    std::string many = header;
    for (int i = 0; i < 80; ++i) many += "x" + std::to_string(i) + ",stock,Q,1,,,\n";
    const auto [p, e] = errors("many.csv", many);
    CHECK(e.size() == 51);
    CHECK(has_line(e, p + ": and 30 more errors in the file"));
  }
}

TEST_CASE("mistakes in a history and its method name their key, file, line and column", "[var][historical][config]") {
  const std::string good = write("history.csv", history_csv());
  {
    std::string t = history_csv();
    t.replace(t.find("\n2024-01-03,") + 12, 3, "abc");
    const std::string p = write("bad-price.csv", t);
    CHECK(has_line(errors_of(historical_job(p)), p + ":4:12: expected a number in column 'A'"));
  }
  {
    const std::string p = write("order.csv", "date,A,B\n2024-01-02,1,2\n2024-01-01,1,2\n2024-01-03,1,2\n");
    CHECK(has_line(errors_of(historical_job(p)), p + ":3:1: dates must increase: 2024-01-01 after 2024-01-02"));
    const std::string q = write("date.csv", "date,A,B\n2024-02-30,1,2\n");
    CHECK(has_line(errors_of(historical_job(q)), q + ":2:1: a date is written YYYY-MM-DD (got '2024-02-30')"));
  }
  {
    const std::string p = write("no-b.csv", "date,A\n2024-01-02,1\n");
    CHECK(has_line(errors_of(historical_job(p)), p + ":1:1: the header has no column 'B'"));
  }
  CHECK(has_line(errors_of(historical_job(good, ", from: 2024-03-01, to: 2024-02-01")), "model.factors.history.to: the window ends"));
  CHECK(has_line(errors_of(historical_job(good), {"run.paths=100"}),
                 "run.paths: 100 paths, but the model's input fixes 115"));
  CHECK(has_line(errors_of(historical_job(good), {"model.factors.history=null"}),
                 "method: historical needs a market history"));
  CHECK(has_line(errors_of(historical_job(good), {"model.confidence=[0.999]"}),
                 "level 0.999 needs at least 1000 historical scenarios; the window gives 115"));
  CHECK(has_line(errors_of(historical_job(good), {"model.factors.correlation=0.5"}), "belongs to method: monte_carlo"));
  CHECK(has_line(errors_of(historical_job(good, "", "  portfolio:\n    - { type: option, option: put, asset: A, strike: 95, maturity: 0.5, quantity: 1 }\n")),
                 "asset 'A' has options (p0): give its volatility"));
  CHECK(has_line(errors_of(historical_job(good), {"model.method=monte_carlo", "model.factors.history.returns=absolute"}),
                 "absolute moves serve method: historical"));
  CHECK(has_line(errors_of(historical_job(good), {"model.method=monte_carlo", "model.factors.history.age_decay=0.99"}),
                 "model.factors.history.age_decay: age weights serve method: historical"));
  CHECK(has_line(errors_of(historical_job(good), {"model.factors.history.age_decay=1"}), "model.factors.history.age_decay"));
}
