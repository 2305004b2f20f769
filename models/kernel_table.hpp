// Data a path kernel reads from memory rather than from its parameters (per-step
// term structures, a local-volatility grid): too large for a CUDA launch's
// parameter space. The model owns the values in both precisions; a kernel holds a
// view, and a GPU executor copies the values to its device once per id and runs
// the kernel on a view of that copy (for_each_table).
#pragma once
#include <cstdint>
#include <vector>

#include "rng/hd.hpp"

namespace mcsim {

// A fresh id for a kernel's data, so a device copy of an earlier job's data is
// never taken for this one's.
std::uint64_t new_kernel_id();

template <class Real>
struct KernelTable {
  const Real* data = nullptr;
  std::uint64_t size = 0;  // values
  std::uint64_t id = 0;
  MCSIM_HD Real operator[](std::uint64_t i) const { return data[i]; }
};

// A table's values, rounded once to each precision.
class TableData {
 public:
  TableData() = default;
  explicit TableData(const std::vector<double>& values)
      : d_(values), f_(values.begin(), values.end()), id_(new_kernel_id()) {}
  template <class Real>
  KernelTable<Real> view() const {
    if constexpr (sizeof(Real) == 4) return {f_.data(), f_.size(), id_};
    else return {d_.data(), d_.size(), id_};
  }
  bool empty() const { return d_.empty(); }

 private:
  std::vector<double> d_;
  std::vector<float> f_;
  std::uint64_t id_ = 0;
};

}  // namespace mcsim
