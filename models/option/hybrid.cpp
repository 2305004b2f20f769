#include "models/option/hybrid.hpp"

#include <algorithm>
#include <cmath>

#include "models/option/heston_step.hpp"
#include "models/option/lsm.hpp"
#include "rng/stream.hpp"

namespace mcsim::option {

rates::HullWhite hull_white_of(const OptionSpec& s) {
  return {s.hull_white ? s.hw_a : 1.0, s.hull_white ? s.hw_sigma : 0.0, s.market.discount};
}

namespace {
// The dates a payoff looks at: an autocallable's observations, a European's maturity.
std::vector<double> observation_dates(const OptionSpec& s) {
  return s.instrument == Instrument::Autocallable ? s.times : std::vector<double>{s.maturity};
}
}  // namespace

std::vector<double> hybrid_step_times(const OptionSpec& s) {
  const std::vector<double> dates = observation_dates(s);
  const double longest = s.maturity / static_cast<double>(s.steps);
  std::vector<double> out;
  double before = 0;
  for (double d : dates) {
    const auto n = static_cast<int>(std::max(1.0, std::ceil((d - before) / longest * (1 - 1e-12))));
    for (int i = 1; i <= n; ++i) out.push_back(i == n ? d : before + (d - before) * i / n);
    before = d;
  }
  return out;
}

TableData hybrid_table(const OptionSpec& s, const std::vector<double>& times) {
  const rates::HullWhite m = hull_white_of(s);
  const std::vector<double> dates = observation_dates(s);
  // Under Heston the rate's correlation is with the spot's part independent of the
  // variance's shock, scaled so the whole spot shock has s.hw_correlation.
  const double rho = s.heston() ? s.hw_correlation / std::sqrt(1 - s.rho * s.rho) : s.hw_correlation;
  std::vector<double> v;
  std::size_t next_date = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double t0 = k ? times[k - 1] : 0.0, t1 = times[k], dt = t1 - t0;
    const rates::RateStep r = rates::rate_step(m, dt);
    // The spot's normal w over the step: its covariances with x's move (rho sigma B)
    // and with I's (rho sigma (dt - B) / a), per unit sqrt(dt), give its loads on
    // z1 and z2; the rest is its own z3.
    const double cov_x = rho * m.sigma * r.b / std::sqrt(dt), cov_i = rho * m.sigma * (dt - r.b) / (m.a * std::sqrt(dt));
    const double e1 = r.sd_x > 0 ? cov_x / r.sd_x : 0.0;
    const double e2 = r.load2 > 0 ? (cov_i - e1 * r.load1) / r.load2 : 0.0;
    const double e3 = std::sqrt(std::max(0.0, 1 - e1 * e1 - e2 * e2));
    // int phi dt less the dividends: the forward's log growth beyond the bond's, with
    // phi's convexity V(0,t)/2; GBM also takes its -sigma^2 dt / 2.
    double move = s.market.log_growth(t1) - s.market.log_growth(t0) + 0.5 * (m.v(0, t1) - m.v(0, t0));
    double vol = 0;
    if (!s.heston()) {
      const double var = s.vol_term.is_flat() ? s.volatility * s.volatility * dt : s.vol_term.variance(t0, t1);
      move -= 0.5 * var;
      vol = std::sqrt(var);
    }
    const double log_fit = m.curve.log_discount(t1) - 0.5 * m.v(0, t1);
    const bool observed = next_date < dates.size() && t1 == dates[next_date];
    v.insert(v.end(), {r.decay, r.sd_x, r.b, r.load1, r.load2, e1, e2, e3, move, vol, log_fit,
                       observed ? static_cast<double>(next_date++) : -1.0});
    if (s.heston()) {
      const auto h = heston_step_fields(s.kappa, s.theta, s.xi, s.rho, dt);
      v.insert(v.end(), h.begin(), h.end());
    }
  }
  return TableData(v);
}

bool hybrid_greeks_on_path(const OptionSpec& s) {
  const std::vector<double> times = hybrid_step_times(s);
  const TableData table = hybrid_table(s, {times.front()});  // the first step's fields
  const KernelTable<double> first = table.view<double>();
  const double own = first[7], deviation = s.heston() ? std::sqrt(s.v0 * (1 - s.rho * s.rho)) : first[9];
  return own > 1e-6 && deviation > 1e-6;
}

namespace {
// The mean of `k`'s price on `paths` paths of kRegressionStreams (a multiple of its
// group), summed in a fixed order: the same on any number of threads.
template <class Path>
double host_price(const Path& k, std::uint64_t seed, std::uint64_t paths) {
  struct Sum {
    double total = 0;
    void add(int output, double x) { total += output == 0 ? x : 0.0; }
  };
  const auto groups = static_cast<std::int64_t>(paths / Path::kGroup);
  std::vector<double> sums(static_cast<std::size_t>(groups));
#pragma omp parallel for schedule(static)
  for (std::int64_t g = 0; g < groups; ++g) {
    rng::Stream stream(seed, kRegressionStreams | static_cast<std::uint64_t>(g));
    Sum sum;
    k.simulate(stream, Path::kGroup, sum);
    sums[static_cast<std::size_t>(g)] = sum.total;
  }
  double total = 0;
  for (double x : sums) total += x;
  return total / static_cast<double>(groups * Path::kGroup);
}
}  // namespace

template <class Real, int Copies, bool Heston, bool Greeks>
HybridPath<Real, Copies, Heston, Greeks> make_hybrid_path(const OptionSpec& s, const StepTables& t, std::uint64_t seed) {
  HybridPath<Real, Copies, Heston, Greeks> k{};
  const bool autocall = s.instrument == Instrument::Autocallable;
  k.payoff = autocall ? HybridPayoff::Autocallable : HybridPayoff::European;
  k.steps = static_cast<int>(t.path_steps);
  k.observations = autocall ? static_cast<int>(s.times.size()) : 1;
  k.step_data = t.hybrid.view<Real>();
  k.spot = static_cast<Real>(s.spot);
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  // Levels on the path's log(S / spot): log(fraction x initial_spot / spot).
  const double shift = autocall ? std::log(s.spot / s.initial_spot) : 0.0;
  k.log_moneyness = static_cast<Real>(shift);
  const auto level = [&](double fraction) { return static_cast<Real>(fraction > 0 ? std::log(fraction) - shift : -1e30); };
  k.log_call = level(s.autocall_barrier), k.log_coupon = level(s.coupon_barrier), k.log_knock_in = level(s.knock_in);
  k.coupon = static_cast<Real>(s.coupon);
  k.memory = s.memory;
  // The step's coefficients and carry come from the table at each step.
  if constexpr (Heston) k.heston = make_heston_step<Real>(s.qe, s.v0, s.kappa, s.theta, s.xi, s.rho, 0.0, 0.0);
  if constexpr (Greeks) {
    constexpr std::uint64_t kBaselinePaths = 8192;
    k.baseline = static_cast<Real>(host_price(make_hybrid_path<double, 1, Heston, false>(s, t, seed), seed, kBaselinePaths));
  }
  return k;
}

#define MCSIM_HYBRID(Real, Copies, Heston)                                                                     \
  template HybridPath<Real, Copies, Heston, false> make_hybrid_path<Real, Copies, Heston, false>(const OptionSpec&, \
                                                                                               const StepTables&, std::uint64_t); \
  template HybridPath<Real, Copies, Heston, true> make_hybrid_path<Real, Copies, Heston, true>(const OptionSpec&,   \
                                                                                             const StepTables&, std::uint64_t);
MCSIM_HYBRID(float, 1, false)
MCSIM_HYBRID(double, 1, false)
MCSIM_HYBRID(float, 2, false)
MCSIM_HYBRID(double, 2, false)
MCSIM_HYBRID(float, 1, true)
MCSIM_HYBRID(double, 1, true)
MCSIM_HYBRID(float, 2, true)
MCSIM_HYBRID(double, 2, true)
#undef MCSIM_HYBRID

}  // namespace mcsim::option
