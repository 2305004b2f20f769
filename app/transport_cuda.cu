// Particle transport on one GPU: one thread a history, the same run_history as the
// CPU. A block's histories all belong to one row (chunk); they add their scores
// into the block's copy of the row's slots in shared memory with 64-bit integer
// atomics, and the block adds its copy to the row's slots in global memory the same
// way. Integer adds commute, so the row's tallies do not depend on the order.
// Fission sites go to a bank in any order, each keyed by (history, ordinal), and
// are sorted by key, which gives the CPU's history order.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "app/transport_cuda.hpp"
#include "models/transport/transport_kernel.hpp"

namespace mcsim {

namespace {

using transport::Site;
using ull = unsigned long long;

const auto check = check_cuda;

constexpr int kBlock = 256;
constexpr std::size_t kSharedSlots = 6144;  // a row's slots a block keeps in shared memory (48 KB)
constexpr int kOrdinalBits = 20;             // a history banks fewer than 2^20 sites

struct BankRecord {
  ull key;  // history << kOrdinalBits | ordinal
  double pos;
  int g;
};

template <class Real>
struct DeviceSink {
  ull* slots;
  BankRecord* bank;
  ull* bank_count;
  ull capacity, key;
  __device__ void add(int slot, Real value) {
    const ull u = transport::to_units(value);
    if (u) atomicAdd(&slots[slot], u);
  }
  __device__ void bank_site(Real pos, int g) {
    const ull i = atomicAdd(bank_count, 1ull);
    if (i < capacity) bank[i] = {key, static_cast<double>(pos), g};
    ++key;
  }
};

template <class Real>
__global__ void histories_kernel(const transport::TransportView<Real> v, std::uint64_t seed, std::uint64_t stream0,
                                 std::uint64_t count, std::uint64_t chunk, unsigned blocks_per_row,
                                 const Site<double>* sites, Real inv_k, ull* tallies, int slots, bool shared,
                                 BankRecord* bank, ull* bank_count, ull capacity) {
  extern __shared__ ull block_slots[];
  const std::uint64_t row = blockIdx.x / blocks_per_row;
  const std::uint64_t local = static_cast<std::uint64_t>(blockIdx.x % blocks_per_row) * blockDim.x + threadIdx.x;
  const std::uint64_t i = row * chunk + local;
  ull* acc = shared ? block_slots : tallies + row * slots;
  if (shared) {
    for (int s = threadIdx.x; s < slots; s += blockDim.x) block_slots[s] = 0;
    __syncthreads();
  }
  if (local < chunk && i < count) {
    DeviceSink<Real> sink{acc, bank, bank_count, capacity, static_cast<ull>(i) << kOrdinalBits};
    Site<Real> site{};
    if (sites) site = {static_cast<Real>(sites[i].pos), sites[i].g};
    transport::run_history(v, seed, stream0 + i, sites ? &site : nullptr, inv_k, sink);
  }
  if (!shared) return;
  __syncthreads();
  for (int s = threadIdx.x; s < slots; s += blockDim.x)
    if (block_slots[s]) atomicAdd(&tallies[row * slots + s], block_slots[s]);
}

__global__ void keys_kernel(const BankRecord* bank, ull n, ull* keys, unsigned* order) {
  const ull i = static_cast<ull>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) keys[i] = bank[i].key, order[i] = static_cast<unsigned>(i);
}

__global__ void gather_kernel(const BankRecord* bank, const unsigned* order, ull n, Site<double>* out) {
  const ull i = static_cast<ull>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = {bank[order[i]].pos, bank[order[i]].g};
}

// The view's arrays in one device buffer, and the view pointing into it.
template <class Real>
transport::TransportView<Real> device_view(const transport::TransportArrays<Real>& a, Real* buffer) {
  transport::TransportView<Real> v = a.view();
  const transport::LayerArrays<Real>& l = a.layers;
  std::size_t at = 0;
  const auto place = [&](const std::vector<Real>& host) {
    Real* p = buffer + at;
    at += host.size();
    return p;
  };
  v.layers.surfaces = place(l.surfaces), v.layers.total = place(l.total), v.layers.scatter_out = place(l.scatter_out);
  v.layers.cumulative = place(l.cumulative), v.layers.mean_cosine = place(l.mean_cosine);
  v.nu_fission = place(a.nu_fission), v.absorption = place(a.absorption), v.chi_cumulative = place(a.chi_cumulative);
  return v;
}

template <class Real>
std::vector<Real> packed(const transport::TransportArrays<Real>& a) {
  std::vector<Real> out;
  for (const auto* v : {&a.layers.surfaces, &a.layers.total, &a.layers.scatter_out, &a.layers.cumulative,
                        &a.layers.mean_cosine, &a.nu_fission, &a.absorption, &a.chi_cumulative})
    out.insert(out.end(), v->begin(), v->end());
  return out;
}

template <class Real>
const transport::TransportArrays<Real>& arrays_of(const transport::TransportKernel& k);
template <>
const transport::TransportArrays<float>& arrays_of<float>(const transport::TransportKernel& k) { return k.in_float; }
template <>
const transport::TransportArrays<double>& arrays_of<double>(const transport::TransportKernel& k) { return k.in_double; }

}  // namespace

float TransportDevice::run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                           std::vector<Site<double>>* bank) {
  check(cudaSetDevice(device_), device_, "device selection");
  return k.precision == Precision::Float ? run_in<float>(k, b, tallies, bank) : run_in<double>(k, b, tallies, bank);
}

template <class Real>
float TransportDevice::run_in(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                              std::vector<Site<double>>* bank) {
  const transport::TransportArrays<Real>& a = arrays_of<Real>(k);
  const std::vector<Real> host = packed(a);
  Real* d_arrays = static_cast<Real*>(arrays_.room(host.size() * sizeof(Real), device_));
  if (uploaded_ != k.id) {
    check(cudaMemcpy(d_arrays, host.data(), host.size() * sizeof(Real), cudaMemcpyHostToDevice), device_, "cross-section upload");
    uploaded_ = k.id;
  }
  const transport::TransportView<Real> v = device_view(a, d_arrays);
  const int slots = v.slots();
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  const auto blocks_per_row = static_cast<unsigned>((b.chunk + kBlock - 1) / kBlock);
  const std::size_t tally_bytes = rows * static_cast<std::size_t>(slots) * sizeof(ull);
  ull* d_tallies = static_cast<ull*>(tallies_.room(tally_bytes, device_));
  const Site<double>* d_sites = nullptr;
  if (b.sites) {
    auto* s = static_cast<Site<double>*>(sites_.room(b.count * sizeof(Site<double>), device_));
    check(cudaMemcpy(s, b.sites, b.count * sizeof(Site<double>), cudaMemcpyHostToDevice), device_, "site upload");
    d_sites = s;
  }
  ull* d_count = static_cast<ull*>(count_.room(sizeof(ull), device_));
  const bool shared = static_cast<std::size_t>(slots) <= kSharedSlots;
  ull capacity = bank ? std::max<ull>(4096, 3 * b.count) : 0;

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), device_, "event creation");
  check(cudaEventCreate(&stop), device_, "event creation");
  check(cudaEventRecord(start), device_, "event record");
  ull banked = 0;
  for (;;) {  // once, or again with a bank big enough for every site
    auto* d_bank = bank ? static_cast<BankRecord*>(bank_.room(capacity * sizeof(BankRecord), device_)) : nullptr;
    check(cudaMemset(d_tallies, 0, tally_bytes), device_, "tally reset");
    check(cudaMemset(d_count, 0, sizeof(ull)), device_, "bank reset");
    histories_kernel<Real><<<static_cast<unsigned>(rows * blocks_per_row), kBlock, shared ? slots * sizeof(ull) : 0>>>(
        v, k.seed, b.stream_base + b.first, b.count, b.chunk, blocks_per_row, d_sites, static_cast<Real>(1 / b.k),
        d_tallies, slots, shared, d_bank, d_count, capacity);
    check(cudaGetLastError(), device_, "history kernel launch");
    check(cudaMemcpy(&banked, d_count, sizeof(ull), cudaMemcpyDeviceToHost), device_, "history kernel");
    if (banked <= capacity) break;
    capacity = banked + banked / 4;
  }
  if (bank && banked > 0) {
    const auto* d_bank = static_cast<const BankRecord*>(bank_.get());
    ull* keys = static_cast<ull*>(keys_.room(2 * banked * sizeof(ull), device_));
    auto* order = static_cast<unsigned*>(order_.room(2 * banked * sizeof(unsigned), device_));
    const unsigned grid = static_cast<unsigned>((banked + kBlock - 1) / kBlock);
    keys_kernel<<<grid, kBlock>>>(d_bank, banked, keys, order);
    int end_bit = kOrdinalBits;
    while (end_bit < 64 && (ull{1} << (end_bit - kOrdinalBits)) < b.count) ++end_bit;
    std::size_t scratch_bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, keys, keys + banked, order, order + banked,
                                          static_cast<int>(banked), 0, end_bit),
          device_, "bank sort sizing");
    check(cub::DeviceRadixSort::SortPairs(sort_scratch_.room(scratch_bytes, device_), scratch_bytes, keys, keys + banked, order,
                                          order + banked, static_cast<int>(banked), 0, end_bit),
          device_, "bank sort");
    auto* out = static_cast<Site<double>*>(out_.room(banked * sizeof(Site<double>), device_));
    gather_kernel<<<grid, kBlock>>>(d_bank, order + banked, banked, out);
    check(cudaGetLastError(), device_, "bank gather");
    const std::size_t at = bank->size();
    bank->resize(at + banked);
    check(cudaMemcpy(bank->data() + at, out, banked * sizeof(Site<double>), cudaMemcpyDeviceToHost), device_, "bank download");
  }
  check(cudaEventRecord(stop), device_, "event record");
  check(cudaMemcpy(tallies, d_tallies, tally_bytes, cudaMemcpyDeviceToHost), device_, "tally download");
  float ms = 0;
  cudaEventSynchronize(stop);
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}

}  // namespace mcsim
