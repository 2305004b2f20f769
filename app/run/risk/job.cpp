// Portfolio risk (models/var) in passes over the same scenarios, each regenerated
// from its own stream, so no pass keeps the job's losses:
//   1. a histogram of the losses (integer counts) and their exact sums;
//   2. the losses in the few bins around each level's order statistic, the exact
//      sums of the losses above them, and each position's loss summed over them;
// then, on rank 0, the exact VaR and ES, their errors, and each position's
// contributions from one more look at the scenarios at and above the VaR. Every
// tally is an integer (reduce/exact_sum.hpp) or a sorted list, so the figures have
// the same bits for any number of ranks, devices and threads.
//
// Scenarios go to devices in units of whole chunks, on one grid for the whole job;
// ranks take contiguous shares of the units. Checkpoints: rank 0's file holds the
// job's state between passes (the bins or windows of the pass under way, and what
// the passes so far decided); every rank's file holds the tally of each unit it
// finished in that pass. A unit's tally depends on the unit alone, so a resume on
// any number of ranks takes its units from whichever file holds them, and gives
// the bits of a run never stopped.
#include "app/run/risk/job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <thread>

#include "app/exec/risk/executor.hpp"
#include "app/run/lifecycle.hpp"
#include "app/run/plan.hpp"
#include "app/run/risk/checkpoints.hpp"
#include "app/run/risk/scenario_units.hpp"
#include "app/run/risk/standalone.hpp"
#include "app/run/risk/units.hpp"
#include "app/version.hpp"
#include "app/run/signals.hpp"
#include "models/var/age_weights.hpp"
#include "models/var/bootstrap.hpp"
#include "models/var/delta_var.hpp"
#include "models/var/risk_kernel.hpp"
#include "models/var/tail_figures.hpp"
#include "reduce/mpi.hpp"
#include "reduce/partial.hpp"
#include "reduce/paired.hpp"
#include "reduce/quantile.hpp"
#include "reduce/stats.hpp"

namespace mcsim {

namespace {

using reduce::Fixed;
using reduce::Packer;
using reduce::Unpacker;
using namespace risk;

constexpr std::uint64_t kMostPnlScenarios = 10'000'000;  // rows of a P&L table (model.keep_pnl)

// A tally packed elsewhere (a rank, a checkpoint), then what `rest` reads after it;
// refused unless it has the shape of `empty` (this job's bins, levels, positions).
template <class Tally, class Rest>
Tally read_tally(const std::string& bytes, reduce::PartialLayout layout, const std::string& where, const Tally& empty,
                 Rest&& rest) {
  Unpacker in(bytes, layout, where);
  Tally t = empty;
  t.unpack(in);
  rest(in);
  in.finish();
  if (!t.same_shape(empty)) throw std::runtime_error("the partial from " + where + " does not match this job's tallies");
  return t;
}

// Pass 1 also keeps each chunk's loss moments, in its units' checkpoints too.
struct Moments {
  const std::vector<Unit>& units;
  std::vector<double>& moments;
  std::uint64_t first_chunk;
  bool kept;
  double* at(std::uint64_t u) { return &moments[3 * (units[u].first_chunk - first_chunk)]; }
  std::size_t size(std::uint64_t u) const { return 3 * (units[u].last_chunk - units[u].first_chunk); }
  void pack(std::uint64_t u, Packer& out) {
    out.put(kept ? std::vector<double>(at(u), at(u) + size(u)) : std::vector<double>{});
  }
  void unpack(std::uint64_t u, Unpacker& in) {
    std::vector<double> m;
    in.get(m);
    if (kept && m.size() == size(u)) std::copy(m.begin(), m.end(), at(u));
    else if (kept) throw std::runtime_error("a checkpoint's unit " + std::to_string(u) + " does not match this job's chunks");
  }
};
struct Nothing {
  void pack(std::uint64_t, Packer&) {}
  void unpack(std::uint64_t, Unpacker&) {}
};

// Rank 0's decision after a histogram pass: [0, lo, hi] for another, narrower
// pass, or [1, per level lo, hi] for pass 2's windows.
constexpr reduce::PartialLayout kDecisionLayout{"risk.decision", 1};

// The risk family's steps (app/run/lifecycle.hpp): histogram passes, each a stage,
// until every level's window is narrow enough, then pass 2.
class RiskStages : public StagedJob {
 public:
  RiskStages(const io::Job& job, const RunOptions& options, const DeviceList&, const var::VarModel& model,
             const RiskLimits& limits)
      : job_(job),
        options_(options),
        model_(model),
        limits_(limits),
        run_(job.run),
        spec_(model.spec()),
        levels_(spec_.confidence.size()),
        positions_(spec_.portfolio.size()),
        kernel_(model.risk_kernel(run_.precision, run_.seed)),
        n_(run_.paths),
        chunks_((n_ + run_.chunk_paths - 1) / run_.chunk_paths),
        units_(job_units(run_, chunks_)),
        my_(plan::my_share({0, units_.size()})),
        losses_(units_.size(), limits.kept_loss_bytes),
        ckpt_(state_) {
    if (spec_.keep_pnl && n_ > kMostPnlScenarios)
      throw std::runtime_error(fmt::format("model.keep_pnl: a P&L table holds at most {} scenarios; this job has {} "
                                           "(leave keep_pnl out, or run fewer scenarios)", kMostPnlScenarios, n_));
    for (std::uint64_t u = my_.first; u < my_.last; ++u) my_units_.push_back(u);
    my_first_chunk_ = my_.size() ? units_[my_.first].first_chunk : 0;
    const std::uint64_t my_chunks = my_.size() ? units_[my_.last - 1].last_chunk - my_first_chunk_ : 0;
    chunk_moments_.assign(3 * my_chunks, 0.0);  // pass 1's, for this rank's chunks
    // The first pass's bins span the delta-gamma-normal loss's likely range.
    mean_ = model.approximate_mean(), sd_ = std::max(model.approximate_sd(), kernel_.unit.unit * 0x1p40);
    state_.lo = mean_ - 10 * sd_, state_.hi = mean_ + 20 * sd_;
    state_.windows.resize(levels_);
  }

  std::uint64_t checkpoint_units() const override { return units_.size(); }
  reduce::PartialLayout checkpoint_layout() const override { return kCheckpointLayout; }
  void resume(const std::vector<std::pair<std::string, io::Checkpoint>>& files) override {
    ckpt_.load(files, io::checkpoint_path(options_.checkpoint_for, 0), &state_, my_.first, my_.last);
    // A state read back must fit this job before anything indexes it.
    const bool fits = state_.windows.size() == levels_ && (!state_.collecting || state_.plan.size() == 2 * levels_) &&
                      (state_.passes == 0 || (state_.first_pass.counts.size() == static_cast<std::size_t>(reduce::Bins{0, 1, kBins}.size()) &&
                                              state_.chunk_moments.size() == 3 * chunks_));
    if (!fits) throw std::runtime_error("--resume: the checkpoint's state does not match this job's levels or chunks");
  }
  std::optional<std::pair<std::vector<std::uint64_t>, std::string>> checkpoint() override { return ckpt_.pack(); }
  // The passes' state, before the next pass.
  bool checkpoint_every_stage() const override { return true; }
  std::uint64_t progress_total() const override { return 0; }

  bool next_stage() override { return !collected_; }
  bool dispatch(const DeviceList& devices, StageContext& context) override {
    if (!state_.collecting) histogram_pass(devices, context);
    else collect_pass(devices, context);
    return !stop_requested();
  }
  std::string stage_partial() override {
    Packer out(state_.collecting ? kCollectLayout : kHistogramLayout);
    if (state_.collecting) {
      collect_.pack(out);
    } else {
      histogram_.pack(out);
      out.put(recorded() ? chunk_moments_ : std::vector<double>{});
    }
    return out.take();
  }
  std::string reduce_stage(const std::vector<std::string>& partials) override {
    if (state_.collecting) {
      all_ = collect_;
      for (std::size_t r = 1; r < partials.size(); ++r)
        all_.add(read_tally(partials[r], kCollectLayout, fmt::format("rank {}", r), empty_collect(), [](Unpacker&) {}));
      collected_ = true;
      return {};
    }
    const bool record = recorded();
    Histogram total = histogram_;
    if (record) state_.chunk_moments.insert(state_.chunk_moments.end(), chunk_moments_.begin(), chunk_moments_.end());
    for (std::size_t r = 1; r < partials.size(); ++r)
      total.add(read_tally(partials[r], kHistogramLayout, fmt::format("rank {}", r), empty_histogram(), [&](Unpacker& in) {
        std::vector<double> m;
        in.get(m);
        if (record) state_.chunk_moments.insert(state_.chunk_moments.end(), m.begin(), m.end());
      }));
    if (record && state_.chunk_moments.size() != 3 * chunks_)
      throw std::runtime_error("the ranks' chunk moments do not cover this job's chunks");
    if (state_.passes == 0) state_.first_pass = total;
    // Each level takes the narrowest window any pass has given it.
    const reduce::Bins bins{state_.lo, state_.hi, kBins};
    int widest = -1;
    for (std::size_t l = 0; l < levels_; ++l) {
      const Window w = window_of(bins, total, reduce::level_ranks(spec_.confidence[l], n_));
      if (state_.passes == 0 || w.count < state_.windows[l].count) state_.windows[l] = w;
      const bool settled = state_.windows[l].count <= limits_.max_kept;
      if (!settled && (widest < 0 || state_.windows[l].count > state_.windows[static_cast<std::size_t>(widest)].count))
        widest = static_cast<int>(l);
    }
    std::vector<double> next;
    if (widest >= 0 && state_.passes + 1 < static_cast<std::uint64_t>(limits_.max_histogram_passes)) {
      const Window& w = state_.windows[static_cast<std::size_t>(widest)];
      next = {0, std::max(w.lo, total.min), std::min(w.hi, std::nextafter(total.max, INFINITY))};
    } else {
      next = {1};
      for (const Window& w : state_.windows) next.push_back(w.lo), next.push_back(w.hi);
    }
    Packer out(kDecisionLayout);
    out.put(next);
    std::string decision = out.take();
    decide(decision);
    return decision;
  }
  void decide(const std::string& decision) override {
    if (state_.collecting) return void(collected_ = true);
    Unpacker in(decision, kDecisionLayout, "rank 0");
    std::vector<double> next;
    in.get(next), in.finish();
    ++state_.passes;
    if (next.at(0) == 1) state_.collecting = 1, state_.plan.assign(next.begin() + 1, next.end());
    else state_.lo = next.at(1), state_.hi = next.at(2);
    ckpt_.next_pass();
  }

  ScenarioRun results(const std::vector<std::string>&, const DeviceList& devices, double) override;
  std::uint64_t paths() const override { return n_; }

 private:
  bool recorded() const { return state_.passes == 0; }  // pass 1 keeps the chunk moments
  Histogram empty_histogram() const {
    Histogram h;
    h.counts.assign(static_cast<std::size_t>(reduce::Bins{state_.lo, state_.hi, kBins}.size()), 0);
    return h;
  }
  Collect empty_collect() const {
    Collect c;
    c.size(levels_, static_cast<std::size_t>(kernel_.units()));
    return c;
  }

  // Each unit of this rank once, in the pass under way: from a checkpoint, or run
  // here, its tally kept for the checkpoint.
  template <class Tally, class Work, class Finish, class Extra>
  Tally pass(const DeviceList& devices, StageContext& context, const Tally& empty, reduce::PartialLayout layout,
             Work&& work, Finish&& finish, Extra&& extra) {
    Tally mine = empty;
    for (const auto& [u, bytes] : ckpt_.loaded()) {
      Tally t = read_tally(bytes, layout, "a checkpoint's unit " + std::to_string(u), empty,
                           [&, u = u](Unpacker& in) { extra.unpack(u, in); });
      mine.add(t);
    }
    const bool saving = context.checkpoints.enabled();
    mine.add(over_units(
        devices, kernel_, units_, my_units_, run_.chunk_paths, losses_, limits_.overlap, empty, work, finish,
        [&](std::size_t u) { return ckpt_.loaded().count(u) > 0; },
        [&](std::size_t u, const Tally& t) {
          if (!saving) return;
          Packer out(layout);
          t.pack(out);
          extra.pack(u, out);
          ckpt_.finished(u, out.take());
          context.checkpoints.save_if_due();
        }));
    return mine;
  }

  // Pass 1, narrowed until each level's window keeps few enough losses.
  void histogram_pass(const DeviceList& devices, StageContext& context) {
    const reduce::Bins bins{state_.lo, state_.hi, kBins};
    const bool record = recorded();
    const var::RiskKernel& kernel = kernel_;
    const std::uint64_t first_chunk = my_first_chunk_;
    std::vector<double>& moments = chunk_moments_;
    histogram_ = pass(
        devices, context, empty_histogram(), kHistogramLayout,
        [&](std::uint64_t chunk, std::uint64_t, const double* losses, std::uint64_t count, Histogram& h) {
          double m[3] = {0, 0, 0};
          for (std::uint64_t j = 0; j < count; ++j) {
            const double x = losses[j];
            ++h.counts[static_cast<std::size_t>(bins.of(x))];
            h.sum += kernel.unit.to_fixed(x);
            h.sum_sq += kernel.square_unit.to_fixed(x * x);
            h.min = std::min(h.min, x), h.max = std::max(h.max, x);
            m[0] += 1, m[1] += x, m[2] += x * x;
          }
          if (record) std::copy_n(m, 3, &moments[3 * (chunk - first_chunk)]);
        },
        [](RiskExecutor&, Histogram&) {}, Moments{units_, chunk_moments_, my_first_chunk_, record});
  }

  // Pass 2: the windows' losses, the sums above them, and the positions' shares.
  void collect_pass(const DeviceList& devices, StageContext& context) {
    const std::vector<double>& plan = state_.plan;  // per level: lo, hi of the kept window
    const std::size_t levels = levels_;
    const bool keep_tails = options_.keep_tails;
    const var::RiskKernel& kernel = kernel_;
    collect_ = pass(
        devices, context, empty_collect(), kCollectLayout,
        [&](std::uint64_t, std::uint64_t first, const double* losses, std::uint64_t count, Collect& c) {
          for (std::uint64_t j = 0; j < count; ++j) {
            const double x = losses[j];
            std::uint32_t mask = 0;
            for (std::size_t l = 0; l < levels; ++l) {
              if (x >= plan[2 * l + 1]) {
                mask |= 1u << l;
                if (keep_tails) c.above[l].push_back({x, first + j});
                ++c.tail_count[l];
                c.tail_sum[l] += kernel.unit.to_fixed(x);
                c.tail_sum_sq[l] += kernel.square_unit.to_fixed(x * x);
              } else if (x >= plan[2 * l]) {
                c.kept[l].push_back({x, first + j});
              }
            }
            if (mask) c.tail.push_back(first + j), c.masks.push_back(mask);
          }
        },
        [&](RiskExecutor& dev, Collect& unit) {
          // The unit's tail scenarios, each position's and group's loss summed per level.
          if (!unit.tail.empty())
            dev.position_sums(kernel, unit.tail, unit.masks, static_cast<int>(levels), unit.unit_sums.data());
          unit.tail.clear(), unit.masks.clear();
        },
        Nothing{});
  }

  const io::Job& job_;
  const RunOptions& options_;
  const var::VarModel& model_;
  const RiskLimits limits_;
  const io::RunConfig& run_;
  const var::VarSpec& spec_;
  const std::size_t levels_, positions_;
  const var::RiskKernel kernel_;
  const std::uint64_t n_, chunks_;
  const std::vector<Unit> units_;
  const plan::Span my_;
  std::vector<std::size_t> my_units_;
  std::uint64_t my_first_chunk_ = 0;
  std::vector<double> chunk_moments_;
  double mean_ = 0, sd_ = 0;
  LossCache losses_;  // what the first pass computed, for the passes after it
  PassState state_;
  RiskCheckpoints ckpt_;
  Histogram histogram_;  // this rank's, of the histogram pass under way
  Collect collect_, all_;  // this rank's pass 2, and (rank 0) every rank's
  bool collected_ = false;
};

// The figures, and one look at the scenarios at and above each VaR for the
// positions' contributions.
ScenarioRun RiskStages::results(const std::vector<std::string>&, const DeviceList& devices, double) {
  const std::uint64_t n = n_, chunks = chunks_;
  const std::size_t levels = levels_, positions = positions_;
  const var::VarSpec& spec = spec_;
  const var::VarModel& model = model_;
  const var::RiskKernel& kernel = kernel_;
  const RunOptions& options = options_;
  const Collect& all = all_;
  const std::vector<Window>& windows = state_.windows;
  const Histogram& first_pass = state_.first_pass;
  const int histogram_passes = static_cast<int>(state_.passes);
  const double mean = mean_, sd = sd_;
  PassState& state = state_;
  ScenarioRun r;

  // The figures, and one look at the scenarios at and above each VaR for the
  // positions' contributions.
  const var::Units fixed{kernel.unit, kernel.square_unit};
  std::vector<var::LevelFigures> figures;
  for (std::size_t l = 0; l < levels; ++l)
    figures.push_back(var::level_figures(spec.confidence[l], n,
                                         {all.kept[l], windows[l].below, all.tail_count[l],
                                          {all.tail_sum[l], all.tail_sum_sq[l]}},
                                         fixed));
  // Historical simulation: its scenarios are few and overlap, so its errors come from
  // the moving-block bootstrap of all its losses (models/var/bootstrap.hpp).
  const bool boot = spec.historical();
  std::vector<double> losses;  // every scenario's, for the bootstrap and the P&L table
  if (boot || spec.keep_pnl) {
    losses.resize(n);
    devices.front()->executor<RiskExecutor>().scenario_losses(kernel, 0, n, losses.data());
  }
  // Age-weighted: VaR and ES of the weighted losses replace the passes' (which
  // weigh every scenario the same), and the shares are weighted sums of the units'.
  const bool aged = spec.age_weighted();
  const std::vector<double> weights = aged ? var::age_weights(n, spec.age_decay) : std::vector<double>{};
  std::vector<var::WeightedLevel> weighted;
  if (boot) {
    const auto errors =
        var::bootstrap_errors(losses, spec.confidence, spec.horizon_days, run_.seed, var::kBootstrapResamples, weights);
    for (std::size_t l = 0; l < levels; ++l) {
      var::LevelFigures& f = figures[l];
      if (aged) {
        weighted.push_back(var::weighted_level(losses, weights, spec.confidence[l]));
        f.var = weighted.back().var, f.es = weighted.back().es;
      }
      f.var_se = errors[l].var_se, f.es_se = errors[l].es_se;
      f.var_lo = f.var - reduce::kZ95 * f.var_se, f.var_hi = f.var + reduce::kZ95 * f.var_se;
      if (aged) weighted.back().band = var::var_band(losses, weights, f.var_lo, f.var_hi, weighted.back().var_scenario);
    }
  }
  const ScenarioUnits aged_units = aged ? scenario_units(devices, kernel, weighted) : ScenarioUnits{};
  // One look at the scenarios the shares need, each once with all its bands, in
  // scenario order: per level, band 3l holds those ranked above the VaR, 3l + 1
  // those in its 95% band, 3l + 2 the VaR scenario.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> marks;
  for (std::size_t l = 0; l < levels; ++l) {
    const var::LevelFigures& f = figures[l];
    for (std::size_t i = f.at_var + 1; i < f.kept.size(); ++i) marks.emplace_back(f.kept[i].scenario, 1u << (3 * l));
    for (std::size_t i = f.band_lo; i <= f.band_hi; ++i) marks.emplace_back(f.kept[i].scenario, 1u << (3 * l + 1));
    marks.emplace_back(f.kept[f.at_var].scenario, 1u << (3 * l + 2));
  }
  std::sort(marks.begin(), marks.end());
  std::vector<std::uint64_t> listed;
  std::vector<std::uint32_t> masks;
  for (const auto& [s, mask] : marks) {
    if (!listed.empty() && listed.back() == s) masks.back() |= mask;
    else listed.push_back(s), masks.push_back(mask);
  }
  const std::size_t units = static_cast<std::size_t>(kernel.units());  // positions, then groups
  std::vector<Fixed> sums(2 * 3 * levels * units, 0);
  if (!listed.empty() && !aged) devices.front()->executor<RiskExecutor>().position_sums(kernel, listed, masks, static_cast<int>(3 * levels), sums.data());

  // Position k (revaluation order) is config position order[k].
  const std::vector<int> order = var::revaluation_order(spec);
  const auto pair_at = [&](const std::vector<Fixed>& v, std::size_t band, std::size_t k) {
    return var::SumPair{v[2 * band * units + k], v[(2 * band + 1) * units + k]};
  };
  const auto unit_sums = [&](std::size_t l, std::size_t k) {
    return var::PositionSums{pair_at(all.unit_sums, l, k), pair_at(sums, 3 * l, k), pair_at(sums, 3 * l + 1, k),
                             pair_at(sums, 3 * l + 2, k).sum};
  };
  const std::vector<var::ShareGroup> groups = var::share_groups(spec);
  io::ScenarioResult& scenario = r.scenario;
  std::vector<double> quantile_rows, contribution_rows, group_rows;
  std::vector<std::string> contribution_names, group_names;  // the position or group of each row
  std::vector<reduce::Estimate> contributions;
  for (std::size_t l = 0; l < levels; ++l) {
    const var::LevelFigures& f = figures[l];
    const double a = spec.confidence[l];
    const std::string name = var::level_name(a);
    scenario.estimates.push_back(f.var_estimate("var_" + name, n));
    scenario.estimates.push_back(f.es_estimate("es_" + name, n));
    quantile_rows.insert(quantile_rows.end(), {a, f.var, f.var_lo, f.var_hi, f.es, f.es_se});
    std::vector<reduce::Estimate> var_parts(positions), es_parts(positions);
    // Unit k's shares, named NAME.
    const double band_mean = aged ? var::weighted_sum(weighted[l].band, aged_units.portfolio()) : 0.0;  // once a level
    const auto var_of = [&](std::size_t k, const std::string& name) {
      return aged ? var::weighted_var_share(weighted[l], f.var_se, band_mean, aged_units.unit(k), name)
                  : var::var_share(f, n, unit_sums(l, k), fixed, name);
    };
    const auto es_of = [&](std::size_t k, const std::string& name) {
      return aged ? var::weighted_es_share(weighted[l], aged_units.unit(k), name) : var::es_share(f, n, unit_sums(l, k), fixed, name);
    };
    for (std::size_t k = 0; k < positions; ++k) {
      const auto i = static_cast<std::size_t>(order[k]);
      var_parts[i] = var_of(k, "var_" + name + "." + spec.portfolio[i].name);
      es_parts[i] = es_of(k, "es_" + name + "." + spec.portfolio[i].name);
    }
    for (std::size_t i = 0; i < positions; ++i) contribution_names.push_back(spec.portfolio[i].name);
    for (std::size_t i = 0; i < positions; ++i)
      contribution_rows.insert(contribution_rows.end(), {a, static_cast<double>(i), var_parts[i].value, var_parts[i].std_error,
                                                         es_parts[i].value, es_parts[i].std_error});
    // Each group's share: its positions' losses summed in each scenario, so its error
    // holds their covariances (a grouping column's shares add up as the positions' do).
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::string& group = groups[g].name;
      var_parts.push_back(var_of(positions + g, "var_" + name + "." + group));
      es_parts.push_back(es_of(positions + g, "es_" + name + "." + group));
      group_names.push_back(group);
      group_rows.insert(group_rows.end(), {a, static_cast<double>(g), var_parts.back().value, var_parts.back().std_error,
                                           es_parts.back().value, es_parts.back().std_error});
    }
    contributions.insert(contributions.end(), var_parts.begin(), var_parts.end());
    contributions.insert(contributions.end(), es_parts.begin(), es_parts.end());
  }
  // P&L = -loss: its mean and standard deviation from the exact sums of pass 1.
  const double nd = static_cast<double>(n);
  const double loss_mean = kernel.unit.to_double(first_pass.sum) / nd;
  const double loss_var = std::max(0.0, kernel.square_unit.to_double(first_pass.sum_sq) / nd - loss_mean * loss_mean) * nd / std::max(1.0, nd - 1);
  const double loss_sd = std::sqrt(loss_var);
  scenario.estimates.push_back(reduce::normal_estimate("pnl_mean", -loss_mean, loss_sd / std::sqrt(nd), n));
  scenario.estimates.push_back(reduce::normal_estimate("pnl_sd", loss_sd, loss_sd / std::sqrt(2 * nd), n));  // normal-theory error
  scenario.estimates.insert(scenario.estimates.end(), contributions.begin(), contributions.end());
  scenario.references = model.references();
  scenario.diagnostics = model.diagnostics();
  scenario.diagnostics.emplace_back("histogram_passes", histogram_passes);
  if (aged) {
    double squares = 0;  // the weights' effective number of scenarios, 1 / sum w^2 (Kish)
    for (double w : weights) squares += w * w;
    scenario.diagnostics.emplace_back("age_decay", spec.age_decay);
    scenario.diagnostics.emplace_back("effective_scenarios", 1 / squares);
  }
  if (boot) {
    scenario.diagnostics.emplace_back("bootstrap_resamples", var::kBootstrapResamples);
    scenario.diagnostics.emplace_back("bootstrap_block_scenarios", static_cast<double>(spec.horizon_days));
  }
  scenario.diagnostics.emplace_back("portfolio_value", var::portfolio_greeks(spec).value);

  std::vector<double> histogram_rows;
  const reduce::Bins first_bins{mean - 10 * sd, mean + 20 * sd, kBins};
  for (int b = 0; b < first_bins.size(); ++b)
    histogram_rows.insert(histogram_rows.end(), {first_bins.low(b), first_bins.high(b),
                                                 static_cast<double>(first_pass.counts[static_cast<std::size_t>(b)])});
  scenario.tables.push_back({"loss_histogram", {"low", "high", "count"}, histogram_rows, {"", "", "scenarios"}});
  scenario.tables.push_back({"quantiles", {"level", "var", "var_ci_low", "var_ci_high", "es", "es_std_error"}, quantile_rows});
  scenario.tables.push_back({"contributions", {"level", "position", "var", "var_std_error", "es", "es_std_error"}, contribution_rows,
                             {}, contribution_names});
  if (spec.keep_pnl) {  // P&L = -loss, per scenario (historical: named by its window's first date; age-weighted: its weight)
    std::vector<double> rows;
    for (std::uint64_t s = 0; s < n; ++s) {
      rows.insert(rows.end(), {static_cast<double>(s), -losses[s]});
      if (aged) rows.push_back(weights[s]);
    }
    std::vector<std::string> columns{"scenario", "pnl"};
    if (aged) columns.push_back("weight");
    scenario.tables.push_back({"pnl", columns, rows, {}, spec.historical() ? spec.scenario_start : std::vector<std::string>{}});
  }
  if (!groups.empty())
    scenario.tables.push_back({"group_contributions", {"level", "group", "var", "var_std_error", "es", "es_std_error"},
                               group_rows, {}, group_names});
  // Each level's scenarios ranked above the VaR, by index: what pairs the VaR and
  // ES of two scenarios.
  // (Not age-weighted: a tail's pairing counts its scenarios the same.)
  if (options.keep_tails && !aged)
    for (std::size_t l = 0; l < levels; ++l) {
      const var::LevelFigures& f = figures[l];
      const std::string name = var::level_name(spec.confidence[l]);
      reduce::Tail t{"var_" + name, "es_" + name, f.var, n, {}};
      for (std::size_t i = f.at_var + 1; i < f.kept.size(); ++i) t.above.emplace_back(f.kept[i].scenario, f.kept[i].loss);
      for (const Kept& k : all.above[l]) t.above.emplace_back(k.scenario, k.loss);
      std::sort(t.above.begin(), t.above.end());
      scenario.tails.push_back(std::move(t));
    }
  scenario.tally_layout = {"loss.count", "loss.sum", "loss.sum_sq"};
  scenario.chunk_tallies = state.chunk_moments;
  // The P&L's mean and spread on batches of chunks, for paired differences between
  // scenarios. VaR and ES pair through their tails instead (below); a batch's
  // quantile would need its own passes.
  const std::uint64_t B = reduce::batch_count(chunks);
  for (std::uint64_t b = 0; b < B; ++b) {
    const auto [first, last] = reduce::batch_rows(b, B, chunks);
    double m[3] = {0, 0, 0};
    for (std::uint64_t c = first; c < last; ++c)
      for (int i = 0; i < 3; ++i) m[i] += scenario.chunk_tallies[3 * c + static_cast<std::size_t>(i)];
    const double mean = m[1] / m[0], sd = std::sqrt(std::max(0.0, (m[2] - m[1] * mean) / (m[0] - 1)));
    const auto count = static_cast<std::uint64_t>(m[0]);
    scenario.batches.add({reduce::normal_estimate("pnl_mean", -mean, NAN, count), reduce::normal_estimate("pnl_sd", sd, NAN, count)});
  }

  // Every pass revalues every scenario: paths per second counts scenarios once per pass.
  r.work = static_cast<double>(n) * (histogram_passes + 1);
  return r;
}

}  // namespace

ScenarioRun run_risk_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  const auto& model = dynamic_cast<const var::VarModel&>(*job.model);
  ScenarioRun r = run_risk_job(job, model, options, devices);
  if (model.spec().standalone) add_standalone(job, model, options, devices, r);
  return r;
}

ScenarioRun run_risk_job(const io::Job& job, const var::VarModel& model, const RunOptions& options,
                         const DeviceList& devices, const RiskLimits& limits) {
  return run_family<RiskStages>(job, options, devices, model, limits);
}

}  // namespace mcsim
