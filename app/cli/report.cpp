#include "app/cli/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace mcsim {

namespace {


std::string samples_text(std::uint64_t n, const std::string& of) { return of.empty() ? grouped(n) : grouped(n) + " " + of; }

// Rows of cells, left-aligned first column, the rest right-aligned, each column
// as wide as its widest cell.
std::string aligned(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && row.size() > 1; ++c) {  // a lone cell is a note
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t c = 0; c < row.size(); ++c)
      line += row.size() == 1 ? row[c] : c == 0 ? fmt::format("{:<{}}", row[c], width[c]) : fmt::format("  {:>{}}", row[c], width[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// Without the columns no row has a cell in (units, references of a model without them).
std::vector<std::vector<std::string>> without_empty_columns(std::vector<std::vector<std::string>> rows) {
  for (std::size_t c = rows.empty() ? 0 : rows[0].size(); c-- > 1;) {
    bool empty = true;
    for (std::size_t r = 1; r < rows.size(); ++r) empty = empty && (c >= rows[r].size() || rows[r][c].empty());
    if (empty)
      for (auto& row : rows)
        if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
  }
  return rows;
}

// The noun for what a run's `paths` counts: paths, histories, scenarios.
std::string work_noun(const io::Results& r) {
  for (const auto& s : r.scenarios)
    for (const auto& i : s.info)
      if (i.samples_of != "generations") return i.samples_of;
  return "paths";
}

}  // namespace

std::string grouped(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Rounded rounded(double value, double std_error) {
  if (!(std_error > 0) || !std::isfinite(std_error) || !std::isfinite(value))
    return {with_decimals(value, -1), std::isnan(std_error) ? "n/a" : fmt::format("{:.2g}", std_error), -1};
  // Two significant digits of the error, and the value to the same place.
  const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(std_error))));
  if (decimals > 15) return {with_decimals(value, -1), fmt::format("{:.2g}", std_error), -1};
  const double place = std::pow(10.0, 1 - std::floor(std::log10(std_error)));
  if (decimals == 0 && place < 1)  // an error of tens or more: round the value to that place
    return {fmt::format("{:.0f}", std::round(value * place) / place), fmt::format("{:.0f}", std::round(std_error * place) / place), 0};
  return {with_decimals(value, decimals), with_decimals(std_error, decimals), decimals};
}

std::string with_decimals(double value, int decimals) {
  if (std::isnan(value)) return "n/a";
  return decimals < 0 ? fmt::format("{:.10g}", value) : fmt::format("{:.{}f}", value, decimals);
}

std::string reference_verdict(double value, double std_error, double reference, double tolerance) {
  const double miss = std::fabs(value - reference) - tolerance;
  if (tolerance > 0 && miss <= 0) return "in band";
  const double z = (tolerance > 0 ? std::copysign(miss, value - reference) : value - reference) / std_error;
  if (!std::isfinite(z)) return value == reference ? "exact" : "";
  return tolerance > 0 ? fmt::format("{:+.2f} past band", z) : fmt::format("{:+.2f}", z);
}

std::string format_estimates(const io::ScenarioResult& s) {
  std::vector<std::vector<std::string>> rows{{"estimate", "value", "std error", "95% interval", "samples", "unit", "reference", "z"}};
  for (std::size_t i = 0; i < s.estimates.size(); ++i) {
    const reduce::Estimate& e = s.estimates[i];
    const EstimateInfo info = i < s.info.size() ? s.info[i] : EstimateInfo{"", ""};
    const Rounded r = rounded(e.value, e.std_error);
    const int d = r.decimals <= 0 ? r.decimals : r.decimals + 1;  // the interval one digit finer
    std::string ref, verdict;
    if (const Reference* x = s.reference(e.name)) {
      ref = x->tolerance > 0 ? fmt::format("{} +- {:.2g}", with_decimals(x->value, d), x->tolerance)
                             : with_decimals(x->value, r.decimals < 0 ? -1 : r.decimals + 2);
      verdict = reference_verdict(e.value, e.std_error, x->value, x->tolerance);
    }
    rows.push_back({e.name, r.value, r.std_error,
                    std::isnan(e.std_error) ? "" : fmt::format("[{}, {}]", with_decimals(e.ci_low, d), with_decimals(e.ci_high, d)),
                    samples_text(e.samples, info.samples_of), info.unit, ref, verdict});
  }
  std::string out = aligned(without_empty_columns(rows), "  ");
  if (s.differences.empty()) return out;
  rows = {{"minus base", "difference", "paired err", "95% interval (paired)", "unpaired err", "reference", "z"}};
  for (const auto& x : s.differences) {
    const reduce::Estimate& e = x.estimate;
    const bool paired = !std::isnan(e.std_error);
    const Rounded r = rounded(e.value, paired ? e.std_error : x.unpaired_std_error);
    const int d = r.decimals <= 0 ? r.decimals : r.decimals + 1;
    const bool ref = !std::isnan(x.reference);
    rows.push_back({e.name, (e.value >= 0 ? "+" : "") + r.value, paired ? r.std_error : "n/a",
                    paired ? fmt::format("[{}, {}]", with_decimals(e.ci_low, d), with_decimals(e.ci_high, d)) : "",
                    rounded(x.unpaired_std_error, x.unpaired_std_error).value,
                    ref ? with_decimals(x.reference, r.decimals < 0 ? -1 : r.decimals + 2) : "",
                    ref && paired ? reference_verdict(e.value, e.std_error, x.reference, 0) : ""});
  }
  return out + aligned(without_empty_columns(rows), "  ");
}

std::string format_diagnostics(const io::ScenarioResult& s) {
  if (s.diagnostics.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, value] : s.diagnostics) rows.push_back({name, fmt::format("{:.6g}", value)});
  return "  diagnostics\n" + aligned(rows, "    ");
}

std::string format_table(const io::Table& t, std::size_t max_rows) {
  const std::size_t cols = t.columns.size(), n = cols ? t.data.size() / cols : 0;
  const bool named = !t.row_names.empty();
  std::vector<std::vector<std::string>> rows(1);
  if (named) rows[0].push_back("name");
  rows[0].insert(rows[0].end(), t.columns.begin(), t.columns.end());
  // Units under the table, each once with the columns it is the unit of.
  std::vector<std::pair<std::string, std::string>> units;  // unit -> columns
  for (std::size_t c = 0; c < t.units.size() && c < cols; ++c) {
    if (t.units[c].empty()) continue;
    auto u = std::find_if(units.begin(), units.end(), [&](const auto& x) { return x.first == t.units[c]; });
    if (u == units.end()) units.emplace_back(t.units[c], t.columns[c]);
    else u->second += ", " + t.columns[c];
  }
  const bool cut = max_rows > 0 && n > max_rows;
  const std::size_t head = cut ? max_rows * 2 / 3 : n, tail = cut ? max_rows - head : 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (cut && i == head) {
      rows.push_back({fmt::format("... {} rows more", n - head - tail)});
      i = n - tail;
    }
    rows.emplace_back();
    if (named) rows.back().push_back(t.row_names[i]);
    for (std::size_t c = 0; c < cols; ++c) {
      const double x = t.data[i * cols + c];
      const bool whole = std::fabs(x) < 1e15 && x == std::floor(x);  // counts and indices in full
      rows.back().push_back(std::isnan(x) ? "-" : whole ? fmt::format("{:.0f}", x) : fmt::format("{:.6g}", x));
    }
  }
  std::string legend;
  for (const auto& [unit, columns] : units) legend += fmt::format("{}{}: {}", legend.empty() ? "    units: " : "; ", columns, unit);
  return aligned(rows, "    ") + (legend.empty() ? "" : legend + "\n");
}

std::string format_results(const io::Results& r, bool tables) {
  const std::string devices = r.devices.empty() ? "" : fmt::format(" [{}]", fmt::join(r.devices, "; "));
  std::string out = fmt::format("  backend  {}{}, {}, {} {}, chunks of {}, seed {}\n", r.backend, devices, r.precision, samples_text(r.paths, ""), work_noun(r), r.chunk_paths, r.seed);
  for (const auto& s : r.scenarios) {
    if (r.scenarios.size() > 1) {
      std::string set;
      auto overrides = s.overrides;  // by key, as a results file holds them
      std::sort(overrides.begin(), overrides.end());
      for (const auto& [k, v] : overrides) set += fmt::format("{}{}={}", set.empty() ? "" : ", ", k, v);
      out += fmt::format("scenario {}{}\n", s.name, set.empty() ? "" : " (" + set + ")");
    }
    out += format_estimates(s) + format_diagnostics(s);
    if (!tables) continue;
    for (const auto& t : s.tables) {
      const std::size_t n = t.columns.empty() ? 0 : t.data.size() / t.columns.size();
      out += fmt::format("  table {} ({} row{})\n", t.name, n, n == 1 ? "" : "s") + format_table(t, 24);
    }
  }
  if (r.target_rel_error > 0 || r.target_abs_error > 0)
    out += fmt::format("  target   {} after {} of at most {} {}\n", r.target_met ? "met" : "NOT met", samples_text(r.paths, ""),
                       samples_text(r.paths_cap, ""), work_noun(r));
  if (!r.checkpoint.empty()) return out;  // the run's time is known when it ends
  out += fmt::format("  time     {:.3f} s wall, {:.3g} {}/s, {} rank{}\n", r.wall_s, r.paths_per_s, work_noun(r), r.ranks,
                     r.ranks == 1 ? "" : "s");
  return out;
}

}  // namespace mcsim
