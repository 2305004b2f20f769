// Portfolio risk on one GPU. Losses and position sums may be called from two host
// threads at once (the next unit's losses beside this unit's sums): they use
// separate buffers, and this file is built with per-thread default streams.
// Losses: one thread a scenario, its independent
// normals in a column of shared memory (or of a global scratch when the assets are
// too many), the same scenario_loss as the CPU. Position sums: the listed
// scenarios' log spots first, then a table of each unit's loss in each scenario
// (positions revalued once, groups as their members' sums), then one thread per
// unit and segment of the list adding exact fixed-point terms, and the segments'
// sums added last: integer adds, so the sums do not depend on the launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/risk/executor.hpp"
#include "models/var/risk_kernel.hpp"

namespace mcsim {

// The GPU's copy of the portfolio (uploaded once per job) and the buffers of the
// scenario kernels. Losses and sums may run at once from two host threads, each on
// its own stream (--default-stream=per-thread), with buffers of their own.
class CudaRiskExecutor : public RiskExecutor {
 public:
  explicit CudaRiskExecutor(Device& device) : dev_(device), device_(device.ordinal()) {}

  void scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out) override {
    TimedCall call(dev_, count);
    call.kernel_ms = losses(k, first, count, out);
  }
  void position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                     const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums) override {
    TimedCall call(dev_, 0);
    call.kernel_ms = sums_of(k, scenarios, masks, bands, sums);
  }

 private:
  // The kernels' milliseconds.
  float losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out);
  float sums_of(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums);
  void upload(const var::RiskKernel& k);

  Device& dev_;
  int device_;
  std::uint64_t uploaded_ = 0;  // the kernel id the portfolio copy belongs to
  std::mutex upload_mutex_;
  DeviceBuffer reals_, ints_;                              // the portfolio
  DeviceBuffer out_, scratch_;                             // losses
  DeviceBuffer list_, list_scratch_, log_spots_, table_, partial_;  // position sums
};

namespace {

using reduce::Fixed;

const auto check = check_cuda;

constexpr std::size_t kSharedBytes = 100 << 10;  // shared memory a block of the loss kernel may take
constexpr std::uint64_t kListBatch = 16384;      // listed scenarios whose log spots are held at once
constexpr std::size_t kTableBytes = 512 << 20;   // the unit-loss table's room: fewer scenarios a batch for big books
constexpr int kSegment = 256;                    // listed scenarios a position-sum thread adds
constexpr int kMaxBands = 32;                    // bands a mask can name

template <class Real>
__global__ void losses_kernel(const var::PortfolioView<Real> pf, std::uint64_t seed, std::uint64_t first,
                              std::uint64_t count, double* out, Real* scratch, bool shared) {
  extern __shared__ __align__(16) unsigned char smem[];
  const unsigned threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  Real* eps = shared ? reinterpret_cast<Real*>(smem) + threadIdx.x : scratch + t;
  const int stride = shared ? static_cast<int>(blockDim.x) : static_cast<int>(threads);
  for (std::uint64_t i = t; i < count; i += threads) {
    rng::Stream stream(seed, first + i);
    out[i] = static_cast<double>(var::scenario_loss(pf, stream, eps, stride));
  }
}

// log_spots[i * m + s]: asset i's log spot in listed scenario s.
template <class Real>
__global__ void log_spots_kernel(const var::PortfolioView<Real> pf, std::uint64_t seed, const std::uint64_t* list,
                                 int m, Real* scratch, Real* log_spots) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= m) return;
  rng::Stream stream(seed, list[s]);
  Real* eps = scratch + s;
  const Real scale = var::draw_shocks(pf, stream, eps, m);
  const Real* row = pf.cholesky;
  for (int i = 0; i < pf.assets; ++i) {
    log_spots[static_cast<std::size_t>(i) * m + s] = var::log_spot_at(pf, i, row, eps, m, scale);
    row += i + 1;
  }
}

// table[u * m + s]: unit u's loss in listed scenario s. Positions first, one thread
// each (position, scenario), so each position is revalued once a scenario...
template <class Real>
__global__ void position_losses_kernel(const var::PortfolioView<Real> pf, const Real* log_spots, int m, double* table) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<std::size_t>(pf.positions) * m) return;
  const int p = static_cast<int>(i / m), s = static_cast<int>(i % m);
  table[i] = var::position_loss_at(pf, p, log_spots[static_cast<std::size_t>(pf.asset_of[p]) * m + s]);
}

// ... then the groups, one thread each (group, scenario) adding its members' rows.
template <class Real>
__global__ void group_losses_kernel(const var::PortfolioView<Real> pf, int m, double* table) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<std::size_t>(pf.units - pf.positions) * m) return;
  const int u = pf.positions + static_cast<int>(i / m), s = static_cast<int>(i % m);
  table[static_cast<std::size_t>(u) * m + s] =
      var::unit_loss(pf, u, [&](int p) { return table[static_cast<std::size_t>(p) * m + s]; });
}

// partial[(segment * 2 bands + 2 b + w) * U + u]: unit u's losses (w = 0) or
// their squares (w = 1) over the segment's scenarios in band b (U units: each
// position, then each group), from the table; a scenario adds to every band of
// its mask.
__global__ void unit_partials_kernel(const double* table, int units, const std::uint32_t* masks, int m, int bands,
                                     reduce::FixedUnit unit, reduce::FixedUnit square_unit, Fixed* partial) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= units) return;
  const int begin = blockIdx.y * kSegment, end = min(m, begin + kSegment);
  Fixed acc[2 * kMaxBands];
  for (int b = 0; b < 2 * bands; ++b) acc[b] = 0;
  const double* row = table + static_cast<std::size_t>(u) * m;
  for (int s = begin; s < end; ++s) {
    const std::uint32_t mask = masks[s];
    if (!mask) continue;
    const double l = row[s];
    const Fixed f = unit.to_fixed(l), f2 = square_unit.to_fixed(l * l);
    for (int b = 0; b < bands; ++b)
      if (mask >> b & 1u) acc[2 * b] += f, acc[2 * b + 1] += f2;
  }
  const std::size_t U = static_cast<std::size_t>(units);
  Fixed* out = partial + static_cast<std::size_t>(blockIdx.y) * 2 * bands * U + u;
  for (int b = 0; b < 2 * bands; ++b) out[b * U] = acc[b];
}

__global__ void add_segments_kernel(const Fixed* partial, int segments, std::size_t width, Fixed* out) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= width) return;
  Fixed total = 0;
  for (int g = 0; g < segments; ++g) total += partial[g * width + j];
  out[j] = total;
}

template <class Real>
const var::PortfolioArrays<Real>& arrays_of(const var::RiskKernel& k);
template <>
const var::PortfolioArrays<float>& arrays_of<float>(const var::RiskKernel& k) { return k.in_float; }
template <>
const var::PortfolioArrays<double>& arrays_of<double>(const var::RiskKernel& k) { return k.in_double; }

template <class Real>
var::PortfolioView<Real> device_view(const var::RiskKernel& k, void* reals, void* ints) {
  return arrays_of<Real>(k).view(static_cast<const Real*>(reals), static_cast<const int*>(ints));
}

}  // namespace

void CudaRiskExecutor::upload(const var::RiskKernel& k) {
  std::lock_guard<std::mutex> lock(upload_mutex_);
  if (uploaded_ == k.id) return;
  const auto copy = [&](DeviceBuffer& b, const void* data, std::size_t bytes) {
    check(cudaMemcpy(b.room(bytes, device_), data, bytes, cudaMemcpyHostToDevice), device_, "portfolio upload");
  };
  if (k.precision == Precision::Float) {
    copy(reals_, k.in_float.reals.data(), k.in_float.reals.size() * sizeof(float));
    copy(ints_, k.in_float.ints.data(), k.in_float.ints.size() * sizeof(int));
  } else {
    copy(reals_, k.in_double.reals.data(), k.in_double.reals.size() * sizeof(double));
    copy(ints_, k.in_double.ints.data(), k.in_double.ints.size() * sizeof(int));
  }
  uploaded_ = k.id;
}

namespace {

template <class Real>
void launch_losses(int device, const var::PortfolioView<Real>& pf, std::uint64_t seed, std::uint64_t first,
                   std::uint64_t count, double* out, const std::function<Real*(std::size_t)>& scratch) {
  // The widest block whose normals fit in shared memory, else a global scratch.
  const std::size_t per_thread = static_cast<std::size_t>(pf.assets) * sizeof(Real);
  int block = 256;
  while (block > 32 && block * per_thread > kSharedBytes) block /= 2;
  const bool shared = block * per_thread <= kSharedBytes;
  if (!shared) block = 128;
  const std::size_t smem = shared ? block * per_thread : 0;
  check(cudaFuncSetAttribute(losses_kernel<Real>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
        device, "kernel setup");
  int sms = 0, per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), device, "device query");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, losses_kernel<Real>, block, smem), device, "occupancy");
  const std::uint64_t needed = (count + block - 1) / block;
  const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>(needed, static_cast<std::uint64_t>(sms) * std::max(per_sm, 1)));
  Real* global = shared ? nullptr : scratch(static_cast<std::size_t>(grid) * block * pf.assets * sizeof(Real));
  losses_kernel<Real><<<grid, block, smem>>>(pf, seed, first, count, out, global, shared);
  check(cudaGetLastError(), device, "launch of the loss kernel");
}

template <class Real>
void launch_position_sums(int device, const var::PortfolioView<Real>& pf, std::uint64_t seed, const std::uint64_t* list,
                          const std::uint32_t* masks, int m, int bands, const reduce::FixedUnit& unit,
                          const reduce::FixedUnit& square_unit, Real* scratch, Real* log_spots, double* table,
                          Fixed* partial, Fixed* out) {
  log_spots_kernel<Real><<<(m + 127) / 128, 128>>>(pf, seed, list, m, scratch, log_spots);
  check(cudaGetLastError(), device, "launch of the log-spot kernel");
  const auto blocks = [](std::size_t threads) { return static_cast<unsigned>((threads + 255) / 256); };
  position_losses_kernel<Real><<<blocks(static_cast<std::size_t>(pf.positions) * m), 256>>>(pf, log_spots, m, table);
  check(cudaGetLastError(), device, "launch of the position-loss kernel");
  if (pf.units > pf.positions) {
    group_losses_kernel<Real><<<blocks(static_cast<std::size_t>(pf.units - pf.positions) * m), 256>>>(pf, m, table);
    check(cudaGetLastError(), device, "launch of the group-loss kernel");
  }
  const int segments = (m + kSegment - 1) / kSegment;
  const dim3 grid((pf.units + 127) / 128, segments);
  unit_partials_kernel<<<grid, 128>>>(table, pf.units, masks, m, bands, unit, square_unit, partial);
  check(cudaGetLastError(), device, "launch of the position-sum kernel");
  const std::size_t width = 2 * static_cast<std::size_t>(bands) * pf.units;
  add_segments_kernel<<<blocks(width), 256>>>(partial, segments, width, out);
  check(cudaGetLastError(), device, "launch of the segment sums");
}

}  // namespace

float CudaRiskExecutor::losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out) {
  check(cudaSetDevice(device_), device_, "device selection");
  upload(k);
  double* d_out = static_cast<double*>(out_.room(count * sizeof(double), device_));
  EventTimer timer(device_);
  if (k.precision == Precision::Float)
    launch_losses<float>(device_, device_view<float>(k, reals_.get(), ints_.get()), k.seed, first, count, d_out,
                         [&](std::size_t bytes) { return static_cast<float*>(scratch_.room(bytes, device_)); });
  else
    launch_losses<double>(device_, device_view<double>(k, reals_.get(), ints_.get()), k.seed, first, count, d_out,
                          [&](std::size_t bytes) { return static_cast<double*>(scratch_.room(bytes, device_)); });
  const float ms = timer.ms("risk kernels");
  check(cudaMemcpy(out, d_out, count * sizeof(double), cudaMemcpyDeviceToHost), device_, "copy of losses");
  return ms;
}

float CudaRiskExecutor::sums_of(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                                const std::vector<std::uint32_t>& masks, int bands, Fixed* sums) {
  check(cudaSetDevice(device_), device_, "device selection");
  upload(k);
  const std::size_t width = 2 * static_cast<std::size_t>(bands) * k.units();
  const std::size_t real = k.precision == Precision::Float ? sizeof(float) : sizeof(double);
  std::vector<Fixed> part(width);
  // Scenarios a batch: as many as the unit-loss table has room for.
  const std::size_t batch =
      std::clamp<std::size_t>(kTableBytes / (static_cast<std::size_t>(k.units()) * sizeof(double)), 1, kListBatch);
  float ms = 0;
  for (std::size_t at = 0; at < scenarios.size(); at += batch) {
    const int m = static_cast<int>(std::min<std::size_t>(batch, scenarios.size() - at));
    auto* list = static_cast<unsigned char*>(list_.room(m * (sizeof(std::uint64_t) + sizeof(std::uint32_t)), device_));
    auto* d_list = reinterpret_cast<std::uint64_t*>(list);
    auto* d_masks = reinterpret_cast<std::uint32_t*>(list + m * sizeof(std::uint64_t));
    check(cudaMemcpy(d_list, scenarios.data() + at, m * sizeof(std::uint64_t), cudaMemcpyHostToDevice), device_, "list upload");
    check(cudaMemcpy(d_masks, masks.data() + at, m * sizeof(std::uint32_t), cudaMemcpyHostToDevice), device_, "list upload");
    void* scratch = list_scratch_.room(static_cast<std::size_t>(m) * k.assets() * real, device_);
    void* log_spots = log_spots_.room(static_cast<std::size_t>(m) * k.assets() * real, device_);
    auto* table = static_cast<double*>(table_.room(static_cast<std::size_t>(m) * k.units() * sizeof(double), device_));
    const int segments = (m + kSegment - 1) / kSegment;
    auto* partial = static_cast<Fixed*>(partial_.room((segments + 1) * width * sizeof(Fixed), device_));
    Fixed* d_out = partial + segments * width;
    EventTimer timer(device_);
    if (k.precision == Precision::Float)
      launch_position_sums<float>(device_, device_view<float>(k, reals_.get(), ints_.get()), k.seed, d_list, d_masks, m,
                                  bands, k.unit, k.square_unit, static_cast<float*>(scratch),
                                  static_cast<float*>(log_spots), table, partial, d_out);
    else
      launch_position_sums<double>(device_, device_view<double>(k, reals_.get(), ints_.get()), k.seed, d_list, d_masks, m,
                                   bands, k.unit, k.square_unit, static_cast<double*>(scratch),
                                   static_cast<double*>(log_spots), table, partial, d_out);
    ms += timer.ms("risk kernels");
    check(cudaMemcpy(part.data(), d_out, width * sizeof(Fixed), cudaMemcpyDeviceToHost), device_, "copy of position sums");
    for (std::size_t j = 0; j < width; ++j) sums[j] += part[j];
  }
  return ms;
}

std::unique_ptr<RiskExecutor> make_cuda_risk_executor(Device& device) {
  return std::make_unique<CudaRiskExecutor>(device);
}

}  // namespace mcsim
