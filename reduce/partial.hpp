// A partial: what some units of a job's work add up to, packed as one record that
// MPI messages and checkpoints carry alike. It starts with its layout's name and
// version; then come its fields in order, each vector after its length. A reader
// names the layout it expects and gets every field back in the same order; a
// layout or version it does not know, a length past the bytes left, or bytes left
// over are errors that say where the record came from. Fields are trivially
// copyable values (numbers, fixed-point sums, plain structs of them) or vectors of
// them, in this machine's byte order: checkpoints resume on the machines that wrote
// them.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mcsim::reduce {

struct PartialLayout {
  const char* name;  // e.g. "option.chunks"
  std::uint32_t version;
};

class Packer {
 public:
  explicit Packer(PartialLayout layout) {
    put(std::string(layout.name));
    put(layout.version);
  }
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>, "a partial holds plain values");
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>, "a partial holds plain values");
    put<std::uint64_t>(v.size());
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void put(const std::string& s) {
    put<std::uint64_t>(s.size());
    bytes_ += s;
  }
  // The packed record; the packer is empty afterwards.
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Unpacker {
 public:
  // `where` names the record's source for errors (a rank, a checkpoint file).
  Unpacker(const std::string& bytes, PartialLayout layout, std::string where)
      : bytes_(bytes), where_(std::move(where)) {
    std::string name;
    std::uint32_t version = 0;
    get(name);
    get(version);
    if (name != layout.name || version != layout.version)
      fail("holds a partial of layout '" + name + "' version " + std::to_string(version) + ", not '" + layout.name +
           "' version " + std::to_string(layout.version));
  }
  template <class T>
  void get(T& v) {
    static_assert(std::is_trivially_copyable_v<T>, "a partial holds plain values");
    need(sizeof v);
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
  }
  template <class T>
  void get(std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>, "a partial holds plain values");
    std::uint64_t n = 0;
    get(n);
    if (n > (bytes_.size() - at_) / sizeof(T)) fail("is cut short (a vector longer than the bytes left)");
    v.resize(n);
    if (n) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
  }
  void get(std::string& s) {
    std::uint64_t n = 0;
    get(n);
    need(n);
    s.assign(bytes_.data() + at_, n);
    at_ += n;
  }
  // Call after the last field: bytes left over mean a different layout.
  void finish() const {
    if (at_ != bytes_.size()) fail("has " + std::to_string(bytes_.size() - at_) + " bytes past its last field");
  }

 private:
  void need(std::uint64_t n) const {
    if (n > bytes_.size() - at_) fail("is cut short");
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("the partial from " + where_ + " " + what);
  }
  const std::string& bytes_;
  std::string where_;
  std::size_t at_ = 0;
};

// FNV-1a, 64 bits: what a checkpoint stores beside its partial, so a damaged file
// is refused instead of resumed.
inline std::uint64_t checksum(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace mcsim::reduce
