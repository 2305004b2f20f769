// Particle transport (models/transport). Histories run in rows of whole chunks on
// this rank's devices and score into fixed-point slots, so a row's tallies are the
// same bits wherever it runs; rank 0 gathers the rows in order.
//   Fixed source: chunk c holds histories [c C, (c + 1) C); estimates are the
//   slots' means per history, their errors from the spread of the chunk means
//   (batch statistics).
//   Eigenvalue: generation g runs N histories from N sites, history i on stream
//   (seed, g 2^40 + i). Their fission sites, in history order, are the bank; the
//   next generation's N sites are drawn from it by systematic sampling with one
//   uniform of the generation's own, so the whole run has the same bits on any
//   number of ranks and devices. k and the tallies average over the active
//   generations, their errors from the spread of the generations.
#include "app/run/transport/job.hpp"
#include "app/run/transport/statistics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <stdexcept>

#include "app/exec/transport/executor.hpp"
#include "app/run/lifecycle.hpp"
#include "app/run/plan.hpp"
#include "app/run/progress.hpp"
#include "app/run/signals.hpp"
#include "models/transport/fission_source.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_model.hpp"
#include "reduce/mpi.hpp"
#include "reduce/paired.hpp"
#include "reduce/stats.hpp"

namespace mcsim {

namespace {

using Clock = std::chrono::steady_clock;
using transport::Site;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Fixed source: histories per call, as many as a GPU takes at once; with the CPU
// among the devices fewer, so a stop (taken between calls) comes within seconds.
constexpr std::uint64_t kUnitHistories = std::uint64_t{1} << 26;
constexpr std::uint64_t kCpuUnitHistories = std::uint64_t{1} << 22;
// A GPU's call takes at least this many (a few milliseconds of the slab's): each
// call ends in a tail, the last blocks running alone, and a wait for the host.
constexpr std::uint64_t kGpuLeastHistories = std::uint64_t{1} << 24;
constexpr std::uint64_t kGenerationRow = 4096;                    // eigenvalue: histories per row

// Rows [row0, row1) of `whole` on this rank's devices, each a contiguous share, at
// once: their tallies to out[(row - row0) * slots, ...), and the bank, in history
// order, appended to *bank.
void run_rows(const DeviceList& devices, const transport::TransportKernel& k, const TransportBatch& whole,
              std::uint64_t row0, std::uint64_t row1, std::uint64_t* tallies, std::vector<Site<double>>* bank) {
  const auto slots = static_cast<std::uint64_t>(k.slots());
  const std::uint64_t D = devices.size();
  std::vector<std::vector<Site<double>>> banks(D);
  std::vector<std::future<void>> work;
  for (std::uint64_t d = 0; d < D; ++d) {
    const std::uint64_t r0 = row0 + (row1 - row0) * d / D, r1 = row0 + (row1 - row0) * (d + 1) / D;
    if (r0 == r1) continue;
    TransportBatch part = whole;
    part.first = whole.first + r0 * whole.chunk;
    part.count = std::min(whole.count, r1 * whole.chunk) - r0 * whole.chunk;
    if (whole.sites) part.sites = whole.sites + r0 * whole.chunk;
    std::uint64_t* out = tallies + (r0 - row0) * slots;
    std::vector<Site<double>>* b = bank ? &banks[d] : nullptr;
    work.push_back(std::async(std::launch::async, [&, d, part, out, b] { devices[d]->executor<TransportExecutor>().run(k, part, out, b); }));
  }
  for (auto& w : work) w.get();
  if (bank)
    for (const auto& b : banks) bank->insert(bank->end(), b.begin(), b.end());
}

// Fixed source: rows of tally slots, one row a chunk (the slot count, then the
// rows in the order of their chunk list), in checkpoints and to rank 0.
constexpr reduce::PartialLayout kRowsLayout{"transport.rows", 1};
// Eigenvalue: per finished generation its slots summed over its rows and its
// k_generation row (kRow values); then the next generation's k and sites. To rank 0
// each generation: a rank's rows and its bank, in history order.
// (Version 2: sites in three dimensions.)
constexpr reduce::PartialLayout kGenerationsLayout{"transport.generations", 2};
constexpr reduce::PartialLayout kBankLayout{"transport.bank", 2};
constexpr reduce::PartialLayout kSitesLayout{"transport.sites", 2};
constexpr std::size_t kRow = 7;

// Checks a partial's slot count against the job's.
void check_slots(std::uint64_t got, std::size_t slots, std::size_t n, std::size_t rows, const std::string& where) {
  if (got != slots || n != rows * slots) throw std::runtime_error("the partial from " + where + " does not match this job's tallies");
}

std::vector<std::string> slot_names() {
  return {"transmission", "reflection", "absorption", "leakage", "collisions", "k_collision", "k_absorption", "k_track"};
}

// What both kinds of transport run share: the kernel, its tallies' slots, and
// the results' common part.
class TransportStages : public StagedJob {
 public:
  TransportStages(const io::Job& job, const RunOptions& options)
      : job_(job),
        options_(options),
        model_(dynamic_cast<const transport::TransportModel&>(*job.model)),
        spec_(model_.spec()),
        run_(job.run),
        kernel_(model_.transport_kernel(run_.precision, run_.seed)),
        view_(kernel_.in_double.view()),
        slots_(static_cast<std::size_t>(kernel_.slots())),
        n_(run_.paths) {}

 protected:
  // The results both kinds give: references, the tally layout, collision rates,
  // and the executors' time as its own stage.
  ScenarioRun finish(io::ScenarioResult scenario, std::vector<std::string> layout, double stages_s) const {
    ScenarioRun r;
    scenario.references = model_.references();
    scenario.tally_layout = std::move(layout);
    scenario.diagnostics.emplace_back("collisions_per_history", collisions_ / static_cast<double>(paths()));
    scenario.diagnostics.emplace_back("collisions_per_s", stages_s > 0 ? collisions_ / stages_s : 0.0);
    // Flights to a collision or a surface: Quicksilver's figure of merit is segments/s.
    scenario.diagnostics.emplace_back("segments_per_history", segments_ / static_cast<double>(paths()));
    scenario.diagnostics.emplace_back("segments_per_s", stages_s > 0 ? segments_ / stages_s : 0.0);
    // A CSG model's histories that found themselves in no cell: their weight (0 in a sound model).
    if (spec_.geometry.csg) scenario.diagnostics.emplace_back("lost_weight", lost_);
    r.scenario = std::move(scenario);
    // histories: the executors' calls (histories, copies to and from devices); the
    // rest of the stages is gathering rows, the bank's draws and messages.
    r.stage_seconds = {{"histories", histories_s_}};
    r.work = static_cast<double>(paths());
    return r;
  }

  const io::Job& job_;
  const RunOptions& options_;
  const transport::TransportModel& model_;
  const transport::TransportSpec& spec_;
  const io::RunConfig& run_;
  const transport::TransportKernel kernel_;
  const transport::TransportView<double> view_;
  const std::size_t slots_;
  const std::uint64_t n_;
  double histories_s_ = 0;  // in the executors' calls
  double collisions_ = 0;   // rank 0
  double lost_ = 0;         // rank 0
  double segments_ = 0;     // rank 0
};

// Fixed source: one stage, this rank's chunks a unit of them at a time, less those
// a checkpoint holds; rank 0 takes every rank's rows at the end.
class FixedSourceStages : public TransportStages {
 public:
  FixedSourceStages(const io::Job& job, const RunOptions& options, const DeviceList&)
      : TransportStages(job, options),
        chunks_((n_ + run_.chunk_paths - 1) / run_.chunk_paths),
        my_(plan::my_share({0, chunks_})),
        mine_(my_.size() * slots_, 0),
        done_(my_.size(), 0) {}

  std::uint64_t checkpoint_units() const override { return chunks_; }
  reduce::PartialLayout checkpoint_layout() const override { return kRowsLayout; }
  void resume(const std::vector<std::pair<std::string, io::Checkpoint>>& files) override {
    for (const auto& [file, c] : files) {
      const std::string where = "checkpoint '" + file + "'";
      reduce::Unpacker in(c.partial, kRowsLayout, where);
      std::uint64_t width = 0;
      std::vector<std::uint64_t> rows;
      in.get(width), in.get(rows), in.finish();
      check_slots(width, slots_, rows.size(), c.done.size(), where);
      for (std::size_t i = 0; i < c.done.size(); ++i)
        if (c.done[i] >= my_.first && c.done[i] < my_.last) {
          std::copy_n(&rows[i * slots_], slots_, &mine_[(c.done[i] - my_.first) * slots_]);
          done_[c.done[i] - my_.first] = 1;
        }
    }
  }
  std::optional<std::pair<std::vector<std::uint64_t>, std::string>> checkpoint() override {
    std::vector<std::uint64_t> finished, rows;
    for (std::uint64_t c = my_.first; c < my_.last; ++c)
      if (done_[c - my_.first])
        finished.push_back(c), rows.insert(rows.end(), &mine_[(c - my_.first) * slots_], &mine_[(c - my_.first + 1) * slots_]);
    reduce::Packer out(kRowsLayout);
    out.put(static_cast<std::uint64_t>(slots_)), out.put(rows);
    return std::make_pair(std::move(finished), out.take());
  }
  std::uint64_t progress_total() const override { return n_; }

  bool next_stage() override { return !ran_ && (ran_ = true); }
  // Units: runs of chunks still to do, of about a 64th of the job (for progress
  // and checkpoints), at least a chunk per CPU thread (kGpuLeastHistories a GPU)
  // and at most kUnitHistories (kCpuUnitHistories) histories each.
  bool dispatch(const DeviceList& devices, StageContext& context) override {
    const std::uint64_t C = run_.chunk_paths;
    std::vector<plan::Span> todo;
    for (std::uint64_t c = my_.first; c < my_.last; ++c) {
      if (done_[c - my_.first]) continue;
      if (!todo.empty() && todo.back().last == c) ++todo.back().last;
      else todo.push_back({c, c + 1});
    }
    std::uint64_t least = 1, unit_histories = kUnitHistories;
    for (const Device* d : devices) {
      least = std::max(least, d->min_unit());
      if (d->kind() == DeviceKind::Cpu) unit_histories = kCpuUnitHistories;
      else least = std::max(least, devices.size() * ((kGpuLeastHistories + C - 1) / C));  // a unit is shared by the devices
    }
    const std::uint64_t most = unit_histories / C;
    const TransportBatch whole{0, 0, n_, C, nullptr, 1};
    for (const plan::Span& u : plan::cut(todo, plan::unit_size(chunks_, 1, 64, std::min(least, most), most))) {
      if (stop_requested()) return false;
      const auto t = Clock::now();
      run_rows(devices, kernel_, whole, u.first, u.last, &mine_[(u.first - my_.first) * slots_], nullptr);
      histories_s_ += since(t);
      std::fill(done_.begin() + static_cast<std::ptrdiff_t>(u.first - my_.first),
                done_.begin() + static_cast<std::ptrdiff_t>(u.last - my_.first), 1);
      context.progress.add(std::min(n_, u.last * C) - u.first * C);
      context.checkpoints.save_if_due();
    }
    return true;
  }
  std::string reduce_stage(const std::vector<std::string>&) override { return {}; }

  // The finished chunks' rows in chunk order (the short last chunk, when finished,
  // stays last): the estimates of the histories they hold.
  void peek() override {
    const std::uint64_t C = run_.chunk_paths;
    std::vector<std::uint64_t> rows;
    std::uint64_t histories = 0;
    for (std::uint64_t c = my_.first; c < my_.last; ++c)
      if (done_[c - my_.first]) {
        rows.insert(rows.end(), &mine_[(c - my_.first) * slots_], &mine_[(c - my_.first + 1) * slots_]);
        histories += std::min(C, n_ - c * C);
      }
    if (histories == 0) throw std::runtime_error("the checkpoint holds no finished chunk yet");
    mine_ = std::move(rows), peeked_ = histories;
  }

  std::string final_partial() override { return pack_rows(); }
  ScenarioRun results(const std::vector<std::string>& partials, const DeviceList&, double stages_s) override {
    const std::uint64_t n = paths();
    // Every rank's rows, in rank order.
    std::vector<std::uint64_t> rows = std::move(mine_);
    for (std::size_t r = 1; r < partials.size(); ++r) {
      const std::string where = fmt::format("rank {}", r);
      reduce::Unpacker in(partials[r], kRowsLayout, where);
      std::uint64_t width = 0;
      std::vector<std::uint64_t> part;
      in.get(width), in.get(part), in.finish();
      check_slots(width, slots_, part.size(), part.size() / slots_, where);
      rows.insert(rows.end(), part.begin(), part.end());
    }
    const std::uint64_t C = run_.chunk_paths;
    io::ScenarioResult scenario;
    const Batches b{rows, slots_, n, C};
    tally_estimates(model_, view_, b, &scenario);
    // The estimates on batches of chunks, for paired differences between scenarios.
    const std::uint64_t B = reduce::batch_count(b.count());
    for (std::uint64_t k = 0; k < B; ++k) {
      const auto [first, last] = reduce::batch_rows(k, B, b.count());
      const std::vector<std::uint64_t> part(rows.begin() + static_cast<std::ptrdiff_t>(first * slots_),
                                            rows.begin() + static_cast<std::ptrdiff_t>(last * slots_));
      io::ScenarioResult one;
      tally_estimates(model_, view_, Batches{part, slots_, std::min(n, last * C) - first * C, C}, &one, false);
      scenario.batches.add(one.estimates);
    }
    collisions_ = b.of("", transport::slot::Collisions).value * static_cast<double>(n);
    lost_ = b.of("", transport::slot::Lost).value * static_cast<double>(n);
    segments_ = b.of("", transport::slot::Segments).value * static_cast<double>(n);
    for (std::size_t r = 0; r < b.count(); ++r)
      for (int s = 0; s < transport::slot::KCollision; ++s)
        scenario.chunk_tallies.push_back(static_cast<double>(rows[r * slots_ + static_cast<std::size_t>(s)]) * transport::kTallyUnit);
    std::vector<std::string> layout = slot_names();
    layout.resize(transport::slot::KCollision);
    return finish(std::move(scenario), std::move(layout), stages_s);
  }
  std::uint64_t paths() const override { return peeked_ ? peeked_ : n_; }

 private:
  std::string pack_rows() const {
    reduce::Packer out(kRowsLayout);
    out.put(static_cast<std::uint64_t>(slots_)), out.put(mine_);
    return out.take();
  }
  const std::uint64_t chunks_;
  const plan::Span my_;
  std::vector<std::uint64_t> mine_;  // this rank's rows of slots, one per chunk
  std::vector<char> done_;
  bool ran_ = false;
  std::uint64_t peeked_ = 0;  // peek: the histories of the finished chunks
};

// Eigenvalue: a stage per generation. Every rank runs its rows of the generation;
// rank 0 gathers the tallies and the bank, draws the next sites and sends them to
// all.
class EigenvalueStages : public TransportStages {
 public:
  EigenvalueStages(const io::Job& job, const RunOptions& options, const DeviceList& devices)
      : TransportStages(job, options),
        generations_(spec_.inactive + spec_.active),
        my_rows_(plan::my_share({0, (n_ + kGenerationRow - 1) / kGenerationRow})),
        first_executor_(devices.front()->executor<TransportExecutor>()),
        // One rank on one device that keeps the sites: the bank stays there, and
        // only the tallies and its mesh counts come back.
        kept_(mpi::size() == 1 && devices.size() == 1 && first_executor_.keeps_sites()),
        mine_(my_rows_.size() * slots_) {
    // The bank's entropy mesh: a layered geometry's flux mesh bins, or 32; a CSG
    // model's bounds in 16 x 16 (x 16 in 3-D).
    const transport::Geometry& geo = spec_.geometry;
    if (geo.shape == transport::Shape::Csg) {
      for (int a = 0; a < 3; ++a) {
        mesh_.low[a] = geo.low[static_cast<std::size_t>(a)], mesh_.high[a] = geo.high[static_cast<std::size_t>(a)];
        mesh_.shape[a] = mesh_.high[a] > mesh_.low[a] ? 16 : 1;
      }
    } else {
      mesh_.low[0] = geo.shape == transport::Shape::Slab ? geo.surfaces.front() : 0.0;
      mesh_.high[0] = geo.shape == transport::Shape::Infinite ? 1.0 : geo.surfaces.back();
      mesh_.shape[0] = geo.shape == transport::Shape::Infinite ? 1 : spec_.tallies.flux_bins > 1 ? spec_.tallies.flux_bins : 32;
    }
    counts_.resize(static_cast<std::size_t>(mesh_.bins()));
  }

  std::uint64_t checkpoint_units() const override { return generations_; }
  reduce::PartialLayout checkpoint_layout() const override { return kGenerationsLayout; }
  // A checkpoint: the finished generations' records, and the next generation's k
  // and sites (rank 0's; the others hold only their rows).
  void resume(const std::vector<std::pair<std::string, io::Checkpoint>>& files) override {
    for (const auto& [file, c] : files) {
      const std::string where = "checkpoint '" + file + "'";
      reduce::Unpacker in(c.partial, kGenerationsLayout, where);
      std::uint64_t width = 0;
      std::vector<std::uint64_t> sums;
      std::vector<double> rows;
      in.get(width), in.get(sums), in.get(rows), in.get(k_), in.get(sites_), in.finish();
      g_ = c.done.size();
      check_slots(width, slots_, sums.size(), g_, where);
      if (rows.size() != g_ * kRow || g_ > generations_ || (g_ > 0 && sites_.size() != n_))
        throw std::runtime_error("the partial from " + where + " does not match this job's generations");
      for (std::uint64_t g = 0; g < g_; ++g)
        record(g, std::vector<std::uint64_t>(&sums[g * slots_], &sums[(g + 1) * slots_]), &rows[g * kRow]);
    }
  }
  std::optional<std::pair<std::vector<std::uint64_t>, std::string>> checkpoint() override {
    // A generation cut short on a device that keeps the sites leaves them unknown;
    // elsewhere the state is the last finished generation's until rank 0 reduces.
    if (!mpi::master() || (running_ && kept_)) return std::nullopt;
    if (device_holds_) first_executor_.kept_sites(&sites_);
    std::vector<std::uint64_t> finished(record_rows_.size() / kRow);
    for (std::uint64_t g = 0; g < finished.size(); ++g) finished[g] = g;
    reduce::Packer out(kGenerationsLayout);
    out.put(static_cast<std::uint64_t>(slots_)), out.put(record_sums_), out.put(record_rows_), out.put(k_), out.put(sites_);
    return std::make_pair(std::move(finished), out.take());
  }
  std::uint64_t progress_total() const override { return n_ * generations_; }
  std::uint64_t progress_done() const override { return n_ * g_; }

  bool next_stage() override { return g_ < generations_; }
  // A stop is taken between generations, where the state is whole.
  bool dispatch(const DeviceList& devices, StageContext& context) override {
    if (stop_requested()) return false;
    running_ = true;
    TransportBatch whole{transport::generation_stream(g_, 0), 0, n_, kGenerationRow, sites_.empty() ? nullptr : sites_.data(), k_};
    // The next generation's sites come from the bank by systematic sampling with
    // this one uniform of the generation's own.
    rng::Stream stream(run_.seed, transport::generation_stream(g_, std::uint64_t{1} << 39));
    u_ = rng::uniforms<double>(stream).z[0];
    const auto t = Clock::now();
    if (kept_) {
      if (device_holds_) whole.sites = nullptr, whole.kept_sites = true;
      // One row: the device sums the generation's tallies before they come back
      // (integer sums, so the bits of any rows).
      whole.chunk = n_;
      banked_ = first_executor_.generation(kernel_, whole, mesh_, u_, mine_.data(), counts_.data());
      device_holds_ = banked_ > 0;
    } else {
      bank_.clear();
      run_rows(devices, kernel_, whole, my_rows_.first, my_rows_.last, mine_.data(), &bank_);
    }
    histories_s_ += since(t);
    context.progress.add(n_);
    return true;
  }
  std::string stage_partial() override {
    reduce::Packer out(kBankLayout);
    out.put(static_cast<std::uint64_t>(slots_)), out.put(mine_), out.put(bank_);
    return out.take();
  }
  std::string reduce_stage(const std::vector<std::string>& partials) override {
    std::vector<std::uint64_t> sums(slots_, 0);
    const auto add_rows = [&](const std::vector<std::uint64_t>& rows) {
      for (std::size_t i = 0; i < rows.size(); ++i) sums[i % slots_] += rows[i];
    };
    if (kept_) {
      for (std::size_t i = 0; i < slots_; ++i) sums[i] = mine_[i];  // one row
    } else {
      add_rows(mine_);
      // Every rank's rows and bank, in rank order.
      for (std::size_t r = 1; r < partials.size(); ++r) {
        const std::string where = fmt::format("rank {}", r);
        reduce::Unpacker in(partials[r], kBankLayout, where);
        std::uint64_t width = 0;
        std::vector<std::uint64_t> rows;
        std::vector<Site<double>> part;
        in.get(width), in.get(rows), in.get(part), in.finish();
        check_slots(width, slots_, rows.size(), rows.size() / slots_, where);
        add_rows(rows);
        bank_.insert(bank_.end(), part.begin(), part.end());
      }
      banked_ = bank_.size();
      std::fill(counts_.begin(), counts_.end(), 0);
      for (const auto& site : bank_) ++counts_[static_cast<std::size_t>(transport::source_bin(mesh_, site))];
      drawn_.resize(banked_ > 0 ? n_ : 0);
      for (std::uint64_t j = 0; j < drawn_.size(); ++j) drawn_[j] = bank_[transport::drawn_index(j, u_, banked_, n_)];
    }
    if (banked_ == 0) throw std::runtime_error(fmt::format("generation {}: no fission sites; the chain died out", g_));
    const double row[kRow] = {static_cast<double>(g_), per(sums, transport::slot::KCollision),
                              per(sums, transport::slot::KAbsorption), per(sums, transport::slot::KTrack),
                              transport::entropy(counts_), static_cast<double>(banked_), g_ >= spec_.inactive ? 1.0 : 0.0};
    record(g_, sums, row);
    k_ = row[1];
    std::string decision;
    if (partials.size() > 1) {
      reduce::Packer next(kSitesLayout);
      next.put(k_), next.put(drawn_);
      decision = next.take();
    }
    if (!kept_) std::swap(sites_, drawn_);
    ++g_;
    running_ = false;
    return decision;
  }
  void decide(const std::string& decision) override {
    reduce::Unpacker in(decision, kSitesLayout, "rank 0");
    in.get(k_), in.get(sites_), in.finish();
    ++g_;
    running_ = false;
  }

  // The generations finished: k and the tallies over the active ones among them.
  void peek() override {
    if (k_active_.size() < 2)
      throw std::runtime_error(fmt::format("the checkpoint holds {} of the {} inactive and {} of the {} active generations; "
                                           "k needs two active ones", std::min<std::uint64_t>(g_, spec_.inactive), spec_.inactive,
                                           k_active_.size(), spec_.active));
    peeked_ = true;
  }
  ScenarioRun results(const std::vector<std::string>&, const DeviceList&, double stages_s) override {
    io::ScenarioResult scenario;
    const std::uint64_t active = peeked_ ? k_active_.size() : spec_.active;
    std::vector<double> weights;
    // k's three estimators and the tallies over generations [g0, g1) of the active
    // ones; k_eff combines them with `weights`.
    const auto estimates = [&](std::uint64_t g0, std::uint64_t g1, io::ScenarioResult* out, bool with_table) {
      const std::vector<std::uint64_t> part(active_rows_.begin() + static_cast<std::ptrdiff_t>(g0 * slots_),
                                            active_rows_.begin() + static_cast<std::ptrdiff_t>(g1 * slots_));
      const Batches b{part, slots_, n_ * (g1 - g0), n_, kGenerationBatches};
      double k_eff = 0;
      for (std::uint64_t g = g0; g < g1; ++g)
        for (std::size_t i = 0; i < 3; ++i) k_eff += weights[i] * k_active_[g][i] / static_cast<double>(g1 - g0);
      out->estimates.push_back(reduce::normal_estimate("k_eff", k_eff, NAN, g1 - g0));
      out->estimates.push_back(b.of("k_collision", transport::slot::KCollision));
      out->estimates.push_back(b.of("k_absorption", transport::slot::KAbsorption));
      out->estimates.push_back(b.of("k_track", transport::slot::KTrack));
      tally_estimates(model_, view_, b, out, with_table);
    };
    reduce::Estimate k_eff = combined_k(k_active_, &weights);
    if (weights.size() != 3) weights = {1, 0, 0};  // no combination: the collision estimator
    estimates(0, active, &scenario, true);
    // k_eff's error: batch means of the combined k of each generation.
    std::vector<double> k_combined;
    for (const auto& g : k_active_) k_combined.push_back(weights[0] * g[0] + weights[1] * g[1] + weights[2] * g[2]);
    const KErrors k_error = k_errors(k_combined);
    if (k_eff.std_error > 0 && std::isfinite(k_error.batch))  // (0: an exact estimator)
      k_eff = reduce::normal_estimate("k_eff", k_eff.value, k_error.batch, k_eff.samples);
    scenario.estimates.front() = k_eff;
    // The same on batches of generations, for paired differences between scenarios.
    const std::uint64_t B = reduce::batch_count(active);
    for (std::uint64_t k = 0; k < B; ++k) {
      const auto [first, last] = reduce::batch_rows(k, B, active);
      io::ScenarioResult one;
      estimates(first, last, &one, false);
      scenario.batches.add(one.estimates);
    }
    scenario.diagnostics.emplace_back("k_weight_collision", weights[0]);
    scenario.diagnostics.emplace_back("k_weight_absorption", weights[1]);
    scenario.diagnostics.emplace_back("k_weight_track", weights[2]);
    scenario.diagnostics.emplace_back("k_eff_naive_std_error", k_error.naive);
    scenario.diagnostics.emplace_back("k_eff_error_ratio", k_error.naive > 0 ? k_error.batch / k_error.naive : NAN);
    scenario.diagnostics.emplace_back("error_batches", static_cast<double>(k_error.batches));
    scenario.diagnostics.emplace_back("error_batch_generations", static_cast<double>(k_error.generations_per_batch));
    double h_mean = 0;
    for (std::size_t g = spec_.inactive; g < spec_.inactive + active; ++g) h_mean += generation_rows_[g * kRow + 4] / static_cast<double>(active);
    scenario.diagnostics.emplace_back("entropy_active_mean", h_mean);
    scenario.tables.push_back({"k_generation", {"generation", "k_collision", "k_absorption", "k_track", "entropy", "bank_sites", "active"},
                               generation_rows_, {"", "", "", "", "bits", "sites", ""}});
    for (std::size_t r = 0; r < active; ++r)
      for (int s = 0; s < transport::slot::Lost; ++s)  // slot_names()' slots (the lost weight is a diagnostic)
        scenario.chunk_tallies.push_back(static_cast<double>(active_rows_[r * slots_ + static_cast<std::size_t>(s)]) * transport::kTallyUnit);
    return finish(std::move(scenario), slot_names(), stages_s);
  }
  std::uint64_t paths() const override { return n_ * (peeked_ ? g_ : generations_); }

 private:
  // A generation's slot `s` per source neutron.
  double per(const std::vector<std::uint64_t>& sums, int s) const {
    return static_cast<double>(sums[static_cast<std::size_t>(s)]) * transport::kTallyUnit / static_cast<double>(n_);
  }
  // Generation g finished: its slots summed over its rows, and its k_generation row.
  void record(std::uint64_t g, const std::vector<std::uint64_t>& sums, const double* row) {
    generation_rows_.insert(generation_rows_.end(), row, row + kRow);
    collisions_ += per(sums, transport::slot::Collisions) * static_cast<double>(n_);
    lost_ += per(sums, transport::slot::Lost) * static_cast<double>(n_);
    segments_ += per(sums, transport::slot::Segments) * static_cast<double>(n_);
    if (g >= spec_.inactive) {
      active_rows_.insert(active_rows_.end(), sums.begin(), sums.end());
      k_active_.push_back({row[1], row[2], row[3]});
    }
    record_sums_.insert(record_sums_.end(), sums.begin(), sums.end());
    record_rows_.insert(record_rows_.end(), row, row + kRow);
  }

  const std::uint64_t generations_;
  const plan::Span my_rows_;
  TransportExecutor& first_executor_;
  const bool kept_;
  transport::SourceMesh mesh_;
  std::uint64_t g_ = 0;       // the generation under way
  double k_ = 1, u_ = 0;
  bool device_holds_ = false;  // the device holds the next generation's sites
  bool running_ = false;       // a generation dispatched and not yet reduced
  bool peeked_ = false;        // results of the generations a checkpoint holds
  std::uint64_t banked_ = 0;
  std::vector<Site<double>> sites_;  // this generation's, all N (empty: the source)
  // Buffers kept across generations: each holds about N sites, and fresh ones
  // would cost their page faults every generation.
  std::vector<Site<double>> bank_, drawn_;
  std::vector<std::uint64_t> mine_, counts_;
  std::vector<std::uint64_t> active_rows_;  // per active generation: the slots summed over its rows
  std::vector<std::array<double, 3>> k_active_;
  std::vector<double> generation_rows_;
  // Every finished generation's slots summed over its rows, and its row of the
  // k_generation table (kRow values): what a checkpoint holds.
  std::vector<std::uint64_t> record_sums_;
  std::vector<double> record_rows_;
};

}  // namespace

ScenarioRun run_transport_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  if (dynamic_cast<const transport::TransportModel&>(*job.model).spec().eigenvalue)
    return run_family<EigenvalueStages>(job, options, devices);
  return run_family<FixedSourceStages>(job, options, devices);
}

}  // namespace mcsim
