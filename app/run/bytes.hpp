// Exact tallies travel between ranks as bytes: put() values and vectors, get()
// them back in the same order.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mcsim {

struct Bytes {
  std::string s;
  std::size_t at = 0;
  template <class T>
  void put(const T& v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }
  template <class T>
  void put(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  template <class T>
  void get(T& v) {
    std::memcpy(&v, s.data() + at, sizeof v);
    at += sizeof v;
  }
  template <class T>
  void get(std::vector<T>& v) {
    std::uint64_t n = 0;
    get(n);
    v.resize(n);
    std::memcpy(v.data(), s.data() + at, n * sizeof(T));
    at += n * sizeof(T);
  }
};

}  // namespace mcsim
