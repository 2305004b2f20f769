#include "app/run/risk/standalone.hpp"

#include <chrono>
#include <map>

#include "app/run/risk/job.hpp"
#include "models/var/scenario.hpp"
#include "reduce/mpi.hpp"

namespace mcsim {

namespace {

// The book cut to one group's positions, run as a book of its own.
var::VarSpec group_book(const var::VarSpec& book, const var::ShareGroup& g) {
  var::VarSpec s = book;
  s.portfolio.clear();
  for (int i : g.positions) s.portfolio.push_back(book.portfolio[static_cast<std::size_t>(i)]);
  for (var::Position& p : s.portfolio) p.groups.clear();
  s.group_columns.clear();
  s.standalone = s.keep_pnl = false;
  return s;
}

const io::Table* table_named(const io::ScenarioResult& s, const std::string& name) {
  for (const io::Table& t : s.tables)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

void add_standalone(const io::Job& job, const var::VarModel& model, const RunOptions& options,
                    const DeviceList& devices, ScenarioRun& book) {
  const var::VarSpec& spec = model.spec();
  const auto started = std::chrono::steady_clock::now();
  RunOptions quiet = options;
  quiet.progress = false;
  quiet.checkpoint_for.clear();  // a group's run is repeatable from the job alone
  quiet.resume = false;
  quiet.keep_tails = false;
  io::ScenarioResult& out = book.scenario;
  std::map<std::string, double> book_var;  // per level name
  for (const reduce::Estimate& e : out.estimates) book_var[e.name] = e.value;
  std::vector<double> rows, histogram_rows;
  std::vector<std::string> names, histogram_names;
  std::vector<reduce::Estimate> estimates;
  std::map<std::pair<std::string, std::string>, double> column_sum;  // (level, column): the groups' standalone VaRs added
  const std::vector<var::ShareGroup> groups = var::share_groups(spec);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const var::VarModel alone(group_book(spec, groups[g]));
    const ScenarioRun r = run_risk_job(job, alone, quiet, devices);
    if (!mpi::master()) continue;
    const std::string& group = groups[g].name;
    const std::string column = group.substr(0, group.find('='));
    std::map<std::string, reduce::Estimate> by_name;
    for (const reduce::Estimate& e : r.scenario.estimates) by_name[e.name] = e;
    for (double a : spec.confidence) {
      const std::string level = var::level_name(a);
      reduce::Estimate v = by_name.at("var_" + level), es = by_name.at("es_" + level);
      rows.insert(rows.end(), {a, static_cast<double>(g), v.value, v.std_error, es.value, es.std_error});
      names.push_back(group);
      column_sum[{level, column}] += v.value;
      v.name = "standalone_var_" + level + "." + group, es.name = "standalone_es_" + level + "." + group;
      estimates.push_back(v), estimates.push_back(es);
    }
    // The group's first-pass loss histogram, from its first to its last filled bin.
    if (const io::Table* h = table_named(r.scenario, "loss_histogram")) {
      const std::size_t bins = h->data.size() / 3;
      std::size_t first = bins, last = 0;
      for (std::size_t b = 0; b < bins; ++b)
        if (h->data[3 * b + 2] > 0) first = std::min(first, b), last = b;
      for (std::size_t b = first; b <= last && first < bins; ++b) {
        histogram_rows.insert(histogram_rows.end(), {static_cast<double>(g), h->data[3 * b], h->data[3 * b + 1], h->data[3 * b + 2]});
        histogram_names.push_back(group);
      }
    }
  }
  book.stage_seconds.emplace_back("standalone", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  if (!mpi::master()) return;
  // After the book's own estimates and shares, in the order outputs() lists them.
  for (double a : spec.confidence)
    for (const char* figure : {"standalone_var_", "standalone_es_"})
      for (const reduce::Estimate& e : estimates)
        if (e.name.rfind(figure + var::level_name(a) + ".", 0) == 0) out.estimates.push_back(e);
  out.tables.push_back({"group_standalone", {"level", "group", "var", "var_std_error", "es", "es_std_error"}, rows, {}, names});
  out.tables.push_back({"group_loss_histograms", {"group", "low", "high", "count"}, histogram_rows, {"", "", "", "scenarios"},
                        histogram_names});
  for (const auto& [key, sum] : column_sum)
    out.diagnostics.emplace_back("diversification_" + key.first + "." + key.second, sum - book_var.at("var_" + key.first));
}

}  // namespace mcsim
