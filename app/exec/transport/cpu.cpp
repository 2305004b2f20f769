// Particle transport on the CPU: OpenMP threads take rows of histories. A row's
// histories run in kLanes lanes, as a GPU warp runs them: each step draws every
// lane's flight block in one vectorised loop (Philox and the logarithm, the bulk
// of a flight's arithmetic), then moves each lane one flight; a lane whose history
// ends takes the row's next. Tallies are integer sums, so the order in which the
// lanes score does not matter, and the row's fission sites are put back in history
// order at its end: a row's tallies and sites do not depend on the threads.
#include "app/exec/transport/executor.hpp"

#include <omp.h>

#include <stdexcept>
#include <utility>

#include "app/exec/cpu_clones.hpp"
#include "models/transport/transport_kernel.hpp"

namespace mcsim {

namespace {

using transport::Site;

constexpr int kLanes = 8;

template <class Real>
struct CpuSink {
  std::uint64_t* tally;
  // Runs of track-length mesh slots as differences: adding u to [s, s + n) is
  // runs[s - Scalars] += u, runs[s - Scalars + n] -= u; the row's prefix sums give
  // each slot its runs.
  std::uint64_t* runs;
  std::vector<std::pair<std::uint64_t, Site<double>>>* sites;  // (history, site), as banked
  std::uint64_t history = 0;                                   // the history now moving
  void add(int slot, Real value) { tally[slot] += transport::to_units(value); }
  void add_run(int slot, int n, Real value) {
    const std::uint64_t units = transport::to_units(value);
    runs[slot - transport::slot::Scalars] += units;
    runs[slot - transport::slot::Scalars + n] -= units;
  }
  void add_history(const Real (&scalars)[transport::slot::Scalars]) {
    for (int s = 0; s < transport::slot::Scalars; ++s) add(s, scalars[s]);
  }
  template <class Pos>
  void bank_site(Pos pos, int g) {
    sites->push_back({history, transport::site_at(pos, g)});
  }
};

// The shapes a row's code is compiled for.
enum RowShape : int { kSlab, kSphere, kCsg };

// Histories [lo, hi) of the batch into one row's tallies; their sites, in history
// order, onto *bank. The job's mode and shape are constants here, as in the GPU's
// kernel, so the code the job does not use drops out.
template <class Real, bool Eigenvalue, int Shape>
MCSIM_CPU_CLONES void run_row(transport::TransportView<Real> v, std::uint64_t seed, const TransportBatch& b, std::uint64_t lo,
                              std::uint64_t hi, Real inv_k, std::uint64_t* tally, std::vector<Site<double>>* bank) {
  v.eigenvalue = Eigenvalue, v.sphere = Shape == kSphere, v.csg = Shape == kCsg;
  const int slots = v.slots(), mesh = v.mesh_slots();
  std::fill(tally, tally + slots, 0);
  std::vector<std::uint64_t> runs(static_cast<std::size_t>(mesh) + 1, 0);
  std::vector<std::pair<std::uint64_t, Site<double>>> sites;
  CpuSink<Real> sink{tally, runs.data(), &sites};

  transport::Histories<Real> h[kLanes];
  std::uint64_t index[kLanes] = {};  // each lane's history, in the batch
  std::uint64_t next = lo;
  const auto begin = [&](int j) {
    index[j] = next;
    transport::Site<Real> site{};
    if (b.sites) site = transport::site_in<Real>(b.sites[next]);
    h[j].start(v, seed, b.stream_base + b.first + next, b.sites ? &site : nullptr);
    ++next;
  };
  const rng::Stream stream(seed, 0);  // the job's key, for the lanes' counters
  int live = 0;  // lanes [0, live) have a history
  while (live < kLanes && next < hi) begin(live++);
  while (live > 0) {
    // Every lane's flight block, in one loop over the lanes' counters (32-bit
    // words, so the loop vectorises at full width).
    std::uint32_t c[4][kLanes];
    for (int j = 0; j < kLanes; ++j) {
      const rng::Words4 w = h[j].u.stream.counter();
      c[0][j] = w.w[0], c[1][j] = w.w[1], c[2][j] = w.w[2], c[3][j] = w.w[3];
    }
    Real e[kLanes], z0[kLanes], z1[kLanes], z2[kLanes];
    for (int j = 0; j < kLanes; ++j) {
      rng::Stream s = stream;
      s.set_counter({{c[0][j], c[1][j], c[2][j], c[3][j]}});
      const transport::FlightBlock<Real> f = transport::flight_block<Real>(s);
      e[j] = f.exponential, z0[j] = f.z[0], z1[j] = f.z[1], z2[j] = f.z[2];
      const rng::Words4 after = s.counter();
      c[0][j] = after.w[0], c[1][j] = after.w[1];
    }
    for (int j = 0; j < kLanes; ++j) {
      h[j].u.stream.set_counter({{c[0][j], c[1][j], c[2][j], c[3][j]}});
      h[j].u.load({e[j], {z0[j], z1[j], z2[j]}});
    }
    for (int j = 0; j < live;) {
      sink.history = index[j];
      if (h[j].flight_on_block(v, inv_k, sink)) {
        ++j;
      } else if (next < hi) {
        begin(j++);
      } else {  // none left to start: the last lane takes this one's place, and moves now
        --live;
        h[j] = h[live], index[j] = index[live];
      }
    }
  }

  // The track-length mesh's runs.
  std::uint64_t sum = 0;
  for (int s = 0; s < mesh; ++s) {
    sum += runs[static_cast<std::size_t>(s)];
    tally[transport::slot::Scalars + s] += sum;
  }
  if (!bank) return;
  // Sites in history order (one history's in the order banked): a counting sort.
  std::vector<std::size_t> at(static_cast<std::size_t>(hi - lo) + 1, 0);
  for (const auto& [history, site] : sites) ++at[history - lo + 1];
  for (std::size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
  const std::size_t base = bank->size();
  bank->resize(base + sites.size());
  for (const auto& [history, site] : sites) (*bank)[base + at[history - lo]++] = site;
}

template <class Real>
void run_on(const transport::TransportArrays<Real>& a, std::uint64_t seed, const TransportBatch& b,
            std::uint64_t* tallies, std::vector<Site<double>>* bank) {
  const transport::TransportView<Real> v = a.view();
  const auto slots = static_cast<std::size_t>(v.slots());
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  std::vector<std::vector<Site<double>>> banks(bank ? rows : 0);
  const Real inv_k = static_cast<Real>(1 / b.k);
  const auto row_of = v.csg ? (v.eigenvalue ? run_row<Real, true, kCsg> : run_row<Real, false, kCsg>)
                     : v.eigenvalue ? (v.sphere ? run_row<Real, true, kSphere> : run_row<Real, true, kSlab>)
                                    : (v.sphere ? run_row<Real, false, kSphere> : run_row<Real, false, kSlab>);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(rows); ++j) {
    const auto row = static_cast<std::uint64_t>(j);
    row_of(v, seed, b, row * b.chunk, std::min(b.count, (row + 1) * b.chunk), inv_k, tallies + row * slots,
            bank ? &banks[row] : nullptr);
  }
  if (bank)
    for (const auto& part : banks) bank->insert(bank->end(), part.begin(), part.end());
}

class CpuTransportExecutor : public TransportExecutor {
 public:
  explicit CpuTransportExecutor(Device& device) : device_(device) {}
  void run(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
           std::vector<Site<double>>* bank) override {
    TimedCall call(device_, b.count);
    device_.run([&] {
      if (k.precision == Precision::Float) run_on(k.in_float, k.seed, b, tallies, bank);
      else run_on(k.in_double, k.seed, b, tallies, bank);
    });
  }

 private:
  Device& device_;
};

}  // namespace

std::unique_ptr<TransportExecutor> make_cpu_transport_executor(Device& device) {
  return std::make_unique<CpuTransportExecutor>(device);
}

std::unique_ptr<TransportExecutor> TransportExecutor::make(Device& d) {
  return executor_for<TransportExecutor>(d, make_cpu_transport_executor, MCSIM_CUDA_MAKER(make_cuda_transport_executor));
}

// Executors that keep no sites run eigenvalue generations through run().
std::uint64_t TransportExecutor::generation(const transport::TransportKernel&, const TransportBatch&,
                                            const transport::SourceMesh&, double, std::uint64_t*, std::uint64_t*) {
  throw std::logic_error("generation() on an executor that keeps no sites");
}
void TransportExecutor::kept_sites(std::vector<Site<double>>*) {
  throw std::logic_error("kept_sites() on an executor that keeps no sites");
}

}  // namespace mcsim
