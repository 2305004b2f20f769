// Particle transport on the CPU: OpenMP threads take rows of histories; within a
// row one thread runs the histories in order, so its tallies and its part of the
// bank do not depend on the threads.
#include "app/transport_cpu.hpp"

#include <omp.h>

#include "models/transport/transport_kernel.hpp"

namespace mcsim {

namespace {

template <class Real>
struct CpuSink {
  std::uint64_t* tally;
  std::vector<transport::Site<double>>* bank;
  void add(int slot, Real value) { tally[slot] += transport::to_units(value); }
  void add_run(int slot, int n, Real value) {
    const std::uint64_t units = transport::to_units(value);
    for (int i = 0; i < n; ++i) tally[slot + i] += units;
  }
  void add_history(const Real (&scalars)[transport::slot::Scalars]) {
    for (int s = 0; s < transport::slot::Scalars; ++s) add(s, scalars[s]);
  }
  void bank_site(Real pos, int g) { bank->push_back({static_cast<double>(pos), g}); }
};

template <class Real>
void run_on(const transport::TransportArrays<Real>& a, std::uint64_t seed, const TransportBatch& b,
            std::uint64_t* tallies, std::vector<transport::Site<double>>* bank) {
  const transport::TransportView<Real> v = a.view();
  const auto slots = static_cast<std::size_t>(v.slots());
  const std::uint64_t rows = (b.count + b.chunk - 1) / b.chunk;
  std::vector<std::vector<transport::Site<double>>> banks(bank ? rows : 0);
  const Real inv_k = static_cast<Real>(1 / b.k);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(rows); ++j) {
    const auto row = static_cast<std::uint64_t>(j);
    std::uint64_t* tally = tallies + row * slots;
    std::fill(tally, tally + slots, 0);
    CpuSink<Real> sink{tally, bank ? &banks[row] : nullptr};
    const std::uint64_t end = std::min(b.count, (row + 1) * b.chunk);
    for (std::uint64_t i = row * b.chunk; i < end; ++i) {
      transport::Site<Real> site{};
      if (b.sites) site = {static_cast<Real>(b.sites[i].pos), b.sites[i].g};
      transport::run_history(v, seed, b.stream_base + b.first + i, b.sites ? &site : nullptr, inv_k, sink);
    }
  }
  if (bank)
    for (const auto& part : banks) bank->insert(bank->end(), part.begin(), part.end());
}

}  // namespace

void cpu_transport(const transport::TransportKernel& k, const TransportBatch& b, std::uint64_t* tallies,
                   std::vector<transport::Site<double>>* bank) {
  if (k.precision == Precision::Float)
    run_on(k.in_float, k.seed, b, tallies, bank);
  else
    run_on(k.in_double, k.seed, b, tallies, bank);
}

}  // namespace mcsim
