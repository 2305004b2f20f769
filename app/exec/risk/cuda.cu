// Portfolio risk on one GPU. Losses and position sums may be called from two host
// threads at once (the next unit's losses beside this unit's sums): they use
// separate buffers, and this file is built with per-thread default streams.
// Losses: the scenarios' log spots first (a block a tile of 32 scenarios, their
// shocks in shared memory), then a thread a scenario revaluing the book there:
// the same draw_shock_block, log_spot_at and loss_at as the CPU. Position sums:
// the listed scenarios' log spots the same way, then a table of each unit's loss
// in each scenario (positions revalued once, groups as their members' sums), then
// one thread per unit and segment of the list adding exact fixed-point terms, and
// the segments' sums added last: integer adds, so the sums do not depend on the
// launch.
#include <cuda_runtime.h>

#include <algorithm>
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
  DeviceBuffer out_, spots_;                               // losses
  DeviceBuffer list_, log_spots_, table_, partial_;        // position sums
};

namespace {

using reduce::Fixed;

const auto check = check_cuda;

constexpr std::size_t kSharedBytes = 100 << 10;  // shared memory a block of the log-spot kernel may take
constexpr std::size_t kSpotBytes = 512 << 20;    // the loss pass's log spots: fewer scenarios a batch for many assets
constexpr std::uint64_t kMaxBatch = 1 << 24;     // scenarios a launch (int indices)
constexpr std::uint64_t kListBatch = 16384;      // listed scenarios whose log spots are held at once
constexpr std::size_t kTableBytes = 512 << 20;   // the unit-loss table's room: fewer scenarios a batch for big books
constexpr int kSegment = 256;                    // listed scenarios a position-sum thread adds
constexpr int kMaxBands = 32;                    // bands a mask can name

// log_spots[i * m + s]: asset i's log spot in scenario s of the batch, that is
// scenario list[s] (first + s without a list). A block takes a tile of 32
// scenarios, a lane each, and holds their shocks in shared memory, e[j * 32 + lane]:
// its warps draw the shock blocks (each from its own place in the stream), then
// share the assets, each warp computing four assets' Cholesky products for all 32
// scenarios at a time (log_spots_at: the sums of log_spot_at, in its order). The
// same draw_shock_block and the CPU's sums, at a
// 32nd of the shared memory a thread a scenario would need, so the block runs at
// full occupancy; the revaluation that follows holds no shared memory at all.
constexpr int kTile = 32;  // scenarios a block of the log-spot kernel: a warp's lanes
constexpr int kRows = 4;   // assets a warp of it takes at once

template <class Real>
__global__ void log_spots_kernel(const var::PortfolioView<Real> pf, std::uint64_t seed, std::uint64_t first,
                                 const std::uint64_t* list, int m, Real* log_spots) {
  extern __shared__ __align__(16) unsigned char smem[];
  Real* e = reinterpret_cast<Real*>(smem);
  Real* scale = e + static_cast<std::size_t>(pf.assets) * kTile;  // per lane
  const int lane = threadIdx.x % kTile, warp = threadIdx.x / kTile, warps = blockDim.x / kTile;
  const int s = blockIdx.x * kTile + lane;
  const std::uint64_t scenario = s < m ? (list ? list[s] : first + s) : 0;  // a spare lane draws scenario 0, unused
  const int blocks = var::shock_blocks(pf);
  for (int k = warp; k < blocks; k += warps) {
    rng::Stream stream(seed, scenario, k);
    var::draw_shock_block(pf, stream, k, e + lane, kTile);
  }
  if (warp == 0) {
    rng::Stream stream(seed, scenario, blocks);
    scale[lane] = var::shock_scale(pf, stream);
  }
  __syncthreads();
  if (s >= m) return;
  // Each warp kRows assets at a time (each shock loaded once for them), the rest one by one.
  const int grouped = pf.assets / kRows * kRows;
  for (int i = warp * kRows; i < grouped; i += warps * kRows) {
    Real x[kRows];
    var::log_spots_at<kRows>(pf, i, e + lane, kTile, scale[lane], x);
    for (int r = 0; r < kRows; ++r) log_spots[static_cast<std::size_t>(i + r) * m + s] = x[r];
  }
  for (int i = grouped + warp; i < pf.assets; i += warps)
    log_spots[static_cast<std::size_t>(i) * m + s] = var::log_spot_at(pf, i, var::cholesky_row(pf, i), e + lane, kTile, scale[lane]);
}

// The same for books of too many assets for a tile in shared memory: a thread a
// scenario, working in place in log_spots.
template <class Real>
__global__ void log_spots_in_place_kernel(const var::PortfolioView<Real> pf, std::uint64_t seed, std::uint64_t first,
                                          const std::uint64_t* list, int m, Real* log_spots) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= m) return;
  rng::Stream stream(seed, list ? list[s] : first + s);
  var::scenario_log_spots(pf, stream, log_spots + s, m);
}

// out[s]: the loss of the batch's scenario s, one thread each, the same loss_at
// as the CPU's.
template <class Real>
__global__ void revalue_kernel(const var::PortfolioView<Real> pf, const Real* log_spots, int m, double* out) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < m) out[s] = static_cast<double>(var::loss_at(pf, log_spots + s, m));
}

// table[u * m + s]: unit u's loss in listed scenario s. Positions first, one thread
// each (position, scenario), so each position is revalued once a scenario...
template <class Real>
__global__ void position_losses_kernel(const var::PortfolioView<Real> pf, const Real* log_spots, int m, double* table) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<std::size_t>(pf.positions) * m) return;
  const int p = static_cast<int>(i / m), s = static_cast<int>(i % m);
  table[i] = var::position_loss_at(pf, p, log_spots + s, static_cast<std::size_t>(m));
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

// The log-spot kernel over a batch of m scenarios: tiles of 32 scenarios with
// their shocks in shared memory, else (too many assets) in place.
template <class Real>
void launch_log_spots(int device, const var::PortfolioView<Real>& pf, std::uint64_t seed, std::uint64_t first,
                      const std::uint64_t* list, int m, Real* log_spots) {
  const std::size_t smem = (static_cast<std::size_t>(pf.assets) + 1) * kTile * sizeof(Real);
  if (smem <= kSharedBytes) {
    check(cudaFuncSetAttribute(log_spots_kernel<Real>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)),
          device, "kernel setup");
    log_spots_kernel<Real><<<(m + kTile - 1) / kTile, 8 * kTile, smem>>>(pf, seed, first, list, m, log_spots);
  } else {
    log_spots_in_place_kernel<Real><<<(m + 127) / 128, 128>>>(pf, seed, first, list, m, log_spots);
  }
  check(cudaGetLastError(), device, "launch of the log-spot kernel");
}

// Scenarios a batch: as many as fit in `room` at `bytes` each, at most `count`
// (and kMaxBatch), at least one.
std::uint64_t batch_of(std::size_t room, std::size_t bytes, std::uint64_t count) {
  return std::max<std::uint64_t>(1, std::min<std::uint64_t>({room / bytes, count, kMaxBatch}));
}

template <class Real>
void launch_losses(int device, const var::PortfolioView<Real>& pf, std::uint64_t seed, std::uint64_t first,
                   std::uint64_t count, double* out, Real* log_spots) {
  const std::uint64_t batch = batch_of(kSpotBytes, pf.assets * sizeof(Real), count);
  for (std::uint64_t at = 0; at < count; at += batch) {
    const int m = static_cast<int>(std::min(batch, count - at));
    launch_log_spots<Real>(device, pf, seed, first + at, nullptr, m, log_spots);
    revalue_kernel<Real><<<(m + 255) / 256, 256>>>(pf, log_spots, m, out + at);
    check(cudaGetLastError(), device, "launch of the revaluation kernel");
  }
}

template <class Real>
void launch_position_sums(int device, const var::PortfolioView<Real>& pf, std::uint64_t seed, const std::uint64_t* list,
                          const std::uint32_t* masks, int m, int bands, const reduce::FixedUnit& unit,
                          const reduce::FixedUnit& square_unit, Real* log_spots, double* table, Fixed* partial,
                          Fixed* out) {
  launch_log_spots<Real>(device, pf, seed, 0, list, m, log_spots);
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
  const std::size_t real = k.precision == Precision::Float ? sizeof(float) : sizeof(double);
  void* log_spots = spots_.room(batch_of(kSpotBytes, k.assets() * real, count) * k.assets() * real, device_);
  EventTimer timer(device_);
  if (k.precision == Precision::Float)
    launch_losses<float>(device_, device_view<float>(k, reals_.get(), ints_.get()), k.seed, first, count, d_out,
                         static_cast<float*>(log_spots));
  else
    launch_losses<double>(device_, device_view<double>(k, reals_.get(), ints_.get()), k.seed, first, count, d_out,
                          static_cast<double*>(log_spots));
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
  const std::size_t batch = batch_of(kTableBytes, k.units() * sizeof(double), std::min<std::uint64_t>(scenarios.size(), kListBatch));
  float ms = 0;
  for (std::size_t at = 0; at < scenarios.size(); at += batch) {
    const int m = static_cast<int>(std::min<std::size_t>(batch, scenarios.size() - at));
    auto* list = static_cast<unsigned char*>(list_.room(m * (sizeof(std::uint64_t) + sizeof(std::uint32_t)), device_));
    auto* d_list = reinterpret_cast<std::uint64_t*>(list);
    auto* d_masks = reinterpret_cast<std::uint32_t*>(list + m * sizeof(std::uint64_t));
    check(cudaMemcpy(d_list, scenarios.data() + at, m * sizeof(std::uint64_t), cudaMemcpyHostToDevice), device_, "list upload");
    check(cudaMemcpy(d_masks, masks.data() + at, m * sizeof(std::uint32_t), cudaMemcpyHostToDevice), device_, "list upload");
    void* log_spots = log_spots_.room(static_cast<std::size_t>(m) * k.assets() * real, device_);
    auto* table = static_cast<double*>(table_.room(static_cast<std::size_t>(m) * k.units() * sizeof(double), device_));
    const int segments = (m + kSegment - 1) / kSegment;
    auto* partial = static_cast<Fixed*>(partial_.room((segments + 1) * width * sizeof(Fixed), device_));
    Fixed* d_out = partial + segments * width;
    EventTimer timer(device_);
    if (k.precision == Precision::Float)
      launch_position_sums<float>(device_, device_view<float>(k, reals_.get(), ints_.get()), k.seed, d_list, d_masks, m,
                                  bands, k.unit, k.square_unit, static_cast<float*>(log_spots), table, partial, d_out);
    else
      launch_position_sums<double>(device_, device_view<double>(k, reals_.get(), ints_.get()), k.seed, d_list, d_masks, m,
                                   bands, k.unit, k.square_unit, static_cast<double*>(log_spots), table, partial, d_out);
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
