// A small typed layer over the HDF5 C API: owned handles, attributes and datasets
// by value, and an error (with the file name) instead of a negative id.
#pragma once
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcsim::io::h5 {

// Owns an HDF5 id and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what);
  ~Handle();
  Handle(Handle&& o) noexcept;
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t id() const { return id_; }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// Lets `fill` write a new file, built in memory, and puts it at PATH whole or not at
// all (io/output_files.hpp: a unique temp beside it, renamed; with replace an
// existing PATH is replaced, else kept).
void write_file_atomically(const std::string& path, const std::function<void(hid_t)>& fill, bool replace);
Handle open_file(const std::string& path);
// Refuses to allocate for `elements` values of `element_bytes` that a file of its
// size cannot hold (a damaged dimension): throws naming `name`.
void check_size(hid_t loc, std::uint64_t elements, std::uint64_t element_bytes, const std::string& name);
Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);
bool exists(hid_t parent, const std::string& name);
bool exists_attr(hid_t loc, const std::string& name);
std::vector<std::string> children(hid_t group);

void write_attr(hid_t loc, const std::string& name, const std::string& value);
void write_attr(hid_t loc, const std::string& name, double value);
void write_attr(hid_t loc, const std::string& name, std::uint64_t value);
void write_attr(hid_t loc, const std::string& name, const std::vector<std::string>& value);
void write_attr(hid_t loc, const std::string& name, const std::vector<double>& value);
std::string read_attr_string(hid_t loc, const std::string& name);
double read_attr_double(hid_t loc, const std::string& name);
std::uint64_t read_attr_uint(hid_t loc, const std::string& name);
std::vector<double> read_attr_doubles(hid_t loc, const std::string& name);
std::vector<std::string> read_attr_strings(hid_t loc, const std::string& name);
std::vector<std::string> attr_names(hid_t loc);

// A rows x cols array of doubles (cols = 0 for a vector).
void write_dataset(hid_t group, const std::string& name, const std::vector<double>& data,
                   std::size_t rows, std::size_t cols);
std::vector<double> read_dataset(hid_t group, const std::string& name, std::size_t* rows,
                                 std::size_t* cols);

// Bytes as a 1-D dataset of unsigned chars (a packed partial).
void write_bytes(hid_t group, const std::string& name, const std::string& bytes);
std::string read_bytes(hid_t group, const std::string& name);

// Reads with `read(path)`; any error, an allocation a damaged size asked for among
// them, becomes one message starting with `name` (how the file is named to users).
template <class Read>
auto read_named(const std::string& name, const std::string& path, Read read) -> decltype(read(path)) {
  try {
    return read(path);
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(name + ": out of memory while reading it (a damaged size?)");
  } catch (const std::exception& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
}

// Fixed-length strings of this many bytes in compound tables.
constexpr std::size_t kNameBytes = 64;

}  // namespace mcsim::io::h5
