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

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <stdexcept>

#include "app/exec/transport/executor.hpp"
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

constexpr std::uint64_t kUnitHistories = std::uint64_t{1} << 26;  // fixed source: histories per call
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
constexpr reduce::PartialLayout kGenerationsLayout{"transport.generations", 1};
constexpr reduce::PartialLayout kBankLayout{"transport.bank", 1};
constexpr reduce::PartialLayout kSitesLayout{"transport.sites", 1};
constexpr std::size_t kRow = 7;

// Checks a partial's slot count against the job's.
void check_slots(std::uint64_t got, std::size_t slots, std::size_t n, std::size_t rows, const std::string& where) {
  if (got != slots || n != rows * slots) throw std::runtime_error("the partial from " + where + " does not match this job's tallies");
}

// Checkpoint timing and the collective stop: every rank calls after_step() as often.
struct Saver {
  double every_s;
  Clock::time_point last = Clock::now();
  bool enabled;
  // True when every rank should save now; throws Stopped (after `save`) on a signal.
  template <class Save>
  void after_step(const Save& save) {
    if (mpi::max_over_ranks(stop_requested() ? 1 : 0)) {
      if (enabled) save();
      throw stopped_by_signal(enabled);
    }
    if (enabled && every_s > 0 && since(last) >= every_s) save(), last = Clock::now();
  }
};

// Batch statistics over rows of slots, each row a batch of histories.
// Every slot's exact sum and squared spread come from two passes along the rows
// (memory order), so a mesh of many bins costs two reads of the rows.
class Batches {
 public:
  // Row r is a batch of `per_row` histories, the last one of what `total` leaves.
  Batches(const std::vector<std::uint64_t>& rows, std::size_t slots, std::uint64_t total, std::uint64_t per_row)
      : rows_(rows), slots_(slots), total_(total), exact_(slots, 0), ss_(slots, 0) {
    for (std::size_t r = 0; r < count(); ++r) {
      sizes_.push_back(static_cast<double>(std::min(per_row, total - r * per_row)));
      for (std::size_t i = 0; i < slots; ++i) exact_[i] += rows[r * slots + i];
    }
    for (std::size_t r = 0; r < count(); ++r)
      for (std::size_t i = 0; i < slots; ++i) {
        const double d = units(rows[r * slots + i]) / sizes_[r] - mean(exact_[i]);
        ss_[i] += sizes_[r] * d * d;
      }
  }
  std::size_t count() const { return rows_.size() / slots_; }
  // The mean per history of one slot, times `scale`, with the error of the batch
  // means' spread.
  reduce::Estimate of(const std::string& name, int slot, double scale = 1) const {
    const auto i = static_cast<std::size_t>(slot);
    return estimate(name, mean(exact_[i]), ss_[i], scale);
  }
  // The same for the sum of the slots [first, last).
  reduce::Estimate of_sum(const std::string& name, int first, int last) const {
    const auto slots = [&](std::size_t r) {
      unsigned __int128 s = 0;
      for (int i = first; i < last; ++i) s += rows_[r * slots_ + static_cast<std::size_t>(i)];
      return s;
    };
    unsigned __int128 exact = 0;
    for (std::size_t r = 0; r < count(); ++r) exact += slots(r);
    double ss = 0;
    for (std::size_t r = 0; r < count(); ++r) {
      const double d = units(slots(r)) / sizes_[r] - mean(exact);
      ss += sizes_[r] * d * d;
    }
    return estimate(name, mean(exact), ss, 1);
  }

 private:
  static double units(unsigned __int128 v) { return static_cast<double>(v) * transport::kTallyUnit; }
  double mean(unsigned __int128 exact) const { return units(exact) / static_cast<double>(total_); }
  reduce::Estimate estimate(const std::string& name, double mean, double ss, double scale) const {
    const std::size_t B = count();
    const double se = B > 1 ? std::sqrt(ss / (static_cast<double>(total_) * static_cast<double>(B - 1))) : NAN;
    return reduce::normal_estimate(name, mean * scale, se * scale, total_);
  }
  const std::vector<std::uint64_t>& rows_;
  std::size_t slots_;
  std::uint64_t total_;
  std::vector<unsigned __int128> exact_;
  std::vector<double> ss_, sizes_;
};

// The tallies a job asked for, and the flux mesh as a table.
void tally_estimates(const transport::TransportModel& model, const transport::TransportView<double>& v, const Batches& b,
                     io::ScenarioResult* out, bool with_table = true) {
  namespace slot = transport::slot;
  const transport::TransportSpec& spec = model.spec();
  const transport::Tallies& t = spec.tallies;
  const std::pair<bool, std::pair<const char*, int>> scalars[] = {
      {t.transmission, {"transmission", slot::Transmission}}, {t.reflection, {"reflection", slot::Reflection}},
      {t.absorption, {"absorption", slot::Absorption}},       {t.leakage, {"leakage", slot::Leakage}},
      {t.collisions, {"collisions", slot::Collisions}}};
  for (const auto& [wanted, named] : scalars)
    if (wanted) out->estimates.push_back(b.of(named.first, named.second));
  if (!t.flux_bins) return;
  const int G = spec.groups, bins = t.flux_bins;
  out->estimates.push_back(b.of_sum("flux", slot::Scalars, slot::Scalars + G * bins));
  out->estimates.push_back(b.of_sum("flux_collision", slot::Scalars + G * bins, slot::Scalars + 2 * G * bins));
  if (!with_table) return;  // a batch's estimates, for paired differences
  // Per bin: the flux is its track length (or collision score) over its volume.
  std::vector<double> rows;
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < bins; ++i) {
      double lo = 0, hi = 0, volume = 1;
      if (spec.geometry.shape != transport::Shape::Infinite) {
        lo = v.mesh_low + v.mesh_width * i, hi = v.mesh_low + v.mesh_width * (i + 1);
        volume = v.sphere ? 4.0 / 3.0 * M_PI * (hi * hi * hi - lo * lo * lo) : hi - lo;
      }
      const auto tr = b.of("", slot::Scalars + g * bins + i, 1 / volume);
      const auto co = b.of("", slot::Scalars + G * bins + g * bins + i, 1 / volume);
      rows.insert(rows.end(), {lo, hi, static_cast<double>(g), tr.value, tr.std_error, co.value, co.std_error,
                               model.flux_reference(lo, hi, g)});
    }
  out->tables.push_back({"flux", {"low", "high", "group", "track", "track_std_error", "collision", "collision_std_error", "reference"}, rows});
}

// The minimum-variance combination of k's estimators (weights C^-1 1 / 1' C^-1 1,
// C their covariance over the generations), on the largest subset whose covariance
// is positive definite; implicit capture makes the absorption and collision
// estimators one.
reduce::Estimate combined_k(const std::vector<std::array<double, 3>>& k, std::vector<double>* weights) {
  const std::size_t n = k.size();
  double mean[3] = {0, 0, 0}, c[3][3] = {};
  for (const auto& g : k)
    for (int i = 0; i < 3; ++i) mean[i] += g[static_cast<std::size_t>(i)] / static_cast<double>(n);
  // An estimator with no spread is exact (an infinite medium's absorption estimator).
  for (int i = 0; i < 3; ++i) {
    bool flat = true;
    for (const auto& g : k) flat = flat && g[static_cast<std::size_t>(i)] == k.front()[static_cast<std::size_t>(i)];
    if (flat) {
      weights->assign(3, 0.0);
      (*weights)[static_cast<std::size_t>(i)] = 1;
      return reduce::normal_estimate("k_eff", k.front()[static_cast<std::size_t>(i)], 0, n);
    }
  }
  for (const auto& g : k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        c[i][j] += (g[static_cast<std::size_t>(i)] - mean[i]) * (g[static_cast<std::size_t>(j)] - mean[j]) / static_cast<double>(n - 1);
  for (const std::vector<int>& subset : {std::vector<int>{0, 1, 2}, {0, 2}, {1, 2}, {0, 1}, {0}}) {
    const std::size_t m = subset.size();
    // Solve C_s x = 1 by Gaussian elimination; give up on a pivot that vanishes.
    std::vector<double> a(m * (m + 1));
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < m; ++j) a[i * (m + 1) + j] = c[subset[i]][subset[j]];
      a[i * (m + 1) + m] = 1;
    }
    bool ok = true;
    for (std::size_t p = 0; p < m && ok; ++p) {
      const double pivot = a[p * (m + 1) + p];
      if (!(pivot > 1e-9 * c[subset[p]][subset[p]]) || !(c[subset[p]][subset[p]] > 0)) { ok = m == 1 && pivot >= 0; break; }
      for (std::size_t r = p + 1; r < m; ++r) {
        const double f = a[r * (m + 1) + p] / pivot;
        for (std::size_t j = p; j <= m; ++j) a[r * (m + 1) + j] -= f * a[p * (m + 1) + j];
      }
    }
    if (!ok) continue;
    std::vector<double> x(m);
    for (std::size_t r = m; r-- > 0;) {
      double s = a[r * (m + 1) + m];
      for (std::size_t j = r + 1; j < m; ++j) s -= a[r * (m + 1) + j] * x[j];
      x[r] = a[r * (m + 1) + r] > 0 ? s / a[r * (m + 1) + r] : 1;
    }
    double sum = 0;
    for (double v : x) sum += v;
    if (!(sum > 0)) continue;
    weights->assign(3, 0.0);
    double value = 0;
    for (std::size_t i = 0; i < m; ++i) (*weights)[static_cast<std::size_t>(subset[i])] = x[i] / sum, value += x[i] / sum * mean[subset[i]];
    const double var = m == 1 ? c[subset[0]][subset[0]] : 1 / sum;
    return reduce::normal_estimate("k_eff", value, std::sqrt(var / static_cast<double>(n)), n);
  }
  return reduce::normal_estimate("k_eff", mean[0], NAN, n);
}

std::vector<std::string> slot_names() {
  return {"transmission", "reflection", "absorption", "leakage", "collisions", "k_collision", "k_absorption", "k_track"};
}

}  // namespace

ScenarioRun run_transport_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  const auto& model = dynamic_cast<const transport::TransportModel&>(*job.model);
  const auto t_start = Clock::now();
  const io::RunConfig& run = job.run;
  const transport::TransportSpec& spec = model.spec();
  const transport::TransportKernel kernel = model.transport_kernel(run.precision, run.seed);
  const transport::TransportView<double> view = kernel.in_double.view();
  const auto slots = static_cast<std::size_t>(kernel.slots());
  const std::uint64_t n = run.paths;
  const int rank = mpi::rank(), ranks = mpi::size();
  const double setup_s = since(t_start);
  const auto t_sim = Clock::now();

  io::ScenarioResult scenario;
  double histories_s = 0;  // in the backends' calls: histories, copies to and from devices
  std::uint64_t histories = 0;
  double collisions = 0;
  std::vector<std::string> layout = slot_names();
  if (!spec.eigenvalue) {
    // This rank's chunks, a unit of them at a time, less those a checkpoint holds.
    const std::uint64_t C = run.chunk_paths, chunks = (n + C - 1) / C;
    const plan::Span my = plan::share({0, chunks}, rank, ranks);
    const std::uint64_t c0 = my.first, c1 = my.last;
    const TransportBatch whole{0, 0, n, C, nullptr, 1};
    std::vector<std::uint64_t> mine((c1 - c0) * slots, 0);
    std::vector<char> done(c1 - c0, 0);
    const std::string fp = job_fingerprint(job, devices);
    for (const auto& [file, c] : resume_checkpoints(options, fp, chunks, kRowsLayout)) {
      const std::string where = "checkpoint '" + file + "'";
      reduce::Unpacker in(c.partial, kRowsLayout, where);
      std::uint64_t width = 0;
      std::vector<std::uint64_t> rows;
      in.get(width), in.get(rows), in.finish();
      check_slots(width, slots, rows.size(), c.done.size(), where);
      for (std::size_t i = 0; i < c.done.size(); ++i)
        if (c.done[i] >= c0 && c.done[i] < c1) {
          std::copy_n(&rows[i * slots], slots, &mine[(c.done[i] - c0) * slots]);
          done[c.done[i] - c0] = 1;
        }
    }
    const auto save = [&] {
      std::vector<std::uint64_t> finished, rows;
      for (std::uint64_t c = c0; c < c1; ++c)
        if (done[c - c0])
          finished.push_back(c), rows.insert(rows.end(), &mine[(c - c0) * slots], &mine[(c - c0 + 1) * slots]);
      reduce::Packer out(kRowsLayout);
      out.put(static_cast<std::uint64_t>(slots)), out.put(rows);
      write_rank_checkpoint(options, fp, chunks, std::move(finished), kRowsLayout, out.take());
    };
    // Units: runs of chunks still to do, of about a 64th of the job (for progress
    // and checkpoints), at least a chunk per CPU thread and at most kUnitHistories
    // histories each.
    std::vector<plan::Span> todo;
    for (std::uint64_t c = c0; c < c1; ++c) {
      if (done[c - c0]) continue;
      if (!todo.empty() && todo.back().last == c) ++todo.back().last;
      else todo.push_back({c, c + 1});
    }
    std::uint64_t least = 1;
    for (const Device* d : devices) least = std::max(least, d->min_unit());
    const std::uint64_t most = kUnitHistories / C;
    const std::vector<plan::Span> units = plan::cut(todo, plan::unit_size(chunks, 1, 64, std::min(least, most), most));
    Saver saver{run.checkpoint_s, Clock::now(), !options.checkpoint_for.empty()};
    Progress progress(n, options.progress && mpi::master());
    const auto steps = static_cast<std::size_t>(mpi::max_over_ranks(static_cast<int>(units.size())));
    try {
      for (std::size_t i = 0; i < steps; ++i) {
        if (i < units.size()) {
          const auto [a, b] = units[i];
          const auto t = Clock::now();
          run_rows(devices, kernel, whole, a, b, &mine[(a - c0) * slots], nullptr);
          histories_s += since(t);
          std::fill(done.begin() + static_cast<std::ptrdiff_t>(a - c0), done.begin() + static_cast<std::ptrdiff_t>(b - c0), 1);
          progress.add(std::min(n, b * C) - a * C);
        }
        saver.after_step(save);
      }
    } catch (const Stopped&) {
      throw;
    } catch (...) {
      if (saver.enabled) save();  // what finished stays usable
      throw;
    }
    progress.finish();
    if (saver.enabled && options.checkpoint_at_end) save();
    // Rank 0 takes every rank's rows, in rank order (one rank: its own).
    std::vector<std::uint64_t> rows;
    if (ranks == 1) {
      rows = std::move(mine);
    } else {
      reduce::Packer out(kRowsLayout);
      out.put(static_cast<std::uint64_t>(slots)), out.put(mine);
      const auto parts = mpi::gather(out.take());
      for (std::size_t r = 0; r < parts.size(); ++r) {
        const std::string where = fmt::format("rank {}", r);
        reduce::Unpacker in(parts[r], kRowsLayout, where);
        std::uint64_t width = 0;
        std::vector<std::uint64_t> part;
        in.get(width), in.get(part), in.finish();
        check_slots(width, slots, part.size(), part.size() / slots, where);
        rows.insert(rows.end(), part.begin(), part.end());
      }
    }
    if (mpi::master()) {
      const Batches b{rows, slots, n, C};
      tally_estimates(model, view, b, &scenario);
      // The estimates on batches of chunks, for paired differences between scenarios.
      const std::uint64_t B = reduce::batch_count(b.count());
      for (std::uint64_t k = 0; k < B; ++k) {
        const auto [first, last] = reduce::batch_rows(k, B, b.count());
        const std::vector<std::uint64_t> part(rows.begin() + static_cast<std::ptrdiff_t>(first * slots),
                                              rows.begin() + static_cast<std::ptrdiff_t>(last * slots));
        io::ScenarioResult one;
        tally_estimates(model, view, Batches{part, slots, std::min(n, last * C) - first * C, C}, &one, false);
        scenario.batches.add(one.estimates);
      }
      collisions = b.of("", transport::slot::Collisions).value * static_cast<double>(n);
      for (std::size_t r = 0; r < b.count(); ++r)
        for (int s = 0; s < transport::slot::KCollision; ++s)
          scenario.chunk_tallies.push_back(static_cast<double>(rows[r * slots + static_cast<std::size_t>(s)]) * transport::kTallyUnit);
      layout.resize(transport::slot::KCollision);
    }
    histories = n;
  } else {
    // Generations: every rank runs its rows of the generation; rank 0 gathers the
    // tallies and the bank, draws the next sites and sends them to all.
    const std::uint64_t generations = spec.inactive + spec.active;
    const std::uint64_t rows_per_gen = (n + kGenerationRow - 1) / kGenerationRow;
    const plan::Span my_rows = plan::share({0, rows_per_gen}, rank, ranks);
    const std::uint64_t r0 = my_rows.first, r1 = my_rows.last;
    std::vector<Site<double>> sites;  // this generation's, all N (empty: the source)
    double k = 1;
    std::vector<std::uint64_t> active_rows;  // per active generation: the slots summed over its rows
    std::vector<std::array<double, 3>> k_active;
    std::vector<double> generation_rows;
    // The bank's entropy mesh: the flux mesh's bins, or 32.
    transport::SourceMesh mesh;
    mesh.low = spec.geometry.shape == transport::Shape::Slab ? spec.geometry.surfaces.front() : 0.0;
    mesh.high = spec.geometry.shape == transport::Shape::Infinite ? 1.0 : spec.geometry.surfaces.back();
    mesh.bins = spec.geometry.shape == transport::Shape::Infinite ? 1 : spec.tallies.flux_bins > 1 ? spec.tallies.flux_bins : 32;
    // Every finished generation's slots summed over its rows, and its row of the
    // k_generation table (kRow values): what a checkpoint holds.
    std::vector<std::uint64_t> record_sums;
    std::vector<double> record_rows;
    // A generation's slot `s` per source neutron.
    const auto per = [&](const std::vector<std::uint64_t>& sums, int s) {
      return static_cast<double>(sums[static_cast<std::size_t>(s)]) * transport::kTallyUnit / static_cast<double>(n);
    };
    const auto record = [&](std::uint64_t g, const std::vector<std::uint64_t>& sums, const double* row) {
      generation_rows.insert(generation_rows.end(), row, row + kRow);
      collisions += per(sums, transport::slot::Collisions) * static_cast<double>(n);
      if (g >= spec.inactive) {
        active_rows.insert(active_rows.end(), sums.begin(), sums.end());
        k_active.push_back({row[1], row[2], row[3]});
      }
      record_sums.insert(record_sums.end(), sums.begin(), sums.end());
      record_rows.insert(record_rows.end(), row, row + kRow);
    };
    // A checkpoint: the finished generations' records, and the next generation's k
    // and sites (rank 0's; the others hold only their rows).
    const std::string fp = job_fingerprint(job, devices);
    std::uint64_t first_g = 0;
    for (const auto& [file, c] : resume_checkpoints(options, fp, generations, kGenerationsLayout)) {
      const std::string where = "checkpoint '" + file + "'";
      reduce::Unpacker in(c.partial, kGenerationsLayout, where);
      std::uint64_t width = 0;
      std::vector<std::uint64_t> sums;
      std::vector<double> rows;
      in.get(width), in.get(sums), in.get(rows), in.get(k), in.get(sites), in.finish();
      first_g = c.done.size();
      check_slots(width, slots, sums.size(), first_g, where);
      if (rows.size() != first_g * kRow || first_g > generations || (first_g > 0 && sites.size() != n))
        throw std::runtime_error("the partial from " + where + " does not match this job's generations");
      for (std::uint64_t g = 0; g < first_g; ++g)
        record(g, std::vector<std::uint64_t>(&sums[g * slots], &sums[(g + 1) * slots]), &rows[g * kRow]);
    }
    // One rank on one device that keeps the sites: the bank stays there, and only
    // the tallies and its mesh counts come back. Otherwise rank 0 gathers the bank.
    TransportExecutor& first_executor = devices.front()->executor<TransportExecutor>();
    const bool kept = ranks == 1 && devices.size() == 1 && first_executor.keeps_sites();
    bool device_holds = false;  // the device holds the next generation's sites
    const auto save = [&] {
      if (!mpi::master()) return;
      if (device_holds) first_executor.kept_sites(&sites);
      std::vector<std::uint64_t> finished(record_rows.size() / kRow);
      for (std::uint64_t g = 0; g < finished.size(); ++g) finished[g] = g;
      reduce::Packer out(kGenerationsLayout);
      out.put(static_cast<std::uint64_t>(slots)), out.put(record_sums), out.put(record_rows), out.put(k), out.put(sites);
      write_rank_checkpoint(options, fp, generations, std::move(finished), kGenerationsLayout, out.take());
    };
    Saver saver{run.checkpoint_s, Clock::now(), !options.checkpoint_for.empty()};
    Progress progress(n * generations, options.progress && mpi::master());
    progress.add(n * first_g);
    // Buffers kept across generations: each holds about N sites, and fresh ones
    // would cost their page faults every generation.
    std::vector<Site<double>> bank, drawn;
    std::vector<std::uint64_t> mine((r1 - r0) * slots), counts(static_cast<std::size_t>(mesh.bins));
    for (std::uint64_t g = first_g; g < generations; ++g) {
      TransportBatch whole{transport::generation_stream(g, 0), 0, n, kGenerationRow, sites.empty() ? nullptr : sites.data(), k};
      // The next generation's sites come from the bank by systematic sampling with
      // this one uniform of the generation's own.
      rng::Stream stream(run.seed, transport::generation_stream(g, std::uint64_t{1} << 39));
      const double u = rng::uniforms<double>(stream).z[0];
      std::vector<std::uint64_t> sums(slots, 0);
      const auto add_rows = [&](const std::vector<std::uint64_t>& rows, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) sums[i % slots] += rows[i];
      };
      std::uint64_t banked = 0;
      const auto t = Clock::now();
      if (kept) {
        if (device_holds) whole.sites = nullptr, whole.kept_sites = true;
        // One row: the device sums the generation's tallies before they come back
        // (integer sums, so the bits of any rows).
        whole.chunk = n;
        banked = first_executor.generation(kernel, whole, mesh, u, mine.data(), counts.data());
        device_holds = banked > 0;
        histories_s += since(t);
        add_rows(mine, slots);
      } else {
        bank.clear();
        run_rows(devices, kernel, whole, r0, r1, mine.data(), &bank);
        histories_s += since(t);
        // Rank 0 takes every rank's rows and bank, in rank order (one rank: its own).
        if (ranks > 1) {
          reduce::Packer out(kBankLayout);
          out.put(static_cast<std::uint64_t>(slots)), out.put(mine), out.put(bank);
          const auto parts = mpi::gather(out.take());
          bank.clear();
          for (std::size_t r = 0; r < parts.size(); ++r) {
            const std::string where = fmt::format("rank {}", r);
            reduce::Unpacker in(parts[r], kBankLayout, where);
            std::uint64_t width = 0;
            std::vector<std::uint64_t> rows;
            std::vector<Site<double>> part;
            in.get(width), in.get(rows), in.get(part), in.finish();
            check_slots(width, slots, rows.size(), rows.size() / slots, where);
            add_rows(rows, rows.size());
            bank.insert(bank.end(), part.begin(), part.end());
          }
        } else {
          add_rows(mine, mine.size());
        }
        if (mpi::master()) {
          banked = bank.size();
          std::fill(counts.begin(), counts.end(), 0);
          for (const auto& site : bank) ++counts[static_cast<std::size_t>(transport::source_bin(mesh, site.pos))];
          drawn.resize(banked > 0 ? n : 0);
          for (std::uint64_t j = 0; j < drawn.size(); ++j) drawn[j] = bank[transport::drawn_index(j, u, banked, n)];
        }
      }
      progress.add(n);
      reduce::Packer next(kSitesLayout);
      if (mpi::master()) {
        if (banked == 0) throw std::runtime_error(fmt::format("generation {}: no fission sites; the chain died out", g));
        const double row[kRow] = {static_cast<double>(g), per(sums, transport::slot::KCollision),
                                  per(sums, transport::slot::KAbsorption), per(sums, transport::slot::KTrack),
                                  transport::entropy(counts), static_cast<double>(banked), g >= spec.inactive ? 1.0 : 0.0};
        record(g, sums, row);
        k = row[1];
        if (ranks > 1) next.put(k), next.put(drawn);
      }
      if (ranks > 1) {
        const std::string sent = mpi::broadcast(next.take());
        reduce::Unpacker in(sent, kSitesLayout, "rank 0");
        in.get(k), in.get(sites), in.finish();
      } else if (!kept) {
        std::swap(sites, drawn);
      }
      saver.after_step(save);
    }
    progress.finish();
    if (saver.enabled && options.checkpoint_at_end) save();
    if (mpi::master()) {
      const std::uint64_t active = spec.active;
      std::vector<double> weights;
      // k's three estimators and the tallies over generations [g0, g1) of the active
      // ones; k_eff combines them with `weights`.
      const auto estimates = [&](std::uint64_t g0, std::uint64_t g1, io::ScenarioResult* out, bool with_table) {
        const std::vector<std::uint64_t> part(active_rows.begin() + static_cast<std::ptrdiff_t>(g0 * slots),
                                              active_rows.begin() + static_cast<std::ptrdiff_t>(g1 * slots));
        const Batches b{part, slots, n * (g1 - g0), n};
        double k_eff = 0;
        for (std::uint64_t g = g0; g < g1; ++g)
          for (std::size_t i = 0; i < 3; ++i) k_eff += weights[i] * k_active[g][i] / static_cast<double>(g1 - g0);
        out->estimates.push_back(reduce::normal_estimate("k_eff", k_eff, NAN, g1 - g0));
        out->estimates.push_back(b.of("k_collision", transport::slot::KCollision));
        out->estimates.push_back(b.of("k_absorption", transport::slot::KAbsorption));
        out->estimates.push_back(b.of("k_track", transport::slot::KTrack));
        tally_estimates(model, view, b, out, with_table);
      };
      const reduce::Estimate k_eff = combined_k(k_active, &weights);
      if (weights.size() != 3) weights = {1, 0, 0};  // no combination: the collision estimator
      estimates(0, active, &scenario, true);
      scenario.estimates.front() = k_eff;  // with its error from the estimators' covariance
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
      double h_mean = 0;
      for (std::size_t g = spec.inactive; g < generations; ++g) h_mean += generation_rows[g * 7 + 4] / static_cast<double>(active);
      scenario.diagnostics.emplace_back("entropy_active_mean", h_mean);
      scenario.tables.push_back({"k_generation", {"generation", "k_collision", "k_absorption", "k_track", "entropy", "bank_sites", "active"},
                                 generation_rows});
      for (std::size_t r = 0; r < active; ++r)
        for (int s = 0; s < transport::slot::Scalars; ++s)
          scenario.chunk_tallies.push_back(static_cast<double>(active_rows[r * slots + static_cast<std::size_t>(s)]) * transport::kTallyUnit);
    }
    histories = n * generations;
  }
  double simulate_s = since(t_sim);
  const auto t_red = Clock::now();
  ScenarioRun r;
  r.paths = histories;
  if (!mpi::master()) return r;

  scenario.references = model.references();
  scenario.tally_layout = layout;
  scenario.diagnostics.emplace_back("collisions_per_history", collisions / static_cast<double>(histories));
  scenario.diagnostics.emplace_back("collisions_per_s", simulate_s > 0 ? collisions / simulate_s : 0.0);
  r.scenario = std::move(scenario);
  // simulate = histories (the executors' calls) + the rest: gathering rows, the
  // bank's draws and messages, the statistics.
  r.stage_seconds = {{"setup", setup_s}, {"simulate", simulate_s}, {"histories", histories_s}, {"reduce", since(t_red)}};
  r.work = static_cast<double>(histories);
  return r;
}

}  // namespace mcsim
