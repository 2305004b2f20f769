// Portfolio risk on the CPU's OpenMP threads.
#include "app/exec/risk/executor.hpp"

#include <omp.h>

#include "models/var/risk_kernel.hpp"

namespace mcsim {

namespace {

// Portfolio risk: OpenMP threads take scenarios; each scenario's loss has its own
// slot and the position sums are exact integers, so neither depends on the threads.
template <class Real>
void losses_on(const var::PortfolioArrays<Real>& a, std::uint64_t seed, std::uint64_t first,
                        std::uint64_t count, double* out) {
  const var::PortfolioView<Real> pf = a.host_view();
#pragma omp parallel
  {
    std::vector<Real> x(static_cast<std::size_t>(a.assets));
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
      rng::Stream stream(seed, first + static_cast<std::uint64_t>(i));
      out[i] = static_cast<double>(var::scenario_loss(pf, stream, x.data(), 1));
    }
  }
}

template <class Real>
void sums_on(const var::PortfolioArrays<Real>& a, std::uint64_t seed, const reduce::FixedUnit& unit,
                      const reduce::FixedUnit& square_unit,
                      const std::vector<std::uint64_t>& scenarios, const std::vector<std::uint32_t>& masks,
                      int bands, reduce::Fixed* sums) {
  const var::PortfolioView<Real> pf = a.host_view();
  const std::size_t units = static_cast<std::size_t>(a.units);
  const std::size_t width = 2 * static_cast<std::size_t>(bands) * units;
#pragma omp parallel
  {
    std::vector<Real> log_spots(static_cast<std::size_t>(a.assets));
    std::vector<double> position_loss(static_cast<std::size_t>(a.positions));  // each revalued once a scenario
    std::vector<reduce::Fixed> mine(width, 0);
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(scenarios.size()); ++i) {
      rng::Stream stream(seed, scenarios[static_cast<std::size_t>(i)]);
      const std::uint32_t mask = masks[static_cast<std::size_t>(i)];
      var::scenario_log_spots(pf, stream, log_spots.data(), 1);
      for (int p = 0; p < a.positions; ++p)
        position_loss[static_cast<std::size_t>(p)] = var::position_loss_at(pf, p, log_spots.data(), 1);
      for (std::size_t u = 0; u < units; ++u) {
        const double l = var::unit_loss(pf, static_cast<int>(u), [&](int p) { return position_loss[static_cast<std::size_t>(p)]; });
        const reduce::Fixed f = unit.to_fixed(l), f2 = square_unit.to_fixed(l * l);
        for (int b = 0; b < bands; ++b)
          if (mask >> b & 1u) {
            reduce::Fixed* at = &mine[2 * static_cast<std::size_t>(b) * units + u];
            at[0] += f;
            at[units] += f2;
          }
      }
    }
#pragma omp critical
    for (std::size_t j = 0; j < width; ++j) sums[j] += mine[j];
  }
}

class CpuRiskExecutor : public RiskExecutor {
 public:
  explicit CpuRiskExecutor(Device& device) : device_(device) {}
  void scenario_losses(const var::RiskKernel& k, std::uint64_t first, std::uint64_t count, double* out) override {
    TimedCall call(device_, count);
    device_.run([&] {
      if (k.precision == Precision::Float) losses_on(k.in_float, k.seed, first, count, out);
      else losses_on(k.in_double, k.seed, first, count, out);
    });
  }
  void position_sums(const var::RiskKernel& k, const std::vector<std::uint64_t>& scenarios,
                     const std::vector<std::uint32_t>& masks, int bands, reduce::Fixed* sums) override {
    TimedCall call(device_, 0);
    device_.run([&] {
      if (k.precision == Precision::Float) sums_on(k.in_float, k.seed, k.unit, k.square_unit, scenarios, masks, bands, sums);
      else sums_on(k.in_double, k.seed, k.unit, k.square_unit, scenarios, masks, bands, sums);
    });
  }

 private:
  Device& device_;
};

}  // namespace

std::unique_ptr<RiskExecutor> make_cpu_risk_executor(Device& device) { return std::make_unique<CpuRiskExecutor>(device); }

std::unique_ptr<RiskExecutor> RiskExecutor::make(Device& d) {
  return executor_for<RiskExecutor>(d, make_cpu_risk_executor, MCSIM_CUDA_MAKER(make_cuda_risk_executor));
}

}  // namespace mcsim
