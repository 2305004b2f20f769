// Option pricing: a job's chunks in stages (16, 32, 64, ... chunks when it has a
// target error, else all at once), each rank a contiguous share of each stage run
// on its devices; partials reduce in the fixed dyadic tree over chunk indices, so
// the estimates have the same bits on any number of ranks, devices and threads.
#include "app/run/option/job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "app/run/option/greeks.hpp"
#include "app/run/signals.hpp"
#include "app/run/option/workers.hpp"
#include "reduce/mpi.hpp"
#include "reduce/tree.hpp"

namespace mcsim {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::vector<std::string> tally_layout(const std::vector<std::string>& outputs) {
  std::vector<std::string> names;
  for (const auto& o : outputs) {
    names.push_back(o + ".count");
    names.push_back(o + ".sum");
    names.push_back(o + ".sum_sq");
  }
  return names;
}

bool target_met(const std::vector<reduce::Estimate>& est, const io::RunConfig& run) {
  for (const auto& e : est) {
    if (run.target_rel_error > 0 && !(e.std_error <= run.target_rel_error * std::fabs(e.value))) return false;
    if (run.target_abs_error > 0 && !(e.std_error <= run.target_abs_error)) return false;
  }
  return true;
}

// Rank 0 gets each rank's maximal complete subtrees of the fixed tree: their nodes
// and values.
constexpr reduce::PartialLayout kSubtreesLayout{"option.subtrees", 1};
std::string pack_subtrees(const std::vector<reduce::NodeValue>& nodes, std::size_t width) {
  std::vector<std::int32_t> levels;
  std::vector<std::uint64_t> indices;
  std::vector<double> values;
  for (const auto& nv : nodes) {
    levels.push_back(nv.node.level), indices.push_back(nv.node.index);
    values.insert(values.end(), nv.value.begin(), nv.value.end());
  }
  reduce::Packer out(kSubtreesLayout);
  out.put(static_cast<std::uint64_t>(width)), out.put(levels), out.put(indices), out.put(values);
  return out.take();
}
void unpack_subtrees(const std::string& bytes, std::size_t width, const std::string& where,
                     std::vector<reduce::NodeValue>* out) {
  reduce::Unpacker in(bytes, kSubtreesLayout, where);
  std::uint64_t w = 0;
  std::vector<std::int32_t> levels;
  std::vector<std::uint64_t> indices;
  std::vector<double> values;
  in.get(w), in.get(levels), in.get(indices), in.get(values), in.finish();
  if (w != width || indices.size() != levels.size() || values.size() != levels.size() * width)
    throw std::runtime_error("the partial from " + where + " does not match this job's tally");
  for (std::size_t i = 0; i < levels.size(); ++i)
    out->push_back({{levels[i], indices[i]},
                    reduce::Tally(values.begin() + static_cast<std::ptrdiff_t>(i * width),
                                  values.begin() + static_cast<std::ptrdiff_t>((i + 1) * width))});
}

// Finished chunks and their partials, for checkpoints and for rank 0's chunk table:
// the tally width, the chunk indices, their partials in that order.
constexpr reduce::PartialLayout kChunksLayout{"option.chunks", 1};
std::string pack_chunks(const ChunkStore& store, const std::vector<ChunkSpan>& spans, std::vector<std::uint64_t>* done) {
  std::vector<double> partials;
  for (const ChunkSpan& s : spans) store.snapshot(s.first, s.last, done, &partials);
  reduce::Packer out(kChunksLayout);
  out.put(static_cast<std::uint64_t>(store.width())), out.put(*done), out.put(partials);
  return out.take();
}
void unpack_chunks(const std::string& bytes, const std::string& where, ChunkStore& store) {
  reduce::Unpacker in(bytes, kChunksLayout, where);
  std::uint64_t width = 0;
  std::vector<std::uint64_t> chunks;
  std::vector<double> partials;
  in.get(width), in.get(chunks), in.get(partials), in.finish();
  if (width != store.width() || partials.size() != chunks.size() * width)
    throw std::runtime_error("the partial from " + where + " does not match this job's tally");
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i] >= store.chunks()) throw std::runtime_error("the partial from " + where + " has a chunk past the job's");
    store.put(chunks[i], &partials[i * width]);
  }
}

class CheckpointFiles {
 public:
  CheckpointFiles(const RunOptions& opt, std::string fp, std::uint64_t chunks)
      : opt_(opt), fp_(std::move(fp)), chunks_(chunks) {}
  bool enabled() const { return !opt_.checkpoint_for.empty(); }

  // Loads every checkpoint of this results path into the store (--resume).
  void load(ChunkStore& store) const {
    if (!enabled()) return;
    for (const auto& [file, c] : resume_checkpoints(opt_, fp_, chunks_, kChunksLayout))
      unpack_chunks(c.partial, "checkpoint '" + file + "'", store);
  }
  // Writes this rank's finished chunks.
  void save(const ChunkStore& store, const std::vector<ChunkSpan>& mine) const {
    if (!enabled()) return;
    std::vector<std::uint64_t> done;
    std::string partial = pack_chunks(store, mine, &done);
    write_rank_checkpoint(opt_, fp_, chunks_, std::move(done), kChunksLayout, std::move(partial));
  }

 private:
  const RunOptions& opt_;
  std::string fp_;
  std::uint64_t chunks_;
};

ScenarioRun simulate_option(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  const auto t_start = Clock::now();
  const io::RunConfig& run = job.run;
  const int rank = mpi::rank(), ranks = mpi::size();
  const PathKernel kernel = job.model->kernel({run.precision, run.seed, run.chunk_paths});
  const std::size_t width = tally_width(kernel);
  const std::uint64_t chunks = (run.paths + run.chunk_paths - 1) / run.chunk_paths;
  const ChunkGeometry geo{run.paths, run.chunk_paths, run.seed};
  const bool has_target = run.target_rel_error > 0 || run.target_abs_error > 0;

  ChunkStore store(chunks, width);
  const CheckpointFiles ckpt(options, job_fingerprint(job, devices), chunks);
  ckpt.load(store);
  const double setup_s = since(t_start);

  double simulate_s = 0, reduce_s = 0;
  std::vector<reduce::NodeValue> nodes;  // rank 0: subtrees of every rank so far
  reduce::Tally total;
  Summary summary;
  std::uint64_t end = 0;
  bool met = false;
  std::vector<ChunkSpan> owned;  // this rank's shares of every stage so far
  {
    // Rank 0 shows its own share's progress.
    Progress progress(run.paths / static_cast<std::uint64_t>(ranks), options.progress && mpi::master());
    std::uint64_t begin = 0;
    for (const std::uint64_t stage_end : plan::stage_ends(chunks, has_target)) {
      end = stage_end;
      const ChunkSpan mine = plan::share({begin, end}, rank, ranks);
      owned.push_back(mine);
      std::vector<ChunkSpan> todo;
      for (std::uint64_t c = mine.first; c < mine.last; ++c) {
        if (store.done(c)) {
          progress.add(std::min(run.chunk_paths, run.paths - c * run.chunk_paths));
          continue;
        }
        if (!todo.empty() && todo.back().last == c) ++todo.back().last;
        else todo.push_back({c, c + 1});
      }
      const auto t_sim = Clock::now();
      WorkerHooks hooks;
      hooks.stop = stop_requested;
      hooks.checkpoint_s = ckpt.enabled() ? run.checkpoint_s : 0;
      hooks.checkpoint = [&] { ckpt.save(store, owned); };
      bool finished = false;
      try {
        finished = run_chunks(devices, kernel, geo, todo, store, &progress, hooks);
      } catch (...) {
        ckpt.save(store, owned);  // what finished stays usable
        throw;
      }
      simulate_s += since(t_sim);
      if (mpi::max_over_ranks(finished ? 0 : 1)) {
        ckpt.save(store, owned);
        throw stopped_by_signal(ckpt.enabled());
      }

      const auto t_red = Clock::now();
      std::vector<reduce::NodeValue> my_nodes;
      for (const reduce::Node& n : reduce::subtrees(mine.first, mine.last, end))
        my_nodes.push_back({n, reduce::node_value(store.slot(mine.first), mine.first, n, end, width)});
      const auto gathered = mpi::gather(pack_subtrees(my_nodes, width));
      if (mpi::master()) {
        for (std::size_t r = 0; r < gathered.size(); ++r) unpack_subtrees(gathered[r], width, fmt::format("rank {}", r), &nodes);
        total = reduce::combine(nodes, end, width);
        summary = job.model->summarise(total);
        met = has_target && target_met(summary.estimates, run);
      }
      reduce_s += since(t_red);
      if (mpi::broadcast(met ? 1 : 0)) {
        met = true;
        break;
      }
      begin = end;
    }
  }

  if (options.checkpoint_at_end) ckpt.save(store, owned);
  // Rank 0 collects the chunk table for the file.
  const auto t_gather = Clock::now();
  std::vector<std::uint64_t> sent;
  const auto spans = mpi::gather(mpi::master() ? std::string() : pack_chunks(store, owned, &sent));
  ScenarioRun out;
  out.paths = std::min(run.paths, end * run.chunk_paths);
  out.target_met = met;
  if (!mpi::master()) return out;
  for (std::size_t r = 1; r < spans.size(); ++r) unpack_chunks(spans[r], fmt::format("rank {}", r), store);
  reduce_s += since(t_gather);

  io::ScenarioResult& scenario = out.scenario;
  scenario.estimates = summary.estimates;
  scenario.diagnostics = summary.diagnostics;
  scenario.references = job.model->references();
  scenario.tally_layout = tally_layout(job.model->outputs());
  scenario.chunk_tallies.assign(store.slot(0), store.slot(0) + end * width);
  // The estimates on batches of chunks, for paired differences between scenarios.
  const std::uint64_t B = reduce::batch_count(end);
  for (std::uint64_t b = 0; b < B; ++b) {
    const auto [first, last] = reduce::batch_rows(b, B, end);
    reduce::Tally t(store.slot(first), store.slot(first) + width);
    for (std::uint64_t c = first + 1; c < last; ++c)
      for (std::size_t i = 0; i < width; ++i) t[i] += store.slot(c)[i];
    scenario.batches.add(job.model->summarise(t).estimates);
  }
  out.stage_seconds = {{"setup", setup_s}, {"simulate", simulate_s}, {"reduce", reduce_s}};
  out.work = static_cast<double>(out.paths);
  return out;
}

}  // namespace

ScenarioRun run_option_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  ScenarioRun r = simulate_option(job, options, devices);
  const auto t = Clock::now();
  if (add_greeks(job, options, devices, simulate_option, r)) r.stage_seconds.emplace_back("greeks", since(t));
  return r;
}

}  // namespace mcsim
