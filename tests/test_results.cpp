// The results file read back through the HDF5 C API directly (not through mcsim's
// reader), so the layout of the results-file contract is what is tested.
#include <catch2/catch.hpp>
#include <hdf5.h>

#include <unistd.h>

#include <filesystem>

#include "app/run/runner.hpp"
#include "io/results.hpp"
#include "job_text.hpp"

using namespace mcsim;
namespace fs = std::filesystem;

namespace {
std::string attr_string(hid_t loc, const char* name) {
  const hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  REQUIRE(a >= 0);
  const hid_t t = H5Aget_type(a);
  std::string s(H5Tget_size(t), '\0');
  const hid_t mem = H5Tcopy(H5T_C_S1);
  H5Tset_size(mem, s.size());
  REQUIRE(H5Aread(a, mem, s.data()) >= 0);
  H5Tclose(mem), H5Tclose(t), H5Aclose(a);
  return s.substr(0, s.find('\0'));
}
std::uint64_t attr_u64(hid_t loc, const char* name) {
  const hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  std::uint64_t v = 0;
  H5Aread(a, H5T_NATIVE_UINT64, &v);
  H5Aclose(a);
  return v;
}
struct Row {
  char name[64];
  double value, std_error, ci_low, ci_high;
  std::uint64_t samples;
};

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("mcsim-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST_CASE("results file has the contract layout and provenance and is written atomically", "[results]") {
  const io::Job job = io::load_job_text(option_job("european", "call"), "test.yaml", {"run.paths=50000"});
  const io::Results r = run_job(job, RunOptions{io::BackendChoice::Cpu, false, "mcsim run test.yaml"});
  const fs::path dir = temp_dir();
  const std::string path = (dir / "sub" / "out.h5").string();
  io::write_results(path, r, false);
  CHECK(fs::exists(path));
  CHECK_FALSE(fs::exists(path + ".tmp"));

  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  CHECK(attr_string(f, "format") == "mcsim-results");
  CHECK(attr_u64(f, "format_version") == io::kFormatVersion);
  CHECK(attr_u64(f, "paths") == 50000);
  CHECK(attr_u64(f, "seed") == 99);
  CHECK(attr_u64(f, "chunk_paths") == 16384);
  CHECK(attr_string(f, "backend") == "cpu");
  CHECK(attr_string(f, "precision") == "double");
  CHECK(attr_string(f, "command_line") == "mcsim run test.yaml");
  CHECK(attr_string(f, "config").find("type: european") != std::string::npos);
  CHECK(attr_string(f, "created").size() == 20);  // 2026-01-01T00:00:00Z
  for (const char* a : {"mcsim_version", "git_sha", "ranks", "devices"}) CHECK(H5Aexists(f, a) > 0);

  // /scenarios/base/estimates: compound (name, value, std_error, ci_low, ci_high, samples)
  const hid_t d = H5Dopen2(f, "/scenarios/base/estimates", H5P_DEFAULT);
  REQUIRE(d >= 0);
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  const hid_t s64 = H5Tcopy(H5T_C_S1);
  H5Tset_size(s64, 64);
  H5Tinsert(t, "name", HOFFSET(Row, name), s64);
  H5Tinsert(t, "value", HOFFSET(Row, value), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "std_error", HOFFSET(Row, std_error), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_low", HOFFSET(Row, ci_low), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "ci_high", HOFFSET(Row, ci_high), H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "samples", HOFFSET(Row, samples), H5T_NATIVE_UINT64);
  Row row{};
  REQUIRE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &row) >= 0);
  const auto& e = r.scenarios.front().estimates.front();
  CHECK(std::string(row.name) == "price");
  CHECK(row.value == e.value);
  CHECK(row.std_error == e.std_error);
  CHECK(row.ci_low < row.value);
  CHECK(row.ci_high > row.value);
  CHECK(row.samples == 50000);
  H5Tclose(t), H5Tclose(s64), H5Dclose(d);

  CHECK(H5Lexists(f, "/scenarios/base/reference", H5P_DEFAULT) > 0);
  const hid_t chunks = H5Dopen2(f, "/scenarios/base/chunks/tally", H5P_DEFAULT);
  REQUIRE(chunks >= 0);
  const hid_t space = H5Dget_space(chunks);
  hsize_t dims[2];
  CHECK(H5Sget_simple_extent_dims(space, dims, nullptr) == 2);
  CHECK(dims[0] == 4);  // ceil(50000 / 16384)
  const hsize_t width = r.scenarios.front().tally_layout.size();  // (count, sum, sum_sq) per output
  REQUIRE(dims[1] == width);
  std::vector<double> tally(4 * width);
  H5Dread(chunks, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, tally.data());
  CHECK(tally[0] + tally[width] + tally[2 * width] + tally[3 * width] == 50000);
  H5Sclose(space), H5Dclose(chunks);
  const hid_t timing = H5Gopen2(f, "/timing", H5P_DEFAULT);
  CHECK(H5Aexists(timing, "wall_s") > 0);
  CHECK(H5Aexists(timing, "paths_per_s") > 0);
  H5Gclose(timing);
  H5Fclose(f);

  // mcsim's own reader round-trips the table.
  const io::Results back = io::read_results(path);
  CHECK(back.scenarios.front().estimates.front().value == e.value);
  CHECK(back.scenarios.front().chunk_tallies == r.scenarios.front().chunk_tallies);

  // An existing file is not replaced without force.
  CHECK_THROWS_WITH(io::write_results(path, r, false), Catch::Contains("--force"));
  io::write_results(path, r, true);
  fs::remove_all(dir);
}

TEST_CASE("attributes past the 64 KB of an object header are written and read back", "[results]") {
  // A large book's config or a big sweep's scenario order exceeds what a compact
  // attribute holds; the file format stores them densely.
  const io::Job job = io::load_job_text(option_job("european", "call"), "test.yaml", {"run.paths=20000"});
  io::Results r = run_job(job, RunOptions{io::BackendChoice::Cpu, false, "mcsim run test.yaml"});
  r.config += "\n# " + std::string(300'000, 'x') + "\n";
  r.devices.assign(5000, "cpu (a long device name that repeats)");
  const std::string path = (temp_dir() / "large-attributes.h5").string();
  io::write_results(path, r, true);
  const io::Results back = io::read_results(path);
  CHECK(back.config == r.config);
  CHECK(back.devices == r.devices);
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  CHECK(attr_string(f, "config") == r.config);  // the plain HDF5 API reads it too
  H5Fclose(f);
  fs::remove(path);
}

TEST_CASE("what samples count, units, row names and reference tolerances round-trip", "[results]") {
  io::Results r;
  r.backend = "cpu", r.precision = "double";
  r.stage_seconds = {{"simulate", 1.0}};
  r.device_times = {{0, "cpu", 1.0, 0, 1000}};
  io::ScenarioResult s;
  s.estimates = {reduce::normal_estimate("price", 4.48, 0.01, 1000), reduce::normal_estimate("delta", -0.7, 0.01, 1000)};
  s.info = {{"paths", ""}, {"paths", "per unit of spot"}};
  s.references = {{"price", 4.4867, 0.031}, {"delta", -0.7, 0}};
  s.tables = {{"flux", {"low", "track"}, {0, 1, 1, 2}, {"cm", "per source particle"}},
              {"contributions", {"level", "var"}, {0.99, 3, 0.99, 4}, {}, {"acme", "bolt"}}};
  r.scenarios = {s};
  const fs::path dir = temp_dir();
  const std::string path = (dir / "meta.h5").string();
  io::write_results(path, r, true);
  const io::ScenarioResult back = io::read_results(path).scenarios.front();
  REQUIRE(back.info.size() == 2);
  CHECK(back.info[1].samples_of == "paths");
  CHECK(back.info[1].unit == "per unit of spot");
  CHECK(back.references[0].tolerance == 0.031);
  CHECK(back.references[1].tolerance == 0);
  CHECK(back.tables[0].units == s.tables[0].units);
  CHECK(back.tables[1].units.empty());
  CHECK(back.tables[1].row_names == s.tables[1].row_names);
  // A units list that does not match the columns is refused, naming the table.
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, "/scenarios/base/flux", H5P_DEFAULT);
  H5Adelete(d, "units");
  const hid_t str = H5Tcopy(H5T_C_S1);
  H5Tset_size(str, 3);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(d, "units", str, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, str, "cm");
  H5Aclose(a), H5Sclose(space), H5Tclose(str), H5Dclose(d), H5Fclose(f);
  CHECK_THROWS_WITH(io::read_results(path), Catch::Contains("table 'flux' has 1 units for 2 columns"));
  fs::remove_all(dir);
}
