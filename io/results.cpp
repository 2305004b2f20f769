#include "io/results.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "io/hdf5.hpp"
#include "io/output_files.hpp"
#include "reduce/partial.hpp"

namespace mcsim::io {

namespace fs = std::filesystem;

namespace {

struct EstimateRow {
  char name[h5::kNameBytes];
  double value, std_error, ci_low, ci_high;
  std::uint64_t samples;
};
struct DifferenceRow {
  char name[h5::kNameBytes];
  double value, std_error, unpaired_std_error, ci_low, ci_high, reference;
  std::uint64_t batches;
};
struct ReferenceRow {
  char name[h5::kNameBytes];
  double value;
};

h5::Handle name_type() {
  h5::Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "make a string type");
  H5Tset_size(t, h5::kNameBytes);
  return t;
}

h5::Handle estimate_type() {
  h5::Handle t(H5Tcreate(H5T_COMPOUND, sizeof(EstimateRow)), H5Tclose, "make a table type");
  h5::Handle s = name_type();
  H5Tinsert(t, "name", HOFFSET(EstimateRow, name), s);
  H5Tinsert(t, "value", HOFFSET(EstimateRow, value), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "std_error", HOFFSET(EstimateRow, std_error), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_low", HOFFSET(EstimateRow, ci_low), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_high", HOFFSET(EstimateRow, ci_high), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "samples", HOFFSET(EstimateRow, samples), H5T_NATIVE_UINT64);
  return t;
}

h5::Handle difference_type() {
  h5::Handle t(H5Tcreate(H5T_COMPOUND, sizeof(DifferenceRow)), H5Tclose, "make a table type");
  h5::Handle s = name_type();
  H5Tinsert(t, "name", HOFFSET(DifferenceRow, name), s);
  H5Tinsert(t, "value", HOFFSET(DifferenceRow, value), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "std_error", HOFFSET(DifferenceRow, std_error), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "unpaired_std_error", HOFFSET(DifferenceRow, unpaired_std_error), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_low", HOFFSET(DifferenceRow, ci_low), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_high", HOFFSET(DifferenceRow, ci_high), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "batches", HOFFSET(DifferenceRow, batches), H5T_NATIVE_UINT64);
  H5Tinsert(t, "reference", HOFFSET(DifferenceRow, reference), H5T_NATIVE_DOUBLE);
  return t;
}

h5::Handle reference_type() {
  h5::Handle t(H5Tcreate(H5T_COMPOUND, sizeof(ReferenceRow)), H5Tclose, "make a table type");
  h5::Handle s = name_type();
  H5Tinsert(t, "name", HOFFSET(ReferenceRow, name), s);
  H5Tinsert(t, "value", HOFFSET(ReferenceRow, value), H5T_NATIVE_DOUBLE);
  return t;
}

template <class Row>
void write_table(hid_t group, const std::string& name, hid_t type, const std::vector<Row>& rows) {
  const hsize_t dims[1] = {rows.size()};
  h5::Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "make a dataspace");
  h5::Handle d(H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose, "create table '" + name + "'");
  if (!rows.empty() && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()) < 0)
    throw std::runtime_error("HDF5: cannot write table '" + name + "'");
}

template <class Row>
std::vector<Row> read_table(hid_t group, const std::string& name, hid_t type) {
  h5::Handle d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open table '" + name + "'");
  h5::Handle space(H5Dget_space(d), H5Sclose, "read table space");
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) throw std::runtime_error("HDF5: cannot read the size of table '" + name + "'");
  h5::check_size(d, static_cast<std::uint64_t>(n), sizeof(Row), name);  // before allocating what it claims
  std::vector<Row> rows(static_cast<std::size_t>(n));
  if (!rows.empty() && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()) < 0)
    throw std::runtime_error("HDF5: cannot read table '" + name + "'");
  return rows;
}

void copy_name(char (&dst)[h5::kNameBytes], const std::string& src) {
  std::memset(dst, 0, sizeof dst);
  std::strncpy(dst, src.c_str(), sizeof dst - 1);
}

void write_scenario(hid_t scenarios, const ScenarioResult& s) {
  h5::Handle g = h5::create_group(scenarios, s.name);
  for (const auto& [key, value] : s.overrides) h5::write_attr(g, key, value);

  std::vector<EstimateRow> est;
  for (const auto& e : s.estimates) {
    EstimateRow r{};
    copy_name(r.name, e.name);
    r.value = e.value, r.std_error = e.std_error, r.ci_low = e.ci_low, r.ci_high = e.ci_high;
    r.samples = e.samples;
    est.push_back(r);
  }
  write_table(g, "estimates", estimate_type(), est);
  if (!s.info.empty()) {  // one per estimate: what its samples count, its unit
    h5::Handle d(H5Dopen2(g, "estimates", H5P_DEFAULT), H5Dclose, "open table 'estimates'");
    std::vector<std::string> samples_of, units;
    for (const auto& i : s.info) samples_of.push_back(i.samples_of), units.push_back(i.unit);
    h5::write_attr(d, "samples_of", samples_of);
    h5::write_attr(d, "units", units);
  }
  // Differences from the base scenario: the paired error, and the unpaired one beside it.
  if (!s.differences.empty()) {
    std::vector<DifferenceRow> diff;
    for (const auto& d : s.differences) {
      DifferenceRow r{};
      copy_name(r.name, d.estimate.name);
      r.value = d.estimate.value, r.std_error = d.estimate.std_error, r.unpaired_std_error = d.unpaired_std_error;
      r.ci_low = d.estimate.ci_low, r.ci_high = d.estimate.ci_high, r.batches = d.batches;
      r.reference = d.reference;
      diff.push_back(r);
    }
    write_table(g, "differences", difference_type(), diff);
  }

  // Name/value tables: closed-form references, and figures such as the
  // variance-reduction factor of a control variate.
  const auto named_values = [&](const char* table, const std::vector<std::pair<std::string, double>>& rows) {
    if (rows.empty()) return;
    std::vector<ReferenceRow> out;
    for (const auto& [name, value] : rows) {
      ReferenceRow r{};
      copy_name(r.name, name);
      r.value = value;
      out.push_back(r);
    }
    write_table(g, table, reference_type(), out);
  };
  std::vector<std::pair<std::string, double>> refs, tolerances;
  for (const auto& x : s.references) {
    refs.emplace_back(x.name, x.value);
    if (x.tolerance > 0) tolerances.emplace_back(x.name, x.tolerance);
  }
  named_values("reference", refs);
  named_values("reference_tolerance", tolerances);  // approximate references: their stated error
  named_values("diagnostics", s.diagnostics);

  std::vector<std::string> table_names;
  for (const Table& t : s.tables) {
    const std::size_t cols = t.columns.size();
    h5::write_dataset(g, t.name, t.data, cols ? t.data.size() / cols : 0, cols);
    h5::Handle d(H5Dopen2(g, t.name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset '" + t.name + "'");
    h5::write_attr(d, "columns", t.columns);
    if (!t.units.empty()) h5::write_attr(d, "units", t.units);
    if (!t.row_names.empty()) h5::write_attr(d, "row_names", t.row_names);
    table_names.push_back(t.name);
  }
  if (!table_names.empty()) h5::write_attr(g, "tables", table_names);

  h5::Handle chunks = h5::create_group(g, "chunks");
  const std::size_t width = s.tally_layout.size();
  h5::write_dataset(chunks, "tally", s.chunk_tallies, width ? s.chunk_tallies.size() / width : 0, width);
  h5::write_attr(chunks, "layout", s.tally_layout);
}

}  // namespace

std::uint64_t content_checksum(const Results& r) {
  // Every field the file holds, in a fixed order: what read_results gives back.
  // Names as the tables store them (kNameBytes - 1 at most); overrides in any order.
  reduce::Packer p({"results.content", 1});
  const auto name = [&p](const std::string& n) { p.put(n.substr(0, h5::kNameBytes - 1)); };
  for (const std::string* s : {&r.mcsim_version, &r.git_sha, &r.created, &r.command_line, &r.config, &r.backend, &r.precision})
    p.put(*s);
  for (std::uint64_t v : {r.seed, r.paths, r.chunk_paths, r.ranks}) p.put(v);
  if (r.target_rel_error > 0 || r.target_abs_error > 0)
    p.put(r.paths_cap), p.put(std::uint64_t{r.target_met}), p.put(r.target_rel_error), p.put(r.target_abs_error);
  for (const auto& d : r.devices) p.put(d);
  for (const ScenarioResult& s : r.scenarios) {
    p.put(s.name);
    auto overrides = s.overrides;
    std::sort(overrides.begin(), overrides.end());
    for (const auto& [k, v] : overrides) p.put(k), p.put(v);
    for (const auto& e : s.estimates) name(e.name), p.put(e.value), p.put(e.std_error), p.put(e.ci_low), p.put(e.ci_high), p.put(e.samples);
    for (const auto& x : s.references) {
      name(x.name), p.put(x.value);
      if (x.tolerance > 0) p.put(x.tolerance);
    }
    for (const auto& i : s.info) p.put(i.samples_of), p.put(i.unit);
    for (const auto& [k, v] : s.diagnostics) name(k), p.put(v);
    for (const auto& d : s.differences)
      name(d.estimate.name), p.put(d.estimate.value), p.put(d.estimate.std_error), p.put(d.estimate.ci_low),
          p.put(d.estimate.ci_high), p.put(d.unpaired_std_error), p.put(d.batches), p.put(d.reference);
    for (const auto& l : s.tally_layout) p.put(l);
    p.put(s.chunk_tallies);
    for (const Table& t : s.tables) {
      p.put(t.name), p.put(t.data);
      for (const auto& c : t.columns) p.put(c);
      for (const auto& u : t.units) p.put(u);
      for (const auto& n : t.row_names) p.put(n);
    }
  }
  p.put(r.wall_s), p.put(r.paths_per_s);
  for (const auto& [stage, s] : r.stage_seconds) p.put(stage), p.put(s);
  for (const auto& d : r.device_times) p.put(d.device), p.put(d.rank), p.put(d.seconds), p.put(d.kernel_ms), p.put(d.paths);
  return reduce::checksum(p.take());
}

void check_writable(const std::string& path, bool force) {
  check_output_path(path);
  if (!force && fs::exists(fs::symlink_status(path)))
    throw std::runtime_error("'" + path + "' exists; pass --force to overwrite it or -o to write elsewhere");
  check_can_write(path);  // an unwritable place fails before the work, not after it
}

void write_results(const std::string& path, const Results& r, bool force) {
  // The run checked the path before its work; a file that appeared since is kept
  // (unless force), and these results are then left in their temp file.
  check_output_path(path);
  h5::write_file_atomically(path, [&](hid_t f) {
    h5::write_attr(f, "format", std::string("mcsim-results"));
    h5::write_attr(f, "format_version", kFormatVersion);
    h5::write_attr(f, "content_checksum", content_checksum(r));
    h5::write_attr(f, "mcsim_version", r.mcsim_version);
    h5::write_attr(f, "git_sha", r.git_sha);
    h5::write_attr(f, "created", r.created);
    h5::write_attr(f, "command_line", r.command_line);
    h5::write_attr(f, "config", r.config);
    h5::write_attr(f, "seed", r.seed);
    h5::write_attr(f, "paths", r.paths);
    h5::write_attr(f, "chunk_paths", r.chunk_paths);
    if (r.target_rel_error > 0 || r.target_abs_error > 0) {
      h5::write_attr(f, "paths_cap", r.paths_cap);
      h5::write_attr(f, "target_rel_error", r.target_rel_error);
      h5::write_attr(f, "target_abs_error", r.target_abs_error);
      h5::write_attr(f, "target_met", std::uint64_t{r.target_met});
    }
    h5::write_attr(f, "ranks", r.ranks);
    h5::write_attr(f, "devices", r.devices);
    h5::write_attr(f, "backend", r.backend);
    h5::write_attr(f, "precision", r.precision);

    h5::Handle scenarios = h5::create_group(f, "scenarios");
    std::vector<std::string> order;  // the base scenario first, then as the job lists them
    for (const auto& s : r.scenarios) write_scenario(scenarios, s), order.push_back(s.name);
    h5::write_attr(scenarios, "order", order);

    h5::Handle timing = h5::create_group(f, "timing");
    h5::write_attr(timing, "wall_s", r.wall_s);
    h5::write_attr(timing, "paths_per_s", r.paths_per_s);
    std::vector<std::string> stages;
    for (const auto& [stage, seconds] : r.stage_seconds) h5::write_attr(timing, stage + "_s", seconds), stages.push_back(stage);
    h5::write_attr(timing, "stages", stages);
    std::vector<std::string> names;
    std::vector<double> secs, kernel_ms, paths, ranks;
    for (const auto& d : r.device_times) {
      names.push_back(d.device);
      ranks.push_back(d.rank);
      secs.push_back(d.seconds);
      kernel_ms.push_back(d.kernel_ms);
      paths.push_back(static_cast<double>(d.paths));
    }
    h5::write_attr(timing, "device_names", names);
    h5::write_attr(timing, "device_seconds", secs);
    h5::write_attr(timing, "device_kernel_ms", kernel_ms);
    h5::write_attr(timing, "device_paths", paths);
    h5::write_attr(timing, "device_ranks", ranks);
  }, force);
}

namespace {
Results read(const std::string& path) {
  h5::Handle f = h5::open_file(path);
  Results r;
  if (!h5::exists_attr(f, "format") || h5::read_attr_string(f, "format") != "mcsim-results")
    throw std::runtime_error("not an mcsim results file (no format attribute 'mcsim-results')");
  if (!h5::exists_attr(f, "format_version")) throw std::runtime_error("no format_version: not a results file mcsim wrote");
  const std::uint64_t version = h5::read_attr_uint(f, "format_version");
  if (version < kOldestFormatVersion || version > kFormatVersion)
    throw std::runtime_error("format_version " + std::to_string(version) + "; this mcsim reads versions " +
                             std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) +
                             (version > kFormatVersion ? " (written by a newer mcsim?)" : ""));
  // Version 2 and later carry a checksum of what they hold; a file without one is damaged.
  const bool checked = version >= 2;
  if (checked && !h5::exists_attr(f, "content_checksum")) throw std::runtime_error("its content_checksum is missing");
  r.mcsim_version = h5::read_attr_string(f, "mcsim_version");
  r.git_sha = h5::read_attr_string(f, "git_sha");
  r.created = h5::read_attr_string(f, "created");
  r.command_line = h5::read_attr_string(f, "command_line");
  r.config = h5::read_attr_string(f, "config");
  r.backend = h5::read_attr_string(f, "backend");
  r.precision = h5::read_attr_string(f, "precision");
  r.seed = h5::read_attr_uint(f, "seed");
  r.paths = h5::read_attr_uint(f, "paths");
  r.chunk_paths = h5::read_attr_uint(f, "chunk_paths");
  r.ranks = h5::read_attr_uint(f, "ranks");
  const auto attrs = h5::attr_names(f);
  if (std::find(attrs.begin(), attrs.end(), "target_met") != attrs.end()) {
    r.paths_cap = h5::read_attr_uint(f, "paths_cap");
    r.target_rel_error = h5::read_attr_double(f, "target_rel_error");
    r.target_abs_error = h5::read_attr_double(f, "target_abs_error");
    r.target_met = h5::read_attr_uint(f, "target_met") != 0;
  }
  r.devices = h5::read_attr_strings(f, "devices");

  h5::Handle scenarios = h5::open_group(f, "scenarios");
  const auto listed = h5::attr_names(scenarios);
  const bool ordered = std::find(listed.begin(), listed.end(), "order") != listed.end();
  for (const auto& name : ordered ? h5::read_attr_strings(scenarios, "order") : h5::children(scenarios)) {
    ScenarioResult s;
    s.name = name;
    h5::Handle g = h5::open_group(scenarios, name);
    const auto attrs = h5::attr_names(g);  // the overrides, and the list of tables
    for (const auto& key : attrs)
      if (key != "tables") s.overrides.emplace_back(key, h5::read_attr_string(g, key));
    if (std::find(attrs.begin(), attrs.end(), "tables") != attrs.end())
      for (const auto& t : h5::read_attr_strings(g, "tables")) {
        Table table{t, {}, h5::read_dataset(g, t, nullptr, nullptr)};
        h5::Handle d(H5Dopen2(g, t.c_str(), H5P_DEFAULT), H5Dclose, "open dataset '" + t + "'");
        table.columns = h5::read_attr_strings(d, "columns");
        if (h5::exists_attr(d, "units")) {
          table.units = h5::read_attr_strings(d, "units");
          if (table.units.size() != table.columns.size())
            throw std::runtime_error("table '" + t + "' has " + std::to_string(table.units.size()) + " units for " +
                                     std::to_string(table.columns.size()) + " columns");
        }
        if (h5::exists_attr(d, "row_names")) {
          table.row_names = h5::read_attr_strings(d, "row_names");
          const std::size_t rows = table.columns.empty() ? 0 : table.data.size() / table.columns.size();
          if (table.row_names.size() != rows)
            throw std::runtime_error("table '" + t + "' has " + std::to_string(table.row_names.size()) + " row names for " +
                                     std::to_string(rows) + " rows");
        }
        s.tables.push_back(std::move(table));
      }
    for (const auto& row : read_table<EstimateRow>(g, "estimates", estimate_type()))
      s.estimates.push_back({std::string(row.name, strnlen(row.name, h5::kNameBytes)), row.value,
                             row.std_error, row.ci_low, row.ci_high, row.samples});
    {
      h5::Handle d(H5Dopen2(g, "estimates", H5P_DEFAULT), H5Dclose, "open table 'estimates'");
      if (h5::exists_attr(d, "samples_of")) {
        const auto samples_of = h5::read_attr_strings(d, "samples_of"), units = h5::read_attr_strings(d, "units");
        if (samples_of.size() != s.estimates.size() || units.size() != s.estimates.size())
          throw std::runtime_error("scenario '" + name + "': its estimates' samples_of or units are not one per estimate");
        for (std::size_t i = 0; i < units.size(); ++i) s.info.push_back({samples_of[i], units[i]});
      }
    }
    if (h5::exists(g, "differences"))
      for (const auto& row : read_table<DifferenceRow>(g, "differences", difference_type())) {
        reduce::Difference d;
        d.estimate = {std::string(row.name, strnlen(row.name, h5::kNameBytes)), row.value, row.std_error, row.ci_low,
                      row.ci_high, 0};
        d.unpaired_std_error = row.unpaired_std_error, d.batches = row.batches, d.reference = row.reference;
        s.differences.push_back(d);
      }
    if (h5::exists(g, "reference"))
      for (const auto& row : read_table<ReferenceRow>(g, "reference", reference_type()))
        s.references.push_back({std::string(row.name, strnlen(row.name, h5::kNameBytes)), row.value});
    if (h5::exists(g, "reference_tolerance"))
      for (const auto& row : read_table<ReferenceRow>(g, "reference_tolerance", reference_type()))
        for (auto& ref : s.references)
          if (ref.name == std::string(row.name, strnlen(row.name, h5::kNameBytes))) ref.tolerance = row.value;
    if (h5::exists(g, "diagnostics"))
      for (const auto& row : read_table<ReferenceRow>(g, "diagnostics", reference_type()))
        s.diagnostics.emplace_back(std::string(row.name, strnlen(row.name, h5::kNameBytes)), row.value);
    h5::Handle chunks = h5::open_group(g, "chunks");
    s.tally_layout = h5::read_attr_strings(chunks, "layout");
    s.chunk_tallies = h5::read_dataset(chunks, "tally", nullptr, nullptr);
    r.scenarios.push_back(std::move(s));
  }
  h5::Handle timing = h5::open_group(f, "timing");
  r.wall_s = h5::read_attr_double(timing, "wall_s");
  r.paths_per_s = h5::read_attr_double(timing, "paths_per_s");
  if (h5::exists_attr(timing, "stages"))
    for (const auto& stage : h5::read_attr_strings(timing, "stages"))
      r.stage_seconds.emplace_back(stage, h5::read_attr_double(timing, stage + "_s"));
  const auto names = h5::read_attr_strings(timing, "device_names");
  const auto secs = h5::read_attr_doubles(timing, "device_seconds");
  const auto kernel_ms = h5::read_attr_doubles(timing, "device_kernel_ms");
  const auto paths = h5::read_attr_doubles(timing, "device_paths");
  const auto ranks = h5::read_attr_doubles(timing, "device_ranks");
  for (std::size_t i = 0; i < names.size() && i < secs.size() && i < kernel_ms.size() &&
                          i < paths.size() && i < ranks.size(); ++i)
    r.device_times.push_back({static_cast<int>(ranks[i]), names[i], secs[i], kernel_ms[i],
                              static_cast<std::uint64_t>(paths[i])});
  if (checked && content_checksum(r) != h5::read_attr_uint(f, "content_checksum"))
    throw std::runtime_error("damaged: what it holds does not match its content_checksum (changed after mcsim wrote it?)");
  return r;
}
}  // namespace

Results read_results(const std::string& path) {
  std::error_code e;
  if (!fs::exists(path, e)) throw std::runtime_error("'" + path + "' does not exist");
  if (fs::is_directory(path, e)) throw std::runtime_error("'" + path + "' is a folder, not a results file");
  return h5::read_named("'" + path + "'", path, read);
}

}  // namespace mcsim::io
