// Particle transport on one GPU, with the same Histories as the CPU. A block takes
// a share of one row (chunk); its threads run one history each and, when one ends,
// take the block's next, so a warp stays busy until the share is done. They add
// their mesh scores into the block's copy of the row's slots in shared memory
// with 64-bit integer atomics (a track's whole bins as one run, two atomics
// however many bins it crosses), and their scalar scores into their own shared
// words until the warp sums them; the block adds its copy to the row's slots in
// global memory: integer adds commute, so the row's tallies do not depend on the
// order. History h keeps its fission sites in its own K places of the bank; a
// scan of the counts packs them in the CPU's history order.
// A fixed-source call runs its rows in pieces, two at a time on two streams (one's
// tail overlapping the next's start), and copies each piece's rows back while
// the later pieces run.
// Eigenvalue generations on one GPU keep the sites there: the next generation's
// are drawn from the packed bank on the device, and only the tallies and the
// bank's mesh counts come back.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "app/exec/cuda_memory.hpp"
#include "app/exec/transport/executor.hpp"
#include "models/transport/fission_source.hpp"
#include "models/transport/transport_kernel.hpp"

namespace mcsim {

// The GPU's copy of the job's cross sections (uploaded once per job), the buffers
// of the history kernel and the fission bank, and the sites an eigenvalue run keeps
// between generations.
class CudaTransportExecutor : public TransportExecutor {
 public:
  explicit CudaTransportExecutor(Device& device);

  void run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
           std::vector<transport::Site<double>>* bank) override;
  bool keeps_sites() const override { return true; }
  std::uint64_t generation(const transport::TransportKernel& k, const TransportBatch& b, const transport::SourceMesh& mesh,
                           double u, std::uint64_t* tallies, std::uint64_t* counts) override;
  void kept_sites(std::vector<transport::Site<double>>* out) override;

 private:
  // Runs b's histories from d_sites (null: the job's source) into the rows' tallies
  // (tallies_) and, when banking, packs their sites in history order (packed_);
  // returns how many.
  std::uint64_t histories(const transport::TransportKernel& k, const TransportBatch& b,
                          const transport::Site<double>* d_sites, bool banking);
  // The kernel over b's rows into d_tallies, in `stream`.
  template <class Real>
  void launch(const transport::TransportKernel& k, const TransportBatch& b, const transport::Site<double>* d_sites,
              bool banking, unsigned long long* d_tallies, cudaStream_t stream);
  // run() without a bank: the rows in pieces, copied back as each finishes.
  void pieces(const transport::TransportKernel& k, const TransportBatch& b, const transport::Site<double>* d_sites,
              std::uint64_t* tallies);

  Device& dev_;
  int device_, sms_ = 1;
  std::uint64_t uploaded_ = 0;  // the kernel id the cross sections belong to
  unsigned K_ = 4;              // bank places a history: grows to the most any history banked
  DeviceBuffer arrays_, int_arrays_, tallies_, bank_, banked_, ends_, scan_scratch_, packed_, most_, counts_;
  DeviceBuffer uploaded_sites_;  // run()'s sites
  DeviceBuffer sites_[2];       // generation()'s sites and the next's
  std::unique_ptr<Stream> streams_[2], copies_;  // made on first use, on the device
  std::vector<std::unique_ptr<Mark>> marks_;     // a piece's end
  int current_ = 0;
  std::uint64_t kept_ = 0;      // sites kept in sites_[current_]
};

namespace {

using transport::Site;
using ull = unsigned long long;

const auto check = check_cuda;

constexpr int kBlock = 256;
// A row's slots a block keeps in shared memory: what 48 KB holds beside the
// threads' scalar words (a launch gets no more without opting in).
constexpr std::size_t kSharedSlots = (48 * 1024 - transport::slot::Scalars * kBlock * sizeof(ull)) / sizeof(ull);
constexpr unsigned kBlocksPerSm = 8;         // blocks a launch aims for, per multiprocessor
// Histories a thread should have at least, when rows are few: a block's tail, its
// threads idle while its last histories finish, is then a smaller part of its
// time (C5G7 in float on an H100: 2.6e7 histories/s with 4, 3.0e7 with 8).
constexpr unsigned kPerThread = 8;
// A fixed-source call's pieces: at most this many, each of this many histories at
// least (enough to fill a GPU several times over).
constexpr std::uint64_t kPieces = 4, kPieceHistories = std::uint64_t{1} << 22;
// Registers are capped so this many blocks of the history kernel fit a
// multiprocessor (float: 64 a thread; double: 128, where CSG's spills under 85
// cost more than the occupancy they bought: C5G7, 1.3e7 -> 1.7e7 histories/s).
template <class Real>
constexpr int kBlocksPerSmAtLeast = sizeof(Real) == 4 ? 4 : 2;

template <class Real>
struct DeviceSink {
  ull* slots;  // the block's copy of the row's slots in shared memory, or the row's own
  // With shared slots, runs of track-length mesh slots as differences: adding c to
  // the slots [s, s + n) is runs[s - Scalars] += c, runs[s - Scalars + n] -= c, and
  // the block's prefix sums at the end give every slot its runs (integers: exact).
  ull* runs;
  Site<double>* bank;  // history h's sites at bank[h K, (h + 1) K)
  unsigned K;
  // The thread's histories' scalar slots, summed: scalars[s][threadIdx.x], in
  // shared memory (in registers they would crowd out the history's state).
  ull (*scalars)[kBlock];
  ull h = 0;       // the history, in the batch
  unsigned n = 0;  // the sites it has banked
  __device__ void add(int slot, Real value) {
    const ull u = transport::to_units(value);
    if (u) atomicAdd(&slots[slot], u);
  }
  __device__ void add_run(int slot, int count, Real value) {
    const ull u = transport::to_units(value);
    if (!u) return;
    if (runs) {
      atomicAdd(&runs[slot - transport::slot::Scalars], u);
      atomicAdd(&runs[slot - transport::slot::Scalars + count], ~u + 1);  // minus u, modulo 2^64
      return;
    }
    for (int i = 0; i < count; ++i) atomicAdd(&slots[slot + i], u);
  }
  __device__ void add_history(const Real (&v)[transport::slot::Scalars]) {
#pragma unroll
    for (int s = 0; s < transport::slot::Scalars; ++s) scalars[s][threadIdx.x] += transport::to_units(v[s]);
  }
  template <class Pos>
  __device__ void bank_site(Pos pos, int g) {
    if (n < K) bank[h * K + n] = transport::site_at(pos, g);
    ++n;
  }
};

// Block b runs histories [lo, hi) of row b / blocks_per_row. With a bank, history
// h's site count goes to banked[h], and any count over K to *most. The job's mode
// and shape are constants of the kernel, so it carries no code the job does not use
// (nor the registers of that code).
enum KernelShape : int { kSlab, kSphere, kCsg };

template <class Real, bool Eigenvalue, int Shape>
__global__ void __launch_bounds__(kBlock, kBlocksPerSmAtLeast<Real>) histories_kernel(transport::TransportView<Real> v, std::uint64_t seed, std::uint64_t stream0,
                                 std::uint64_t count, std::uint64_t chunk, unsigned blocks_per_row,
                                 const Site<double>* sites, Real inv_k, ull* tallies, int slots, bool shared,
                                 Site<double>* bank, unsigned K, ull* banked, unsigned* most) {
  v.eigenvalue = Eigenvalue, v.sphere = Shape == kSphere, v.csg = Shape == kCsg;
  extern __shared__ ull block_slots[];  // with `shared`: the slots, then the track-length mesh's runs (one more)
  __shared__ unsigned next;
  __shared__ ull thread_scalars[transport::slot::Scalars][kBlock];
  const std::uint64_t row = blockIdx.x / blocks_per_row, part = blockIdx.x % blocks_per_row;
  const std::uint64_t row0 = row * chunk, in_row = min(chunk, count - row0);
  const std::uint64_t lo = row0 + in_row * part / blocks_per_row, hi = row0 + in_row * (part + 1) / blocks_per_row;
  ull* row_slots = tallies + row * slots;
  const int mesh = v.mesh_slots();
  ull* runs = shared ? block_slots + slots : nullptr;
  if (shared)
    for (int s = threadIdx.x; s < slots + mesh + 1; s += blockDim.x) block_slots[s] = 0;
  for (int s = 0; s < transport::slot::Scalars; ++s) thread_scalars[s][threadIdx.x] = 0;
  if (threadIdx.x == 0) next = blockDim.x;
  __syncthreads();
  DeviceSink<Real> sink{shared ? block_slots : row_slots, runs, bank, K, thread_scalars};
  transport::Histories<Real> h;
  bool fresh = true;  // history i is still to start
  for (std::uint64_t i = lo + threadIdx.x; i < hi;) {
    if (fresh) {
      sink.h = i, sink.n = 0, fresh = false;
      const Site<Real> site = sites ? transport::site_in<Real>(sites[i]) : Site<Real>{};
      h.start(v, seed, stream0 + i, sites ? &site : nullptr);
    }
    if (h.flight(v, inv_k, sink)) continue;
    if (bank) {
      banked[i] = sink.n;
      if (sink.n > K) atomicMax(most, sink.n);
    }
    i = lo + atomicAdd(&next, 1u), fresh = true;
  }
  // The scalar slots: summed over the warp, then one add a warp.
  __syncwarp();
#pragma unroll
  for (int s = 0; s < transport::slot::Scalars; ++s) {
    ull sum = thread_scalars[s][threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0 && sum) atomicAdd(&sink.slots[s], sum);
  }
  if (!shared) return;
  __syncthreads();
  if (threadIdx.x < 32) {  // the runs' prefix sums into the track-length slots, a warp 32 at a time
    ull carry = 0;
    for (int base = 0; base < mesh; base += 32) {
      const int s = base + static_cast<int>(threadIdx.x);
      ull sum = s < mesh ? runs[s] : 0;
      for (int offset = 1; offset < 32; offset *= 2) {
        const ull below = __shfl_up_sync(0xffffffffu, sum, offset);
        if (threadIdx.x >= offset) sum += below;
      }
      if (s < mesh) block_slots[transport::slot::Scalars + s] += carry + sum;
      carry += __shfl_sync(0xffffffffu, sum, 31);
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < slots; s += blockDim.x)
    if (block_slots[s]) atomicAdd(&row_slots[s], block_slots[s]);
}

// The bank in history order: history h's banked[h] sites end at ends[h].
__global__ void pack_kernel(const Site<double>* bank, unsigned K, const ull* banked, const ull* ends, ull n, Site<double>* out) {
  const ull h = static_cast<ull>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (h >= n) return;
  const ull c = banked[h], at = ends[h] - c;
  for (ull j = 0; j < c; ++j) out[at + j] = bank[h * K + j];
}

// The packed bank's sites counted in the mesh's bins (a block's counts in 32-bit
// shared words when they fit).
__global__ void mesh_counts_kernel(const Site<double>* bank, ull M, transport::SourceMesh mesh, bool shared, ull* counts) {
  extern __shared__ unsigned local[];
  if (shared) {
    for (int b = threadIdx.x; b < mesh.bins(); b += blockDim.x) local[b] = 0;
    __syncthreads();
  }
  for (ull i = static_cast<ull>(blockIdx.x) * blockDim.x + threadIdx.x; i < M; i += static_cast<ull>(gridDim.x) * blockDim.x) {
    const int b = transport::source_bin(mesh, bank[i]);
    if (shared) atomicAdd(&local[b], 1u);
    else atomicAdd(&counts[b], 1ull);
  }
  if (!shared) return;
  __syncthreads();
  for (int b = threadIdx.x; b < mesh.bins(); b += blockDim.x)
    if (local[b]) atomicAdd(&counts[b], static_cast<ull>(local[b]));
}

// The next generation's n sites, drawn from the packed bank of M.
__global__ void draw_kernel(const Site<double>* bank, ull M, double u, ull n, Site<double>* out) {
  const ull j = static_cast<ull>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j < n) out[j] = bank[transport::drawn_index(j, u, M, n)];
}

unsigned grid_of(ull n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

// The view's arrays of reals and of ints, in the order two device buffers hold them.
template <class Real>
std::array<const std::vector<Real>*, 15> parts(const transport::TransportArrays<Real>& a) {
  const auto& t = a.tallies;
  return {&a.layers.surfaces, &a.layers.mean_free_path, &a.layers.scatter_probability, &a.layers.cumulative,
          &a.layers.mean_cosine, &a.nu_fission, &a.absorption, &a.chi_cumulative, &a.model.reals, &t.mesh_low,
          &t.mesh_width, &t.absorption, &t.fission, &t.nu_fission, &t.chi_cumulative};
}
template <class Real>
std::array<const std::vector<int>*, 5> int_parts(const transport::TransportArrays<Real>& a) {
  const auto& t = a.tallies;
  return {&a.model.ints, &t.filter, &t.lattice, &t.first_slot, &t.mesh_shape};
}

// Each part's place in a buffer that holds them all, one after another.
template <class T, std::size_t N>
std::array<T*, N> places(const std::array<const std::vector<T>*, N>& parts, T* buffer) {
  std::array<T*, N> at{};
  for (std::size_t i = 0; i < N; ++i) at[i] = buffer, buffer += parts[i]->size();
  return at;
}
template <class T, std::size_t N>
std::size_t total_size(const std::array<const std::vector<T>*, N>& parts) {
  std::size_t n = 0;
  for (const auto* part : parts) n += part->size();
  return n;
}

// The view pointing into those buffers.
template <class Real>
transport::TransportView<Real> device_view(const transport::TransportArrays<Real>& a, Real* reals, int* ints) {
  const auto at = places(parts(a), reals);
  const auto i = places(int_parts(a), ints);
  transport::TransportView<Real> v = a.view();
  v.layers.surfaces = at[0], v.layers.mean_free_path = at[1], v.layers.scatter_probability = at[2];
  v.layers.cumulative = at[3], v.layers.mean_cosine = at[4];
  v.nu_fission = at[5], v.absorption = at[6], v.chi_cumulative = at[7];
  if (v.csg) {
    v.model = a.model.view(at[8], i[0]);
    v.csg_tallies = {a.tallies.tallies, a.tallies.groups, i[1], i[2], i[3], at[9], at[10], i[4], at[11], at[12], at[13], at[14]};
    v.csg_source.nu_fission = at[5];
  }
  return v;
}

template <class Real>
const transport::TransportArrays<Real>& arrays_of(const transport::TransportKernel& k);
template <>
const transport::TransportArrays<float>& arrays_of<float>(const transport::TransportKernel& k) { return k.in_float; }
template <>
const transport::TransportArrays<double>& arrays_of<double>(const transport::TransportKernel& k) { return k.in_double; }

}  // namespace

CudaTransportExecutor::CudaTransportExecutor(Device& device) : dev_(device), device_(device.ordinal()) {
  check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_), device_, "device query");
}

template <class Real>
void CudaTransportExecutor::launch(const transport::TransportKernel& k, const TransportBatch& b, const Site<double>* d_sites,
                                   bool banking, ull* d_tallies, cudaStream_t stream) {
  const transport::TransportArrays<Real>& a = arrays_of<Real>(k);
  Real* d_arrays = static_cast<Real*>(arrays_.room(std::max<std::size_t>(total_size(parts(a)), 1) * sizeof(Real), device_));
  int* d_ints = static_cast<int*>(int_arrays_.room(std::max<std::size_t>(total_size(int_parts(a)), 1) * sizeof(int), device_));
  if (uploaded_ != k.id) {
    const auto upload = [&](const auto& list, auto* to) {
      std::vector<std::remove_pointer_t<decltype(to)>> host;
      for (const auto* part : list) host.insert(host.end(), part->begin(), part->end());
      check(cudaMemcpy(to, host.data(), host.size() * sizeof(host[0]), cudaMemcpyHostToDevice), device_, "cross-section upload");
    };
    upload(parts(a), d_arrays), upload(int_parts(a), d_ints);
    uploaded_ = k.id;
  }
  const transport::TransportView<Real> v = device_view(a, d_arrays, d_ints);
  const int slots = v.slots();
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  // Enough blocks to fill the GPU, each with a few histories a thread to refill from.
  const std::uint64_t want = (std::uint64_t{kBlocksPerSm} * static_cast<unsigned>(sms_) + rows - 1) / rows;
  const auto blocks_per_row = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(want, b.chunk / (kPerThread * kBlock))));
  const std::size_t tally_bytes = rows * static_cast<std::size_t>(slots) * sizeof(ull);
  // Shared memory holds the slots and the track-length mesh's runs (see DeviceSink).
  const std::size_t shared_slots = static_cast<std::size_t>(slots + v.mesh_slots()) + 1;
  const bool shared = shared_slots <= kSharedSlots;
  auto* d_most = static_cast<unsigned*>(most_.room(sizeof(unsigned), device_));
  const auto kernel = v.csg ? (v.eigenvalue ? histories_kernel<Real, true, kCsg> : histories_kernel<Real, false, kCsg>)
                     : v.eigenvalue ? (v.sphere ? histories_kernel<Real, true, kSphere> : histories_kernel<Real, true, kSlab>)
                                    : (v.sphere ? histories_kernel<Real, false, kSphere> : histories_kernel<Real, false, kSlab>);
  for (;;) {  // once, or again with room for every history's sites
    auto* d_bank = banking ? static_cast<Site<double>*>(bank_.room(b.count * K_ * sizeof(Site<double>), device_)) : nullptr;
    auto* d_banked = banking ? static_cast<ull*>(banked_.room(b.count * sizeof(ull), device_)) : nullptr;
    check(cudaMemsetAsync(d_tallies, 0, tally_bytes, stream), device_, "tally reset");
    if (banking) check(cudaMemsetAsync(d_most, 0, sizeof(unsigned), stream), device_, "bank reset");
    kernel<<<static_cast<unsigned>(rows * blocks_per_row), kBlock, shared ? shared_slots * sizeof(ull) : 0, stream>>>(
        v, k.seed, b.stream_base + b.first, b.count, b.chunk, blocks_per_row, d_sites, static_cast<Real>(1 / b.k),
        d_tallies, slots, shared, d_bank, K_, d_banked, d_most);
    check(cudaGetLastError(), device_, "history kernel launch");
    if (!banking) return;
    unsigned most = 0;
    check(cudaMemcpy(&most, d_most, sizeof(unsigned), cudaMemcpyDeviceToHost), device_, "history kernel");
    if (most <= K_) return;
    K_ = most;
  }
}

std::uint64_t CudaTransportExecutor::histories(const transport::TransportKernel& k, const TransportBatch& b,
                                         const Site<double>* d_sites, bool banking) {
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  ull* d_tallies = static_cast<ull*>(tallies_.room(rows * static_cast<std::size_t>(k.slots()) * sizeof(ull), device_));
  if (k.precision == Precision::Float)
    launch<float>(k, b, d_sites, banking, d_tallies, nullptr);
  else
    launch<double>(k, b, d_sites, banking, d_tallies, nullptr);
  if (!banking || b.count == 0) return 0;
  if (b.count > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("an eigenvalue generation of more than 2^31 histories on one GPU");
  const int n = static_cast<int>(b.count);
  const auto* banked = static_cast<const ull*>(banked_.get());
  ull* ends = static_cast<ull*>(ends_.room(b.count * sizeof(ull), device_));
  std::size_t scratch = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, scratch, banked, ends, n), device_, "bank scan sizing");
  check(cub::DeviceScan::InclusiveSum(scan_scratch_.room(scratch, device_), scratch, banked, ends, n), device_, "bank scan");
  ull M = 0;
  check(cudaMemcpy(&M, ends + n - 1, sizeof(ull), cudaMemcpyDeviceToHost), device_, "bank scan");
  auto* out = static_cast<Site<double>*>(packed_.room(std::max<ull>(M, 1) * sizeof(Site<double>), device_));
  pack_kernel<<<grid_of(b.count), kBlock>>>(static_cast<const Site<double>*>(bank_.get()), K_, banked, ends, b.count, out);
  check(cudaGetLastError(), device_, "bank packing");
  return M;
}

void CudaTransportExecutor::run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                                std::vector<Site<double>>* bank) {
  TimedCall call(dev_, b.count);
  check(cudaSetDevice(device_), device_, "device selection");
  EventTimer timer(device_);
  const Site<double>* d_sites = nullptr;
  if (b.sites) {
    auto* s = static_cast<Site<double>*>(uploaded_sites_.room(b.count * sizeof(Site<double>), device_));
    check(cudaMemcpy(s, b.sites, b.count * sizeof(Site<double>), cudaMemcpyHostToDevice), device_, "site upload");
    d_sites = s;
  }
  if (!bank) {
    pieces(k, b, d_sites, tallies);
    call.kernel_ms = timer.ms("transport kernels");
    return;
  }
  const std::uint64_t M = histories(k, b, d_sites, true);
  if (M > 0) {
    const std::size_t at = bank->size();
    bank->resize(at + M);
    check(cudaMemcpy(bank->data() + at, packed_.get(), M * sizeof(Site<double>), cudaMemcpyDeviceToHost), device_, "bank download");
  }
  const std::size_t rows = (b.count + b.chunk - 1) / b.chunk;
  check(cudaMemcpy(tallies, tallies_.get(), rows * static_cast<std::size_t>(k.slots()) * sizeof(ull), cudaMemcpyDeviceToHost),
        device_, "tally download");
  call.kernel_ms = timer.ms("transport kernels");
}

void CudaTransportExecutor::pieces(const transport::TransportKernel& k, const TransportBatch& b, const Site<double>* d_sites,
                                   std::uint64_t* tallies) {
  if (b.count == 0) return;
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  const auto slots = static_cast<std::size_t>(k.slots());
  ull* d_tallies = static_cast<ull*>(tallies_.room(rows * slots * sizeof(ull), device_));
  const std::uint64_t P = std::max<std::uint64_t>(1, std::min({kPieces, rows, b.count / kPieceHistories}));
  if (!copies_) {
    for (auto& s : streams_) s = std::make_unique<Stream>(device_);
    copies_ = std::make_unique<Stream>(device_);
  }
  while (marks_.size() < P) marks_.push_back(std::make_unique<Mark>(device_));
  // Piece p: rows [rows p / P, rows (p + 1) / P), the histories of those chunks,
  // as run_rows gives a device its share (so the same bits).
  const auto first_row = [&](std::uint64_t p) { return rows * p / P; };
  for (std::uint64_t p = 0; p < P; ++p) {
    const std::uint64_t r0 = first_row(p), r1 = first_row(p + 1);
    TransportBatch part = b;
    part.first = b.first + r0 * b.chunk;
    part.count = std::min(b.count, r1 * b.chunk) - r0 * b.chunk;
    const Stream& stream = *streams_[p % 2];
    if (k.precision == Precision::Float)
      launch<float>(k, part, d_sites ? d_sites + r0 * b.chunk : nullptr, false, d_tallies + r0 * slots, stream);
    else
      launch<double>(k, part, d_sites ? d_sites + r0 * b.chunk : nullptr, false, d_tallies + r0 * slots, stream);
    marks_[p]->record(stream);
  }
  for (std::uint64_t p = 0; p < P; ++p) {  // to pageable memory: each returns when its copy is done
    const std::uint64_t r0 = first_row(p), r1 = first_row(p + 1);
    marks_[p]->before(*copies_);
    check(cudaMemcpyAsync(tallies + r0 * slots, d_tallies + r0 * slots, (r1 - r0) * slots * sizeof(ull), cudaMemcpyDeviceToHost,
                          *copies_),
          device_, "tally download");
  }
  check(cudaStreamSynchronize(*copies_), device_, "tally download");
}

std::uint64_t CudaTransportExecutor::generation(const transport::TransportKernel& k, const TransportBatch& b,
                                                const transport::SourceMesh& mesh, double u, std::uint64_t* tallies,
                                                std::uint64_t* counts) {
  TimedCall call(dev_, b.count);
  check(cudaSetDevice(device_), device_, "device selection");
  EventTimer timer(device_);
  const std::size_t site_bytes = b.count * sizeof(Site<double>);
  if (b.sites) {
    check(cudaMemcpy(sites_[current_].room(site_bytes, device_), b.sites, site_bytes, cudaMemcpyHostToDevice), device_,
          "site upload");
    kept_ = b.count;
  }
  else if (b.kept_sites && kept_ != b.count)
    throw std::logic_error("a generation from kept sites the device does not hold");
  const auto* d_sites = b.sites || b.kept_sites ? static_cast<const Site<double>*>(sites_[current_].get()) : nullptr;
  const std::uint64_t M = histories(k, b, d_sites, true);
  const auto bins = static_cast<std::size_t>(mesh.bins());
  ull* d_counts = static_cast<ull*>(counts_.room(bins * sizeof(ull), device_));
  check(cudaMemset(d_counts, 0, bins * sizeof(ull)), device_, "mesh count reset");
  if (M > 0) {
    const auto* bank = static_cast<const Site<double>*>(packed_.get());
    const bool shared = bins <= kSharedSlots;
    const unsigned grid = std::min<unsigned>(grid_of(M), 4u * static_cast<unsigned>(sms_));
    mesh_counts_kernel<<<grid, kBlock, shared ? bins * sizeof(unsigned) : 0>>>(bank, M, mesh, shared, d_counts);
    check(cudaGetLastError(), device_, "bank mesh counts");
    auto* next = static_cast<Site<double>*>(sites_[1 - current_].room(site_bytes, device_));
    draw_kernel<<<grid_of(b.count), kBlock>>>(bank, M, u, b.count, next);
    check(cudaGetLastError(), device_, "next generation's sites");
    current_ = 1 - current_;
    kept_ = b.count;
  }
  const std::size_t rows = (b.count + b.chunk - 1) / b.chunk;
  check(cudaMemcpy(tallies, tallies_.get(), rows * static_cast<std::size_t>(k.slots()) * sizeof(ull), cudaMemcpyDeviceToHost),
        device_, "tally download");
  check(cudaMemcpy(counts, d_counts, bins * sizeof(ull), cudaMemcpyDeviceToHost), device_, "mesh count download");
  call.kernel_ms = timer.ms("transport kernels");
  return M;
}

void CudaTransportExecutor::kept_sites(std::vector<Site<double>>* out) {
  check(cudaSetDevice(device_), device_, "device selection");
  out->resize(kept_);
  if (kept_ > 0)
    check(cudaMemcpy(out->data(), sites_[current_].get(), kept_ * sizeof(Site<double>), cudaMemcpyDeviceToHost), device_,
          "site download");
}

std::unique_ptr<TransportExecutor> make_cuda_transport_executor(Device& device) {
  return std::make_unique<CudaTransportExecutor>(device);
}

}  // namespace mcsim
