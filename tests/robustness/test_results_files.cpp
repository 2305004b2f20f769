// Results files that are not what mcsim wrote: another format or version, edited
// or damaged values, flipped bytes, strings in the forms h5py writes, absurd
// sizes. `show` either gives back exactly what was written or refuses in one line
// naming the file; it never prints wrong numbers or an HDF5 stack.
#include <catch2/catch.hpp>

#include <functional>

#include "harness.hpp"

using namespace robust;

namespace {

// Edits a copy of a good file through the HDF5 C API, as h5py would.
struct H5Edit {
  hid_t file;
  explicit H5Edit(const std::string& path) : file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)) { REQUIRE(file >= 0); }
  ~H5Edit() { H5Fclose(file); }
  hid_t group(const char* name) const { return H5Gopen2(file, name, H5P_DEFAULT); }
};

void drop(hid_t loc, const char* name) { REQUIRE(H5Adelete(loc, name) >= 0); }
void put_u64(hid_t loc, const char* name, std::uint64_t v) {
  if (H5Aexists(loc, name) > 0) drop(loc, name);
  const hid_t s = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name, H5T_STD_U64LE, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_UINT64, &v);
  H5Aclose(a), H5Sclose(s);
}
void put_i64(hid_t loc, const char* name, std::int64_t v) {  // h5py's integers
  if (H5Aexists(loc, name) > 0) drop(loc, name);
  const hid_t s = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_INT64, &v);
  H5Aclose(a), H5Sclose(s);
}
void put_double(hid_t loc, const char* name, double v) {
  if (H5Aexists(loc, name) > 0) drop(loc, name);
  const hid_t s = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
  H5Aclose(a), H5Sclose(s);
}
// Strings as h5py writes them: variable-length UTF-8 (str), or fixed-length
// null-padded (numpy bytes), or space-padded (Fortran's).
enum class Form { VariableUtf8, FixedNullPad, FixedSpacePad, FixedNullTerm };
std::string get_string(hid_t loc, const char* name) {
  const hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
  const hid_t t = H5Aget_type(a);
  std::string out;
  if (H5Tis_variable_str(t) > 0) {
    char* p = nullptr;
    H5Aread(a, t, &p);
    out = p ? p : "";
    H5free_memory(p);
  } else {
    out.assign(H5Tget_size(t), '\0');
    H5Aread(a, t, out.data());
    out = out.substr(0, out.find('\0'));
  }
  H5Tclose(t), H5Aclose(a);
  return out;
}
void put_string(hid_t loc, const char* name, const std::string& v, Form form) {
  if (H5Aexists(loc, name) > 0) drop(loc, name);
  const hid_t t = H5Tcopy(H5T_C_S1);
  const hid_t s = H5Screate(H5S_SCALAR);
  if (form == Form::VariableUtf8) {
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    const hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    const char* p = v.c_str();
    H5Awrite(a, t, &p);
    H5Aclose(a);
  } else {
    H5Tset_size(t, std::max<std::size_t>(1, v.size()));  // no room for a terminator
    H5Tset_strpad(t, form == Form::FixedNullPad ? H5T_STR_NULLPAD : form == Form::FixedSpacePad ? H5T_STR_SPACEPAD : H5T_STR_NULLTERM);
    if (form == Form::FixedNullTerm) H5Tset_size(t, v.size() + 1);
    const hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    std::string buf = v;
    buf.resize(H5Tget_size(t), '\0');
    H5Awrite(a, t, buf.data());
    H5Aclose(a);
  }
  H5Sclose(s), H5Tclose(t);
}
// Multiplies the first double of dataset `path`'s first row by `factor`.
void scale_dataset(hid_t file, const char* path, double factor) {
  const hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
  REQUIRE(d >= 0);
  const hid_t space = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  v.at(0) *= factor;
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space), H5Dclose(d);
}
// The estimates table's first value, through a one-field compound type.
void scale_estimate(hid_t file, double factor) {
  const hid_t d = H5Dopen2(file, "scenarios/base/estimates", H5P_DEFAULT);
  REQUIRE(d >= 0);
  const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(double));
  H5Tinsert(t, "value", 0, H5T_NATIVE_DOUBLE);
  const hid_t space = H5Dget_space(d);
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  v.at(0) *= factor;
  H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
  H5Sclose(space), H5Tclose(t), H5Dclose(d);
}
// Replaces dataset `name` of `group` by one that claims `rows` rows it never stored.
void huge_dataset(hid_t file, const char* group, const char* name, hid_t type) {
  const hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
  H5Ldelete(g, name, H5P_DEFAULT);
  const hsize_t dims[1] = {hsize_t{1} << 40};
  const hid_t s = H5Screate_simple(1, dims, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
  const hid_t d = H5Dcreate2(g, name, type, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  REQUIRE(d >= 0);
  H5Dclose(d), H5Pclose(dcpl), H5Sclose(s), H5Gclose(g);
}

struct FileCase {
  const char* name;
  std::function<void(const std::string& path)> damage;
  const char* refusal;  // nullptr: the file reads back exactly as written
};

hid_t estimate_row_type() {  // what the table holds, enough to claim rows of it
  const hid_t t = H5Tcreate(H5T_COMPOUND, 64 + 8);
  const hid_t s = H5Tcopy(H5T_C_S1);
  H5Tset_size(s, 64);
  H5Tinsert(t, "name", 0, s);
  H5Tinsert(t, "value", 64, H5T_NATIVE_DOUBLE);
  H5Tclose(s);
  return t;
}

}  // namespace

TEST_CASE("results files edited or damaged are refused in one line, and strings in h5py's forms read", "[robustness]") {
  const Scratch d("files");
  const std::string good = d / "good.h5";
  REQUIRE(cli("run " + quickstart() + " --backend cpu -q --set run.paths=200000 -o " + good).status == 0);
  const auto original = cli("show " + good + " --csv");
  REQUIRE(original.status == 0);

  const std::vector<FileCase> cases = {
      {"format_version 99", [](auto p) { put_u64(H5Edit(p).file, "format_version", 99); }, "format_version 99; this mcsim reads versions 1 to 3 (written by a newer mcsim?)"},
      {"format_version 0", [](auto p) { put_u64(H5Edit(p).file, "format_version", 0); }, "format_version 0"},
      {"format_version a string", [](auto p) { put_string(H5Edit(p).file, "format_version", "2", Form::VariableUtf8); }, "attribute 'format_version' is not a number"},
      {"format_version an array", [](auto p) {
         const H5Edit e(p);
         drop(e.file, "format_version");
         const hsize_t n[1] = {3};
         const hid_t s = H5Screate_simple(1, n, nullptr);
         const std::uint64_t v[3] = {2, 2, 2};
         const hid_t a = H5Acreate2(e.file, "format_version", H5T_STD_U64LE, s, H5P_DEFAULT, H5P_DEFAULT);
         H5Awrite(a, H5T_NATIVE_UINT64, v), H5Aclose(a), H5Sclose(s);
       }, "holds 3 values, not 1"},
      {"no format_version", [](auto p) { drop(H5Edit(p).file, "format_version"); }, "no format_version"},
      {"no format", [](auto p) { drop(H5Edit(p).file, "format"); }, "not an mcsim results file"},
      {"another format", [](auto p) { put_string(H5Edit(p).file, "format", "mcsim-checkpoint", Form::FixedNullTerm); }, "not an mcsim results file"},
      {"no content_checksum", [](auto p) { drop(H5Edit(p).file, "content_checksum"); }, "content_checksum is missing"},
      {"a wrong content_checksum", [](auto p) { put_u64(H5Edit(p).file, "content_checksum", 12345); }, "damaged"},
      {"the price doubled", [](auto p) { scale_estimate(H5Edit(p).file, 2); }, "damaged"},
      {"the price a NaN", [](auto p) { scale_estimate(H5Edit(p).file, std::nan("")); }, "damaged"},
      {"a chunk tally scaled", [](auto p) { scale_dataset(H5Edit(p).file, "scenarios/base/chunks/tally", 1.5); }, "damaged"},
      {"the seed changed", [](auto p) { put_u64(H5Edit(p).file, "seed", 43); }, "damaged"},
      {"the paths changed", [](auto p) { put_u64(H5Edit(p).file, "paths", 400000); }, "damaged"},
      {"the config edited", [](auto p) { const H5Edit e(p); put_string(e.file, "config", get_string(e.file, "config") + " ", Form::VariableUtf8); }, "damaged"},
      {"the wall time edited", [](auto p) {
         const H5Edit e(p);
         const hid_t g = e.group("timing");
         put_double(g, "wall_s", 1e9);
         H5Gclose(g);  // an open group keeps the file open, and locked
       }, "damaged"},
      {"the seed as h5py's int64", [](auto p) { put_i64(H5Edit(p).file, "seed", 42); }, nullptr},
      {"the paths a string", [](auto p) { put_string(H5Edit(p).file, "paths", "200000", Form::VariableUtf8); }, "attribute 'paths' is not a number"},
      {"no scenarios group", [](auto p) { H5Ldelete(H5Edit(p).file, "scenarios", H5P_DEFAULT); }, "cannot open group 'scenarios'"},
      {"no estimates table", [](auto p) { H5Ldelete(H5Edit(p).file, "scenarios/base/estimates", H5P_DEFAULT); }, "cannot open table 'estimates'"},
      {"no timing group", [](auto p) { H5Ldelete(H5Edit(p).file, "timing", H5P_DEFAULT); }, "cannot open group 'timing'"},
      {"an estimates table of 2^40 rows", [](auto p) { const H5Edit e(p); const hid_t t = estimate_row_type(); huge_dataset(e.file, "scenarios/base", "estimates", t); H5Tclose(t); }, "claims 1099511627776 values"},
      {"a chunk table of 2^40 rows", [](auto p) { huge_dataset(H5Edit(p).file, "scenarios/base/chunks", "tally", H5T_NATIVE_DOUBLE); }, "claims 1099511627776 values"},
      {"version 1 without a checksum", [](auto p) { const H5Edit e(p); put_u64(e.file, "format_version", 1); drop(e.file, "content_checksum"); }, nullptr},
  };
  // Every string attribute mcsim reads, rewritten in each form h5py may use.
  const char* strings[] = {"mcsim_version", "git_sha", "created", "command_line", "config", "backend", "precision", "format"};
  std::vector<FileCase> forms;
  for (const Form form : {Form::VariableUtf8, Form::FixedNullPad, Form::FixedSpacePad})
    forms.push_back({form == Form::VariableUtf8 ? "strings as variable-length UTF-8" : form == Form::FixedNullPad ? "strings as null-padded bytes" : "strings as space-padded bytes",
                     [form, &strings](auto p) {
                       const H5Edit e(p);
                       for (const char* name : strings) put_string(e.file, name, get_string(e.file, name), form);
                     },
                     nullptr});
  std::vector<FileCase> all = cases;
  all.insert(all.end(), forms.begin(), forms.end());
  for (const FileCase& c : all) {
    DYNAMIC_SECTION(c.name) {
      const std::string path = d / "case.h5";
      fs::copy_file(good, path, fs::copy_options::overwrite_existing);
      c.damage(path);
      const auto r = cli("show " + path + " --csv");
      INFO(r.output);
      if (!c.refusal) {
        CHECK(r.status == 0);
        CHECK(r.output == original.output);
      } else {
        CHECK(r.status == 1);
        CHECK(one_error_line(r));
        CHECK(has(r, "mcsim: error: '" + path + "': "));
        CHECK(has(r, c.refusal));
        const auto diff = cli("diff " + good + " " + path);
        CHECK(diff.status == 1);  // an error, not "differs"
      }
    }
  }
}

TEST_CASE("flipped bytes anywhere in a results file are refused or change nothing", "[robustness]") {
  const Scratch d("flips");
  const std::string good = d / "good.h5";
  REQUIRE(cli("run " + quickstart() + " --backend cpu -q --set run.paths=200000 -o " + good).status == 0);
  const auto original = cli("show " + good + " --csv");
  const std::string bytes = read_file(good);
  int refused = 0, unchanged = 0;
  // 64 places spread over the file, each flipped alone.
  for (std::size_t k = 0; k < 64; ++k) {
    const std::size_t at = (k * bytes.size()) / 64 + (k * 37) % 61;
    std::string damaged = bytes;
    damaged[at % damaged.size()] ^= 0x5a;
    write_file(d / "case.h5", damaged);
    const auto r = cli("show " + d / "case.h5" + " --csv");
    INFO("byte " << at % damaged.size() << ": " << r.output);
    if (r.status == 0) {
      CHECK(r.output == original.output);  // a byte no reader uses
      ++unchanged;
    } else {
      CHECK(r.status == 1);
      CHECK(one_error_line(r));
      ++refused;
    }
  }
  CHECK(refused + unchanged == 64);
  CHECK(refused > 0);
}

TEST_CASE("files that are not HDF5 are refused in one line naming them", "[robustness]") {
  const Scratch d("nonh5");
  const std::string good = d / "good.h5";
  REQUIRE(cli("run " + quickstart() + " --backend cpu -q --set run.paths=100000 -o " + good).status == 0);
  const std::string bytes = read_file(good);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", ""},
      {"text", "price,10.45\n"},
      {"half a file", bytes.substr(0, bytes.size() / 2)},
      {"the header only", bytes.substr(0, 64)},
      {"all but the last byte", bytes.substr(0, bytes.size() - 1)},
      {"a YAML job", read_file(quickstart())},
  };
  for (const auto& [name, content] : cases) {
    DYNAMIC_SECTION(name) {
      write_file(d / "case.h5", content);
      const auto r = cli("show " + d / "case.h5");
      INFO(r.output);
      CHECK(r.status == 1);
      CHECK(one_error_line(r));
      CHECK(has(r, "'" + d / "case.h5" + "'"));
    }
  }
}
