#include "models/option/option_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "models/option/analytic.hpp"
#include "models/option/basket_kernel.hpp"
#include "models/option/hybrid.hpp"
#include "models/option/lsm.hpp"
#include "models/option/market_inputs.hpp"
#include "models/option/spec_inputs.hpp"
#include "reduce/moments.hpp"

namespace mcsim::option {

namespace {

std::string number(double x) { return fmt::format("{:g}", x); }

// The jumps of a step of dt years; the Poisson inversion stops where the
// probability of more jumps is below 1e-15.
template <class Real>
JumpStep<Real> make_jump_step(const Jumps& j, double dt) {
  const double rate = j.intensity * dt;
  double p = std::exp(-rate), left = 1 - p;
  int most = 0;
  while (left > 1e-15 && most < 1000) left -= p *= rate / ++most;
  return {static_cast<Real>(std::exp(-rate)), static_cast<Real>(rate), static_cast<Real>(-rate * j.compensator()),
          static_cast<Real>(j.mean), static_cast<Real>(j.vol), most};
}

template <class Real, int Copies, bool Control, bool Sobol = false, Dynamics D = Dynamics::Gbm, bool Greeks = false,
          int Buckets = 0>
StepPath<Real, Copies, Control, Sobol, D, Greeks, Buckets> make_step_path(const OptionSpec& s, const KernelSetup& setup,
                                                                          const StepTables& tables) {
  StepPath<Real, Copies, Control, Sobol, D, Greeks, Buckets> k{};
  const double mu = s.rate - s.dividend - 0.5 * s.volatility * s.volatility;
  k.payoff = s.instrument == Instrument::Lookback
                 ? (s.strike_type == StrikeType::Floating ? StepPayoff::LookbackFloating : StepPayoff::LookbackFixed)
             : s.instrument == Instrument::Asian
                 ? (s.average == Average::Geometric ? StepPayoff::GeometricAverage : StepPayoff::ArithmeticAverage)
             : s.instrument == Instrument::Digital      ? StepPayoff::Digital
             : s.instrument == Instrument::ForwardStart ? StepPayoff::ForwardStart
             : s.instrument == Instrument::Cliquet      ? StepPayoff::Cliquet
                                                        : StepPayoff::European;
  if constexpr (decltype(k)::Local)  // the walks its dispatch compiles
    if (k.payoff == StepPayoff::ForwardStart || k.payoff == StepPayoff::Cliquet ||
        (Greeks && (k.payoff == StepPayoff::Digital || s.knock != KnockKind::None)))
      throw std::logic_error("a local volatility's kernel has no walk for this payoff");
  const auto times = fixing_times(s);
  k.steps = k.fixings = static_cast<int>(times.size());
  if constexpr (D == Dynamics::CashGbm) k.steps = static_cast<int>(tables.path_steps);
  k.log_spot = static_cast<Real>(std::log(s.spot));
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  k.cash = static_cast<Real>(s.cash);
  const double discount = s.term_structure() ? s.market.discount.discount(s.maturity) : std::exp(-s.rate * s.maturity);
  k.discount = static_cast<Real>(discount);
  const double sign = s.call ? 1 : -1, in_money = sign * (s.spot - s.strike);
  k.start_slope = static_cast<Real>(in_money > 0 ? sign * discount : in_money == 0 ? 0.5 * sign * discount : 0.0);
  k.equal_steps = s.times.empty() && !s.term_structure();
  const double dt = s.maturity / static_cast<double>(times.size());
  k.drift_dt = static_cast<Real>(mu * dt);
  k.vol_sqrt_dt = static_cast<Real>(s.volatility * std::sqrt(dt));
  k.step_data = tables.steps.view<Real>();
  k.local_vol = tables.local_vol.view<Real>();
  k.bucket_data = tables.bucket_data.view<Real>();
  k.bucket_rows = tables.bucket_rows.view<Real>();
  for (std::size_t b = 0; b < tables.bucket_discount.size() && b < static_cast<std::size_t>(Buckets); ++b)
    k.bucket_discount[b] = static_cast<Real>(tables.bucket_discount[b]);
  if (s.local_vol) {
    k.lv_nodes = s.local_vol->nodes;
    k.local.inv_dk = static_cast<Real>(1 / s.local_vol->dk);
    k.local.last = static_cast<Real>(s.local_vol->nodes - 1.5);
    k.local.curve0 = static_cast<Real>(market::curvature_at(*s.local_vol, 0, std::log(s.spot)));
  }
  k.local.cev_sigma = static_cast<Real>(s.cev_sigma);
  k.local.cev_power = static_cast<Real>(s.cev_beta - 1);
  k.knock = s.knock == KnockKind::None      ? Knock::None
            : s.knock == KnockKind::DownOut ? Knock::DownOut
            : s.knock == KnockKind::UpOut   ? Knock::UpOut
            : s.knock == KnockKind::DownIn  ? Knock::DownIn
                                            : Knock::UpIn;
  k.continuous = s.continuous;
  k.log_barrier = static_cast<Real>(s.knock == KnockKind::None ? 0.0 : std::log(s.barrier));
  k.rebate_pv = static_cast<Real>(s.rebate * discount);
  k.control = s.instrument == Instrument::Asian ? ControlKind::GeometricAsian : ControlKind::European;
  k.start_step = 0;  // the forward start's dates are {start, maturity}
  if constexpr (D == Dynamics::CashGbm) {  // ... with ex-dates before the start
    const auto grid = cash_steps(s);
    while (!grid[static_cast<std::size_t>(k.start_step)].fixing) ++k.start_step;
  }
  k.moneyness = static_cast<Real>(s.moneyness);
  k.inv_spot = static_cast<Real>(1 / s.spot);
  k.inv_vol = static_cast<Real>(s.vol_term.is_flat() && s.volatility > 0 ? 1 / s.volatility : 0.0);
  k.maturity = static_cast<Real>(s.maturity);
  // No bound is a bound no return reaches (a float's infinity would do, but not under fast maths).
  const auto bound = [](double v) { return static_cast<Real>(std::isinf(v) ? (v > 0 ? 1e30 : -1e30) : v); };
  k.local_floor = bound(s.local_floor), k.local_cap = bound(s.local_cap);
  k.global_floor = bound(s.global_floor), k.global_cap = bound(s.global_cap);
  if constexpr (Sobol) k.plan = make_bridge_plan<Real>(k.steps, setup.chunk_paths, setup.seed);
  if constexpr (D == Dynamics::Heston || D == Dynamics::Bates)
    k.heston = make_heston_step<Real>(s.qe, s.v0, s.kappa, s.theta, s.xi, s.rho, dt, (s.rate - s.dividend) * dt);
  if constexpr (D == Dynamics::Merton || D == Dynamics::Bates) k.jumps = make_jump_step<Real>(s.jumps, dt);
  return k;
}

// A stepped path's per-step data: GBM's drift and volatility per step where they
// are not all equal (given fixing times, term structures), with `greek_rows` also
// the step's length and its volatility's tangent in a shift of every node
// (StepPath::kGreekRows); a local volatility's carry, dt / 2, sqrt(dt) and grid
// origin per step, and Dupire's grid by cells.
StepTables make_step_tables(const OptionSpec& s, bool greek_rows) {
  StepTables out;
  if (s.hybrid()) {
    const auto times = hybrid_step_times(s);
    out.hybrid = hybrid_table(s, times);
    out.path_steps = times.size();
    return out;
  }
  if (!s.stepped() || s.multi_asset() || s.heston()) return out;
  if (s.market.has_cash()) {  // GBM: drift, volatility, cash paid, fixing or not
    const auto grid = cash_steps(s);
    std::vector<double> v;
    double t0 = 0;
    for (const CashStep& c : grid) {
      const double var = s.vol_term.variance(t0, c.time);
      v.insert(v.end(), {s.market.log_growth(c.time) - s.market.log_growth(t0) - 0.5 * var, std::sqrt(var), c.cash,
                         c.fixing ? 1.0 : 0.0});
      t0 = c.time;
    }
    out.steps = TableData(v);
    out.path_steps = grid.size();
    return out;
  }
  const bool gbm_table = s.gbm_diffusion() && (!s.times.empty() || s.term_structure());
  if (!s.local() && !gbm_table) return out;
  const auto times = fixing_times(s);
  const double mu = s.rate - s.dividend - 0.5 * s.volatility * s.volatility;
  const market::Market& m = s.market;
  const double k_lo = s.local_vol ? s.local_vol->k_lo : 0.0;
  std::vector<double> v;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t0 = i ? times[i - 1] : 0.0, t1 = times[i], step = t1 - t0;
    if (s.local()) {
      const double origin = s.local_vol ? (s.local_vol->log_forward[i] + k_lo) / s.local_vol->dk + 0.5 : 0.0;
      v.insert(v.end(), {m.log_growth(t1) - m.log_growth(t0), 0.5 * step, std::sqrt(step), origin});
    } else if (!s.term_structure()) {
      v.insert(v.end(), {mu * step, s.volatility * std::sqrt(step)});
      if (greek_rows) v.insert(v.end(), {step, std::sqrt(step)});
    } else {
      const double var = s.vol_term.variance(t0, t1);
      v.insert(v.end(), {m.log_growth(t1) - m.log_growth(t0) - 0.5 * var, std::sqrt(var)});
      if (greek_rows) {  // d sqrt(var) / d shift: the nodes' weights in var over 2 sqrt(var)
        const auto w1 = s.vol_term.node_weights(t1), w0 = s.vol_term.node_weights(t0);
        double dvar = 0;
        for (std::size_t n = 0; n < w1.size(); ++n) dvar += w1[n] - w0[n];
        v.insert(v.end(), {step, dvar / (2 * std::sqrt(var))});
      }
    }
  }
  out.steps = TableData(v);
  if (s.local_vol) out.local_vol = TableData(market::cell_rows(*s.local_vol));
  return out;
}

template <class Real, bool Greeks, bool Antithetic>
EuropeanPath<Real, Greeks, Antithetic> make_path(const OptionSpec& s) {
  EuropeanPath<Real, Greeks, Antithetic> k{};
  k.log_drift = static_cast<Real>(std::log(s.spot) +
                                  (s.rate - s.dividend - 0.5 * s.volatility * s.volatility) * s.maturity);
  k.vol_sqrt_t = static_cast<Real>(s.volatility * std::sqrt(s.maturity));
  k.strike = static_cast<Real>(s.strike);
  k.discount = static_cast<Real>(std::exp(-s.rate * s.maturity));
  k.cash = static_cast<Real>(s.cash);
  k.sign = s.call ? Real(1) : Real(-1);
  k.digital = s.instrument == Instrument::Digital;
  k.spot = static_cast<Real>(s.spot);
  k.volatility = static_cast<Real>(s.volatility);
  k.maturity = static_cast<Real>(s.maturity);
  k.root_t = static_cast<Real>(std::sqrt(s.maturity));
  return k;
}

template <class Real, bool Greeks>
AmericanPath<Real, Greeks> make_american_path(const OptionSpec& s, std::uint64_t seed) {
  AmericanPath<Real, Greeks> k{};
  const int n = static_cast<int>(s.steps);
  const double dt = s.maturity / n;
  const ExerciseRule rule = fit_exercise_rule(
      {s.spot, s.strike, s.rate, s.dividend, s.volatility, s.maturity, s.call, n, s.regression_paths, seed});
  k.dates = n;
  k.log_spot = static_cast<Real>(std::log(s.spot));
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  k.drift_dt = static_cast<Real>((s.rate - s.dividend - 0.5 * s.volatility * s.volatility) * dt);
  k.vol_sqrt_dt = static_cast<Real>(s.volatility * std::sqrt(dt));
  for (int i = 0; i < n; ++i) {
    k.discount_at[i] = static_cast<Real>(std::exp(-s.rate * (i + 1) * dt));
    constexpr int kBasis = AmericanPath<Real>::kBasis;
    if (i + 1 < n)  // the last date has no continuation
      for (int b = 0; b < kBasis; ++b) k.beta[i][b] = static_cast<Real>(rule.beta[static_cast<std::size_t>(i) * kBasis + b]);
  }
  k.antithetic = s.antithetic;
  k.inv_spot = static_cast<Real>(1 / s.spot);
  k.volatility = static_cast<Real>(s.volatility);
  k.sqrt_dt = static_cast<Real>(std::sqrt(dt));
  k.dt = static_cast<Real>(dt);
  return k;
}

}  // namespace

OptionModel::OptionModel(OptionSpec spec) : spec_(std::move(spec)) {
  // The market inputs an average scores on its path first: path_greeks() asks for them.
  PathBuckets buckets;
  const bool buckets_on_path = path_buckets(spec_, &buckets);
  for (const MarketInput& in : buckets.inputs) tables_.bucket_greeks.push_back(in.greek);
  // A GBM path that scores its Greeks reads its steps' lengths from the table.
  const bool greek_rows = spec_.gbm() && spec_.stepped() && !spec_.sobol && !spec_.control_variate &&
                          !spec_.market.has_cash() && !spec_.multi_asset() && !spec_.early_exercise() &&
                          !path_greeks().empty();
  std::vector<std::string> bucket_greeks = std::move(tables_.bucket_greeks);
  tables_ = make_step_tables(spec_, greek_rows);
  tables_.bucket_greeks = std::move(bucket_greeks);
  if (buckets_on_path)
    tables_.bucket_data = TableData(buckets.table), tables_.bucket_rows = TableData(buckets.rows),
    tables_.bucket_discount = buckets.discount;
}

// The kernel's outputs, in its order: the price, then a control and its product
// with the price, or the path Greeks; last, the first path of each antithetic pair
// alone (kernels whose pairs are chosen at run time always score it).
std::vector<std::string> OptionModel::path_outputs() const {
  const OptionSpec& s = spec_;
  std::vector<std::string> out{"price"};
  if (s.control_variate) out.insert(out.end(), {"control", "price_x_control"});
  if (!path_greeks().empty()) {
    const auto greeks = path_greek_outputs();
    out.insert(out.end(), greeks.begin(), greeks.end());
  }
  const bool pairs_at_run_time = (s.multi_asset() || s.early_exercise()) && !s.basket_steps();
  if (pairs_at_run_time || s.antithetic) out.push_back("price_single");
  return out;
}

// The tally: the paths' outputs, then with Sobol points each chunk's values as one
// sample of an independent scrambling (chunk_values in StepPath).
std::vector<std::string> OptionModel::outputs() const {
  std::vector<std::string> out = path_outputs();
  if (spec_.sobol)
    for (std::size_t i = 0, n = out.size(); i < n; ++i) out.push_back("chunk_" + out[i]);
  return out;
}

Summary OptionModel::summarise(const std::vector<double>& total) const {
  const auto names = outputs();
  const auto all = reduce::estimates(total, names);
  Summary out;
  if (spec_.sobol) {
    // Values and errors from the chunks, each an independent scrambling; the paths'
    // own variance says what plain Monte Carlo on as many paths would have given.
    const std::size_t k = names.size() / 2;
    const std::vector<double> chunks(total.begin() + static_cast<std::ptrdiff_t>(reduce::kMomentFields * k), total.end());
    const auto per_chunk = reduce::estimates(chunks, path_outputs());
    const double plain_var = all[0].std_error * all[0].std_error;
    reduce::Estimate sobol = per_chunk[0];
    if (spec_.control_variate) {
      const auto cv = reduce::control_variate(chunks, 0, 1, 2, control_mean(spec_), "price");
      sobol.name = "price_without_control";
      out.estimates = {cv.estimate, sobol, per_chunk[1]};
      out.diagnostics = {{"variance_reduction_factor", plain_var / (cv.estimate.std_error * cv.estimate.std_error)},
                         {"control_beta", cv.beta}};
    } else {
      out.estimates = {sobol};
      out.diagnostics = {{"variance_reduction_factor", plain_var / (sobol.std_error * sobol.std_error)}};
    }
    for (auto& e : out.estimates) e.samples = all[0].samples;  // paths, not chunks
    out.diagnostics.emplace_back("sobol_variance_reduction_factor", plain_var / (sobol.std_error * sobol.std_error));
    out.diagnostics.emplace_back("scramblings", static_cast<double>(per_chunk[0].samples));
    return out;
  }
  if (spec_.control_variate) {
    // Tally: the payoff Y, the control C, and Y C; the estimate is Y corrected by C.
    const auto cv = reduce::control_variate(total, 0, 1, 2, control_mean(spec_), "price");
    reduce::Estimate without = all[0];
    without.name = "price_without_control";
    out.estimates = {cv.estimate, without, all[1]};
    out.diagnostics = {{"variance_reduction_factor", cv.variance_reduction}, {"control_beta", cv.beta}};
  } else {
    out.estimates.push_back(all[0]);
  }
  // The path scores every Greek it can; report those asked for (delta_<asset> is a delta).
  const auto wanted = path_greeks();
  const auto asked = [&](const std::string& name) {
    return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& g) {
      return name == g || (spec_.multi_asset() && name.rfind(g + "_", 0) == 0);
    });
  };
  // A European on term structures scores its flat equivalents' Greeks: a parallel
  // shift's, or a bucket's, is the flat Greek times d(flat input) / d(input).
  const auto as_input = [&](reduce::Estimate e, const MarketInput& in) {
    const double f = flat_factor(spec_, in);
    e.name = in.greek;
    e.value *= f, e.std_error *= std::fabs(f), e.ci_low *= f, e.ci_high *= f;
    if (f < 0) std::swap(e.ci_low, e.ci_high);
    return e;
  };
  MarketInput in;
  for (const auto& e : all)
    if (asked(e.name)) out.estimates.push_back(flat_path() && parallel_input(spec_, e.name, &in) ? as_input(e, in) : e);
  if (std::find(wanted.begin(), wanted.end(), "buckets") != wanted.end())
    for (const MarketInput& b : bucket_inputs(spec_)) {
      if (flat_path()) {
        for (const auto& e : all)
          if (e.name == flat_greek(b)) out.estimates.push_back(as_input(e, b));
        continue;
      }
      // A stepped payoff's slot; an input that moves none of its steps moves nothing.
      const auto& slots = tables_.bucket_greeks;
      const auto slot = std::find(slots.begin(), slots.end(), b.greek);
      reduce::Estimate e = reduce::normal_estimate(b.greek, 0.0, 0.0, all[0].samples);
      const std::string output = slot == slots.end() ? "" : "bucket_" + std::to_string(slot - slots.begin());
      for (const auto& x : all)
        if (x.name == output) e = x, e.name = b.greek;
      out.estimates.push_back(e);
    }
  if (spec_.antithetic)
    out.diagnostics.emplace_back("antithetic_variance_reduction_factor",
                                 reduce::antithetic_variance_reduction(total, 0, static_cast<int>(names.size()) - 1));
  return out;
}

const ExerciseRule& OptionModel::walked_rule(std::uint64_t seed) const {
  const std::lock_guard<std::mutex> lock(fits_->mutex);
  const auto found = fits_->rules.find(seed);
  if (found != fits_->rules.end()) return found->second;
  return fits_->rules[seed] = fit_walked_basket(spec_, seed, !path_greeks().empty());
}

// A local volatility is held as a function of time and spot by the job's Greeks:
// a rerun with a bumped spot or rate walks the base job's Dupire grid where the base
// built it, its carry and spot its own.
std::pair<const OptionSpec*, const StepTables*> OptionModel::held_grid(const KernelSetup& setup) const {
  const auto* base = dynamic_cast<const OptionModel*>(setup.fitted_by);
  if (!base || !base->spec_.local_vol || fixing_times(base->spec_) != fixing_times(spec_))
    throw std::logic_error("a rerun holds the local volatility of a job on other steps");
  const std::lock_guard<std::mutex> lock(held_->mutex);
  if (!held_->tables) {
    held_->spec = spec_;
    held_->spec->local_vol = base->spec_.local_vol;
    held_->tables = make_step_tables(*held_->spec, false);
  }
  return {&*held_->spec, &*held_->tables};
}

PathKernel OptionModel::kernel(const KernelSetup& setup) const {
  const Precision precision = setup.precision;
  const std::uint64_t seed = setup.seed;
  if (spec_.basket_steps()) return basket_exercise_kernel(spec_, precision, walked_rule(seed), !path_greeks().empty());
  if (spec_.early_exercise()) {
    const bool f = precision == Precision::Float;
    if (!path_greeks().empty())
      return f ? PathKernel(make_american_path<float, true>(spec_, seed)) : PathKernel(make_american_path<double, true>(spec_, seed));
    return f ? PathKernel(make_american_path<float, false>(spec_, seed)) : PathKernel(make_american_path<double, false>(spec_, seed));
  }
  if (spec_.multi_asset()) return basket_kernel(spec_, precision, !path_greeks().empty());
  const StepTables& t = tables_;
  if (spec_.hybrid()) {
    const bool f = precision == Precision::Float, a = spec_.antithetic;
    const auto with = [&](auto heston, auto greeks) -> PathKernel {
      constexpr bool H = decltype(heston)::value, G = decltype(greeks)::value;
      if (a) return f ? PathKernel(make_hybrid_path<float, 2, H, G>(spec_, t, seed)) : PathKernel(make_hybrid_path<double, 2, H, G>(spec_, t, seed));
      return f ? PathKernel(make_hybrid_path<float, 1, H, G>(spec_, t, seed)) : PathKernel(make_hybrid_path<double, 1, H, G>(spec_, t, seed));
    };
    const bool greeks = !path_greeks().empty();
    if (spec_.heston()) return greeks ? with(std::true_type{}, std::true_type{}) : with(std::true_type{}, std::false_type{});
    return greeks ? with(std::false_type{}, std::true_type{}) : with(std::false_type{}, std::false_type{});
  }
  // Paths other than GBM's on its fixings: plain or antithetic, no control or Sobol
  // points; Heston's and a local volatility's with their path Greeks. A rerun bumped
  // from a local volatility job walks that job's grid (held_grid).
  const auto walked = spec_.local_vol && setup.fitted_by ? held_grid(setup) : std::pair{&spec_, &t};
  const auto with = [&, s = walked.first, st = walked.second](auto dynamics) -> PathKernel {
    constexpr Dynamics D = decltype(dynamics)::value;
    const bool f = precision == Precision::Float;
    if constexpr (D == Dynamics::LocalVol)
      if (!tables_.bucket_greeks.empty() && !setup.fitted_by) {  // and its market inputs' Greeks
        constexpr int B = kLocalPathBuckets;
        if (s->antithetic) return f ? PathKernel(make_step_path<float, 2, false, false, D, true, B>(*s, setup, *st))
                                    : PathKernel(make_step_path<double, 2, false, false, D, true, B>(*s, setup, *st));
        return f ? PathKernel(make_step_path<float, 1, false, false, D, true, B>(*s, setup, *st))
                 : PathKernel(make_step_path<double, 1, false, false, D, true, B>(*s, setup, *st));
      }
    if constexpr (D == Dynamics::Heston || D == Dynamics::LocalVol || D == Dynamics::Cev)
      if (!path_greeks().empty()) {
        if (s->antithetic) return f ? PathKernel(make_step_path<float, 2, false, false, D, true>(*s, setup, *st))
                                    : PathKernel(make_step_path<double, 2, false, false, D, true>(*s, setup, *st));
        return f ? PathKernel(make_step_path<float, 1, false, false, D, true>(*s, setup, *st))
                 : PathKernel(make_step_path<double, 1, false, false, D, true>(*s, setup, *st));
      }
    if (s->antithetic) return f ? PathKernel(make_step_path<float, 2, false, false, D>(*s, setup, *st))
                                : PathKernel(make_step_path<double, 2, false, false, D>(*s, setup, *st));
    return f ? PathKernel(make_step_path<float, 1, false, false, D>(*s, setup, *st))
             : PathKernel(make_step_path<double, 1, false, false, D>(*s, setup, *st));
  };
  if (!spec_.gbm()) {  // Heston, local volatilities, jumps
    if (spec_.heston() && spec_.jumping) return with(std::integral_constant<Dynamics, Dynamics::Bates>{});
    if (spec_.heston()) return with(std::integral_constant<Dynamics, Dynamics::Heston>{});
    if (spec_.jumping) return with(std::integral_constant<Dynamics, Dynamics::Merton>{});
    if (spec_.process == Process::LocalVol) return with(std::integral_constant<Dynamics, Dynamics::LocalVol>{});
    return with(std::integral_constant<Dynamics, Dynamics::Cev>{});
  }
  if (spec_.market.has_cash()) return with(std::integral_constant<Dynamics, Dynamics::CashGbm>{});  // GBM paying cash
  if (spec_.stepped()) {
    const bool f = precision == Precision::Float, a = spec_.antithetic, c = spec_.control_variate;
    const OptionSpec& s = spec_;
    if (spec_.sobol) {
      if (c) return f ? PathKernel(make_step_path<float, 1, true, true>(s, setup, t)) : PathKernel(make_step_path<double, 1, true, true>(s, setup, t));
      return f ? PathKernel(make_step_path<float, 1, false, true>(s, setup, t)) : PathKernel(make_step_path<double, 1, false, true>(s, setup, t));
    }
    if (c) {
      if (a) return f ? PathKernel(make_step_path<float, 2, true>(s, setup, t)) : PathKernel(make_step_path<double, 2, true>(s, setup, t));
      return f ? PathKernel(make_step_path<float, 1, true>(s, setup, t)) : PathKernel(make_step_path<double, 1, true>(s, setup, t));
    }
    if (!tables_.bucket_greeks.empty()) {  // and the market inputs' Greeks
      constexpr int B = kPathBuckets;
      if (a) return f ? PathKernel(make_step_path<float, 2, false, false, Dynamics::Gbm, true, B>(s, setup, t))
                      : PathKernel(make_step_path<double, 2, false, false, Dynamics::Gbm, true, B>(s, setup, t));
      return f ? PathKernel(make_step_path<float, 1, false, false, Dynamics::Gbm, true, B>(s, setup, t))
               : PathKernel(make_step_path<double, 1, false, false, Dynamics::Gbm, true, B>(s, setup, t));
    }
    if (!path_greeks().empty()) {
      if (a) return f ? PathKernel(make_step_path<float, 2, false, false, Dynamics::Gbm, true>(s, setup, t))
                      : PathKernel(make_step_path<double, 2, false, false, Dynamics::Gbm, true>(s, setup, t));
      return f ? PathKernel(make_step_path<float, 1, false, false, Dynamics::Gbm, true>(s, setup, t))
               : PathKernel(make_step_path<double, 1, false, false, Dynamics::Gbm, true>(s, setup, t));
    }
    if (a) return f ? PathKernel(make_step_path<float, 2, false>(s, setup, t)) : PathKernel(make_step_path<double, 2, false>(s, setup, t));
    return f ? PathKernel(make_step_path<float, 1, false>(s, setup, t)) : PathKernel(make_step_path<double, 1, false>(s, setup, t));
  }
  const bool f = precision == Precision::Float, g = !path_greeks().empty(), a = spec_.antithetic;
  if (g && a) return f ? PathKernel(make_path<float, true, true>(spec_)) : PathKernel(make_path<double, true, true>(spec_));
  if (g) return f ? PathKernel(make_path<float, true, false>(spec_)) : PathKernel(make_path<double, true, false>(spec_));
  if (a) return f ? PathKernel(make_path<float, false, true>(spec_)) : PathKernel(make_path<double, false, true>(spec_));
  return f ? PathKernel(make_path<float, false, false>(spec_)) : PathKernel(make_path<double, false, false>(spec_));
}

std::string OptionModel::describe() const {
  const OptionSpec& p = spec_;
  std::ostringstream s;
  if (p.multi_asset()) {
    s << (p.early_exercise() ? name_of(p.instrument) + " " : std::string()) << "basket " << name_of(p.basket) << " "
      << (p.call ? "call" : "put") << " on " << p.assets.size()
      << (p.heston() ? std::string(" Heston (") + (p.qe ? "QE" : "full-truncation Euler") + ") assets (" : " GBM assets (");
    for (std::size_t a = 0; a < p.assets.size(); ++a) {
      const Asset& x = p.assets[a];
      s << (a ? ", " : "") << p.weights[a] << " x " << x.name << " S0=" << x.spot;
      if (p.heston())
        s << " v0=" << x.v0 << " kappa=" << x.kappa << " theta=" << x.theta << " xi=" << x.xi << " rho=" << x.rho;
      else
        s << " sigma=" << x.volatility;
    }
    s << ")" << (p.basket == BasketKind::Exchange ? std::string() : " K=" + number(p.strike)) << " T=" << p.maturity
      << " r=" << p.rate << (p.antithetic ? ", antithetic" : "") << (p.control_variate ? ", control variate" : "");
    if (p.basket_steps()) s << ", " << p.steps << " steps";
    if (p.early_exercise())
      s << ", exercisable on " << p.exercise_dates << " dates, Longstaff-Schwartz rule fitted on " << p.regression_paths
        << " separate paths";
    return s.str();
  }
  s << name_of(p.instrument) << (p.average == Average::None ? "" : " " + name_of(p.average))
    << (p.strike_type == StrikeType::None ? "" : " " + name_of(p.strike_type) + "-strike")
    << (p.knock == KnockKind::None ? "" : " " + name_of(p.knock) + " " + number(p.barrier))
    << (p.instrument == Instrument::Cliquet || p.instrument == Instrument::Autocallable ? "" : p.call ? " call" : " put");
  if (p.instrument == Instrument::Autocallable)
    s << " (initial spot " << number(p.initial_spot) << ", " << p.times.size() << " observations, coupon " << number(p.coupon) << " at " << number(p.coupon_barrier)
      << (p.memory ? " with memory" : "") << ", called at " << number(p.autocall_barrier) << ", knock-in put at "
      << number(p.knock_in) << ")";
  const auto bound = [](double v) { return std::isfinite(v) ? number(v) : std::string(v > 0 ? "inf" : "-inf"); };
  if (p.instrument == Instrument::ForwardStart)
    s << " struck at " << number(p.moneyness) << " x S(" << number(p.start) << ")";
  if (p.instrument == Instrument::Cliquet)
    s << " (returns within [" << bound(p.local_floor) << ", " << bound(p.local_cap) << "], their sum within ["
      << bound(p.global_floor) << ", " << bound(p.global_cap) << "])";
  if (p.heston())
    s << (p.jumping ? ", Bates" : ", Heston") << " (" << (p.qe ? "QE" : "full-truncation Euler") << ") S0=" << p.spot
      << " v0=" << p.v0 << " kappa=" << p.kappa << " theta=" << p.theta << " xi=" << p.xi << " rho=" << p.rho;
  else if (p.jumping)
    s << ", Merton jump diffusion S0=" << p.spot << " sigma=" << p.volatility
      << (p.vol_term.is_flat() ? "" : " (to maturity; term structure)");
  else if (p.process == Process::LocalVol)
    s << ", Dupire local volatility from a " << p.market.surface->expiries.size() << " x "
      << p.market.surface->strikes.size() << " implied surface, S0=" << p.spot;
  else if (p.process == Process::Cev)
    s << ", CEV S0=" << p.spot << " sigma=" << p.cev_sigma << " beta=" << p.cev_beta;
  else
    s << ", GBM S0=" << p.spot << " sigma=" << p.volatility << (p.vol_term.is_flat() ? "" : " (to maturity; term structure)");
  if (p.hull_white)
    s << ", Hull-White rate a=" << p.hw_a << " sigma=" << p.hw_sigma << " correlation " << p.hw_correlation;
  if (p.jumping)
    s << ", jumps " << p.jumps.intensity << "/y of mean " << p.jumps.mean << " and vol " << p.jumps.vol;
  const bool curves = p.market.has_discount || p.market.has_dividend_yield || !p.market.dividends.empty();
  s << (p.strike_type == StrikeType::Floating || p.periodic() || p.instrument == Instrument::Autocallable ? std::string() : " K=" + number(p.strike)) << " T=" << p.maturity
    << " r=" << p.rate << " q=" << p.dividend << (curves ? " (to maturity, from market curves and dividends)" : "")
    << (p.instrument == Instrument::Digital ? " cash=" + number(p.cash) : "");
  if (p.market.has_cash()) {
    double paid = 0;
    int count = 0;
    for (const auto& d : p.market.dividends)
      if (d.cash > 0 && d.time <= p.maturity) paid += d.cash, ++count;
    s << ", " << count << (count == 1 ? " cash dividend of " : " cash dividends of ") << paid << " in all by T";
  }
  if (p.stepped())
    s << ", " << steps_per_path() << (p.market.has_cash() ? " steps (fixings and ex-dates)" : " steps")
      << (p.continuous ? ", continuous monitoring" : "");
  if (p.early_exercise())
    s << ", exercisable on " << p.steps << " dates, Longstaff-Schwartz rule fitted on " << p.regression_paths
      << " separate paths";
  s << (p.antithetic ? ", antithetic" : "") << (p.control_variate ? ", control variate" : "")
    << (p.sobol ? ", scrambled Sobol points (Brownian bridge)" : "");
  return s.str();
}

}  // namespace mcsim::option
