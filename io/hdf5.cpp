#include "io/hdf5.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace mcsim::io::h5 {

namespace {
hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) throw std::runtime_error("HDF5: cannot " + what);
  return id;
}
void checked(herr_t status, const char* what, const std::string& name) {
  if (status < 0) throw std::runtime_error(std::string("HDF5: cannot ") + what + " '" + name + "'");
}
Handle string_type(std::size_t bytes) {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "make a string type");
  H5Tset_size(t, bytes);
  H5Tset_strpad(t, H5T_STR_NULLTERM);
  return t;
}
Handle scalar_space() { return Handle(H5Screate(H5S_SCALAR), H5Sclose, "make a dataspace"); }
Handle vector_space(std::size_t n) {
  const hsize_t dims[1] = {n};
  return Handle(H5Screate_simple(1, dims, nullptr), H5Sclose, "make a dataspace");
}
Handle fresh_attr(hid_t loc, const std::string& name, hid_t type, hid_t space) {
  if (H5Aexists(loc, name.c_str()) > 0) H5Adelete(loc, name.c_str());
  return Handle(H5Acreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                "create attribute '" + name + "'");
}
Handle open_attr(hid_t loc, const std::string& name) {
  return Handle(H5Aopen(loc, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute '" + name + "'");
}
}  // namespace

Handle::Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what)
    : id_(checked(id, what)), close_(close) {}
Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}
Handle::Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && close_) close_(id_);
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

Handle create_file(const std::string& path) {
  // The 1.8 object format stores attributes densely, so one may exceed the 64 KB
  // of an object header (a long config, a sweep's scenario order); h5py reads it.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access list");
  if (H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0)
    throw std::runtime_error("HDF5: cannot ask for the 1.8 file format for '" + path + "'");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "create file '" + path + "'");
}
void write_file_atomically(const std::string& path, const std::function<void(hid_t)>& fill) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  const std::string tmp = path + ".tmp";
  try {
    Handle f = create_file(tmp);
    fill(f);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::filesystem::rename(tmp, path);
}
Handle open_file(const std::string& path) {
  return Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                "open file '" + path + "' (is it an HDF5 file?)");
}
Handle create_group(hid_t parent, const std::string& name) {
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
                "create group '" + name + "'");
}
Handle open_group(hid_t parent, const std::string& name) {
  return Handle(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose, "open group '" + name + "'");
}
bool exists(hid_t parent, const std::string& name) {
  return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

bool exists_attr(hid_t loc, const std::string& name) { return H5Aexists(loc, name.c_str()) > 0; }

std::vector<std::string> children(hid_t group) {
  std::vector<std::string> out;
  H5Literate(
      group, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &out);
  return out;
}

void write_attr(hid_t loc, const std::string& name, const std::string& value) {
  Handle type = string_type(value.size() + 1);
  Handle space = scalar_space();
  Handle a = fresh_attr(loc, name, type, space);
  checked(H5Awrite(a, type, value.c_str()), "write attribute", name);
}
void write_attr(hid_t loc, const std::string& name, double value) {
  Handle space = scalar_space();
  Handle a = fresh_attr(loc, name, H5T_NATIVE_DOUBLE, space);
  checked(H5Awrite(a, H5T_NATIVE_DOUBLE, &value), "write attribute", name);
}
void write_attr(hid_t loc, const std::string& name, std::uint64_t value) {
  Handle space = scalar_space();
  Handle a = fresh_attr(loc, name, H5T_NATIVE_UINT64, space);
  checked(H5Awrite(a, H5T_NATIVE_UINT64, &value), "write attribute", name);
}
void write_attr(hid_t loc, const std::string& name, const std::vector<std::string>& value) {
  std::size_t width = 1;
  for (const auto& s : value) width = std::max(width, s.size() + 1);
  std::vector<char> buf(std::max<std::size_t>(1, value.size()) * width, '\0');
  for (std::size_t i = 0; i < value.size(); ++i) value[i].copy(&buf[i * width], value[i].size());
  Handle type = string_type(width);
  Handle space = vector_space(value.size());
  Handle a = fresh_attr(loc, name, type, space);
  checked(H5Awrite(a, type, buf.data()), "write attribute", name);
}
void write_attr(hid_t loc, const std::string& name, const std::vector<double>& value) {
  Handle space = vector_space(value.size());
  Handle a = fresh_attr(loc, name, H5T_NATIVE_DOUBLE, space);
  checked(H5Awrite(a, H5T_NATIVE_DOUBLE, value.data()), "write attribute", name);
}

std::string read_attr_string(hid_t loc, const std::string& name) {
  const auto v = read_attr_strings(loc, name);
  return v.empty() ? std::string() : v.front();
}

std::vector<std::string> read_attr_strings(hid_t loc, const std::string& name) {
  Handle a = open_attr(loc, name);
  Handle file_type(H5Aget_type(a), H5Tclose, "read type of '" + name + "'");
  if (H5Tget_class(file_type) != H5T_STRING)
    throw std::runtime_error("HDF5: attribute '" + name + "' is not a string");
  Handle space(H5Aget_space(a), H5Sclose, "read space of '" + name + "'");
  const hssize_t n = std::max<hssize_t>(1, H5Sget_simple_extent_npoints(space));
  std::vector<std::string> out;
  if (H5Tis_variable_str(file_type) > 0) {
    std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
    Handle mem = string_type(H5T_VARIABLE);
    checked(H5Aread(a, mem, ptrs.data()), "read attribute", name);
    for (char* p : ptrs) out.emplace_back(p ? p : "");
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
    return out;
  }
  const std::size_t width = H5Tget_size(file_type);
  std::vector<char> buf(static_cast<std::size_t>(n) * width + 1, '\0');
  Handle mem = string_type(width);
  checked(H5Aread(a, mem, buf.data()), "read attribute", name);
  for (hssize_t i = 0; i < n; ++i) {
    const char* s = &buf[static_cast<std::size_t>(i) * width];
    out.emplace_back(s, strnlen(s, width));
  }
  return out;
}

double read_attr_double(hid_t loc, const std::string& name) {
  Handle a = open_attr(loc, name);
  double v = 0;
  checked(H5Aread(a, H5T_NATIVE_DOUBLE, &v), "read attribute", name);
  return v;
}
std::vector<double> read_attr_doubles(hid_t loc, const std::string& name) {
  Handle a = open_attr(loc, name);
  Handle space(H5Aget_space(a), H5Sclose, "read space of attribute '" + name + "'");
  std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  if (!v.empty()) checked(H5Aread(a, H5T_NATIVE_DOUBLE, v.data()), "read attribute", name);
  return v;
}
std::uint64_t read_attr_uint(hid_t loc, const std::string& name) {
  Handle a = open_attr(loc, name);
  std::uint64_t v = 0;
  checked(H5Aread(a, H5T_NATIVE_UINT64, &v), "read attribute", name);
  return v;
}

std::vector<std::string> attr_names(hid_t loc) {
  std::vector<std::string> out;
  H5Aiterate2(
      loc, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &out);
  return out;
}

void write_dataset(hid_t group, const std::string& name, const std::vector<double>& data,
                   std::size_t rows, std::size_t cols) {
  const hsize_t dims[2] = {rows, cols};
  Handle space(H5Screate_simple(cols ? 2 : 1, dims, nullptr), H5Sclose, "make a dataspace");
  Handle d(H5Dcreate2(group, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                      H5P_DEFAULT),
           H5Dclose, "create dataset '" + name + "'");
  if (!data.empty()) checked(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "write dataset", name);
}

std::vector<double> read_dataset(hid_t group, const std::string& name, std::size_t* rows,
                                 std::size_t* cols) {
  Handle d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset '" + name + "'");
  Handle space(H5Dget_space(d), H5Sclose, "read space of '" + name + "'");
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
  if (rank < 1 || rank > 2) throw std::runtime_error("HDF5: dataset '" + name + "' is not 1-D or 2-D");
  if (rows) *rows = dims[0];
  if (cols) *cols = rank == 2 ? dims[1] : 0;
  std::vector<double> out(dims[0] * (rank == 2 ? dims[1] : 1));
  if (!out.empty()) checked(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read dataset", name);
  return out;
}

void write_bytes(hid_t group, const std::string& name, const std::string& bytes) {
  const hsize_t dims[1] = {bytes.size()};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "make a dataspace");
  Handle d(H5Dcreate2(group, name.c_str(), H5T_NATIVE_UCHAR, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
           "create dataset '" + name + "'");
  if (!bytes.empty()) checked(H5Dwrite(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), "write dataset", name);
}

std::string read_bytes(hid_t group, const std::string& name) {
  Handle d(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset '" + name + "'");
  Handle space(H5Dget_space(d), H5Sclose, "read space of '" + name + "'");
  hsize_t dims[1] = {0};
  if (H5Sget_simple_extent_ndims(space) != 1) throw std::runtime_error("HDF5: dataset '" + name + "' is not 1-D");
  H5Sget_simple_extent_dims(space, dims, nullptr);
  std::string out(dims[0], '\0');
  if (!out.empty()) checked(H5Dread(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read dataset", name);
  return out;
}

}  // namespace mcsim::io::h5
