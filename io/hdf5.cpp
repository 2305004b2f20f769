#include "io/hdf5.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "io/output_files.hpp"

namespace mcsim::io::h5 {

namespace {
// HDF5 prints its whole error stack by default; mcsim says one line instead, with
// the innermost cause (called on each thread that opens or creates a file).
void silence() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

std::string cause() {
  std::string innermost;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        if (e->desc && *e->desc) *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &innermost);
  H5Eclear2(H5E_DEFAULT);
  return innermost.empty() ? std::string() : ": " + innermost;
}
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("cannot " + what + cause()); }
hid_t checked(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}
void checked(herr_t status, const char* what, const std::string& name) {
  if (status < 0) fail(std::string(what) + " '" + name + "'");
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

namespace {
// The core driver keeps a file in memory; these callbacks own that memory, so the
// bytes of the file as closed (status flags cleared, checksums final) can be taken
// when the driver lets go of them.
struct Image {
  void* buffer = nullptr;
  std::size_t size = 0;
  std::string closed;
};
H5FD_file_image_callbacks_t image_callbacks(Image* image) {
  H5FD_file_image_callbacks_t c{};
  c.image_malloc = [](std::size_t size, H5FD_file_image_op_t, void* u) -> void* {
    auto* i = static_cast<Image*>(u);
    i->size = size;
    return i->buffer = std::malloc(size);
  };
  c.image_memcpy = [](void* dest, const void* src, std::size_t size, H5FD_file_image_op_t, void*) -> void* {
    return std::memcpy(dest, src, size);
  };
  c.image_realloc = [](void* ptr, std::size_t size, H5FD_file_image_op_t, void* u) -> void* {
    auto* i = static_cast<Image*>(u);
    void* grown = std::realloc(ptr, size);
    if (grown) i->buffer = grown, i->size = size;
    return grown;
  };
  c.image_free = [](void* ptr, H5FD_file_image_op_t op, void* u) -> herr_t {
    auto* i = static_cast<Image*>(u);
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && ptr == i->buffer) {
      i->closed.assign(static_cast<const char*>(ptr), i->size);
      i->buffer = nullptr;
    }
    std::free(ptr);
    return 0;
  };
  c.udata_copy = [](void* u) -> void* { return u; };  // one Image for every copy of the list
  c.udata_free = [](void*) -> herr_t { return 0; };
  c.udata = image;
  return c;
}
}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(hid_t)>& fill, bool replace) {
  silence();
  // Built in memory (the core driver, no backing file) and written by mcsim's own
  // file code: HDF5 never opens a path on disk, so it can neither follow a link
  // nor truncate a file another run is writing.
  Image image;
  {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "make a file access list");
    checked(H5Pset_fapl_core(fapl, std::size_t{32} << 10, false), "keep the file in memory", path);
    const H5FD_file_image_callbacks_t callbacks = image_callbacks(&image);
    checked(H5Pset_file_image_callbacks(fapl, const_cast<H5FD_file_image_callbacks_t*>(&callbacks)),
            "keep the file in memory", path);
    // The 1.8 object format stores attributes densely, so one may exceed the 64 KB
    // of an object header (a long config, a sweep's scenario order); h5py reads it.
    checked(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST), "ask for the 1.8 file format", path);
    hid_t f = checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "create file '" + path + "'");
    try {
      fill(f);
    } catch (...) {
      H5Fclose(f);
      throw;
    }
    checked(H5Fclose(f), "close", path);
  }
  if (image.closed.empty()) throw std::runtime_error("cannot write '" + path + "': HDF5 gave no file image");
  // The driver's memory grows in steps; the file ends where its superblock (version
  // 2 or 3: signature, version, offset and length sizes, flags, then the base,
  // extension and end-of-file addresses) says.
  const std::string& b = image.closed;
  if (b.size() > 12 && b.compare(0, 8, "\x89HDF\r\n\x1a\n") == 0 && (b[8] == 2 || b[8] == 3) && b[9] == 8) {
    std::uint64_t eof = 0;
    if (b.size() >= 36) std::memcpy(&eof, b.data() + 28, 8);  // little-endian, as HDF5 writes it
    if (eof > 0 && eof <= b.size()) image.closed.resize(eof);
  }
  write_whole_file(path, image.closed, replace);
}
Handle open_file(const std::string& path) {
  silence();
  return Handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open '" + path + "' as HDF5");
}
void check_size(hid_t loc, std::uint64_t elements, std::uint64_t element_bytes, const std::string& name) {
  hsize_t file_bytes = 0;
  const hid_t file = H5Iget_file_id(loc);
  if (file >= 0) H5Fget_filesize(file, &file_bytes), H5Fclose(file);
  // Uncompressed data cannot be larger than its file; allow for compression.
  const long double claimed = static_cast<long double>(elements) * element_bytes;
  if (claimed > 64.0L * std::max<hsize_t>(file_bytes, 1 << 20))
    throw std::runtime_error("'" + name + "' claims " + std::to_string(elements) + " values in a file of " +
                             std::to_string(file_bytes) + " bytes: the file is damaged");
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
  const double none = 0;  // HDF5 refuses a null buffer, even for no elements
  checked(H5Awrite(a, H5T_NATIVE_DOUBLE, value.empty() ? &none : value.data()), "write attribute", name);
}

std::string read_attr_string(hid_t loc, const std::string& name) {
  const auto v = read_attr_strings(loc, name);
  return v.empty() ? std::string() : v.front();
}

std::vector<std::string> read_attr_strings(hid_t loc, const std::string& name) {
  Handle a = open_attr(loc, name);
  Handle file_type(H5Aget_type(a), H5Tclose, "read type of '" + name + "'");
  if (H5Tget_class(file_type) != H5T_STRING)
    throw std::runtime_error("attribute '" + name + "' is not a string");
  Handle space(H5Aget_space(a), H5Sclose, "read space of '" + name + "'");
  const hssize_t n = H5Sget_simple_extent_npoints(space);  // a scalar holds one; an empty list none
  if (n <= 0) return {};
  // Read in the file's own string type (its character set and padding, as h5py
  // or mcsim wrote it), so no conversion can fail or drop a character.
  Handle mem(H5Tcopy(file_type), H5Tclose, "copy the type of '" + name + "'");
  std::vector<std::string> out;
  if (H5Tis_variable_str(file_type) > 0) {
    check_size(a, static_cast<std::uint64_t>(n), sizeof(char*), name);
    std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
    checked(H5Aread(a, mem, ptrs.data()), "read attribute", name);
    for (char* p : ptrs) out.emplace_back(p ? p : "");
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
    return out;
  }
  const std::size_t width = H5Tget_size(file_type);
  check_size(a, static_cast<std::uint64_t>(n), width, name);
  std::vector<char> buf(static_cast<std::size_t>(n) * width + 1, '\0');
  checked(H5Aread(a, mem, buf.data()), "read attribute", name);
  const bool spaces = H5Tget_strpad(file_type) == H5T_STR_SPACEPAD;
  for (hssize_t i = 0; i < n; ++i) {
    const char* s = &buf[static_cast<std::size_t>(i) * width];
    std::string v(s, strnlen(s, width));
    while (spaces && !v.empty() && v.back() == ' ') v.pop_back();
    out.push_back(std::move(v));
  }
  return out;
}

namespace {
// A number attribute's id, checked to hold numbers (h5py may have written an int,
// a float or a string) and `count` of them when count > 0; the count otherwise.
Handle open_number_attr(hid_t loc, const std::string& name, hssize_t count, std::size_t* n = nullptr) {
  Handle a = open_attr(loc, name);
  Handle type(H5Aget_type(a), H5Tclose, "read type of '" + name + "'");
  const H5T_class_t c = H5Tget_class(type);
  if (c != H5T_INTEGER && c != H5T_FLOAT) throw std::runtime_error("attribute '" + name + "' is not a number");
  Handle space(H5Aget_space(a), H5Sclose, "read space of '" + name + "'");
  const hssize_t points = H5Sget_simple_extent_npoints(space);
  if (count > 0 && points != count)
    throw std::runtime_error("attribute '" + name + "' holds " + std::to_string(points) + " values, not " +
                             std::to_string(count));
  check_size(a, static_cast<std::uint64_t>(std::max<hssize_t>(points, 0)), 8, name);
  if (n) *n = static_cast<std::size_t>(std::max<hssize_t>(points, 0));
  return a;
}
}  // namespace

double read_attr_double(hid_t loc, const std::string& name) {
  Handle a = open_number_attr(loc, name, 1);
  double v = 0;
  checked(H5Aread(a, H5T_NATIVE_DOUBLE, &v), "read attribute", name);
  return v;
}
std::vector<double> read_attr_doubles(hid_t loc, const std::string& name) {
  std::size_t n = 0;
  Handle a = open_number_attr(loc, name, 0, &n);
  std::vector<double> v(n);
  if (!v.empty()) checked(H5Aread(a, H5T_NATIVE_DOUBLE, v.data()), "read attribute", name);
  return v;
}
std::uint64_t read_attr_uint(hid_t loc, const std::string& name) {
  Handle a = open_number_attr(loc, name, 1);
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
  if (rank < 1 || rank > 2) throw std::runtime_error("dataset '" + name + "' is not 1-D or 2-D");
  check_size(d, dims[0], 8 * (rank == 2 ? dims[1] : 1), name);
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
  if (H5Sget_simple_extent_ndims(space) != 1) throw std::runtime_error("dataset '" + name + "' is not 1-D");
  H5Sget_simple_extent_dims(space, dims, nullptr);
  check_size(d, dims[0], 1, name);
  std::string out(dims[0], '\0');
  if (!out.empty()) checked(H5Dread(d, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read dataset", name);
  return out;
}

}  // namespace mcsim::io::h5
