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

#include "app/run/lifecycle.hpp"
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

bool reached(const std::vector<reduce::Estimate>& est, const io::RunConfig& run) {
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
    for (std::size_t k = 0; k < width; ++k)
      if (!std::isfinite(partials[i * width + k]))
        throw std::runtime_error(fmt::format("the partial from {} holds a value that is not finite (chunk {})", where, chunks[i]));
    store.put(chunks[i], &partials[i * width]);
  }
}

// The reported estimates after the first 1, 2, 4, ... chunks and after all of them
// (`last`, the run's own summary): how they converged, for plots. A prefix is
// summed in chunk order, so its last bits may differ from the tree's.
io::Table convergence_table(const Model& model, const ChunkStore& store, std::uint64_t chunks, const io::RunConfig& run,
                            const Summary& last) {
  io::Table t{"convergence", {"chunks", "paths"}, {}};
  for (const auto& e : last.estimates) t.columns.insert(t.columns.end(), {e.name, e.name + "_std_error"});
  reduce::Tally sum(store.width(), 0.0);
  std::uint64_t c = 0, paths = 0, before = 0;
  for (std::uint64_t n = 1;; n = std::min(2 * n, chunks)) {
    for (; c < n; ++c) {
      if (!store.done(c)) continue;  // a checkpoint's unfinished chunk
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += store.slot(c)[i];
      paths += std::min(run.chunk_paths, run.paths - c * run.chunk_paths);
    }
    const bool more = paths > before || n == 1;
    before = paths;
    if (!more && n < chunks) continue;
    if (!more) return t;
    const Summary s = n == chunks ? last : model.summarise(sum);
    t.data.insert(t.data.end(), {static_cast<double>(n), static_cast<double>(paths)});
    for (const auto& name : last.estimates) {
      double value = NAN, error = NAN;  // an estimate a prefix cannot give yet
      for (const auto& e : s.estimates)
        if (e.name == name.name) value = e.value, error = e.std_error;
      t.data.insert(t.data.end(), {value, error});
    }
    if (n == chunks) return t;
  }
}

// The option family's steps (app/run/lifecycle.hpp): stages of chunks, each rank a
// contiguous share of each stage; rank 0 combines every rank's subtrees and checks
// the target after each stage.
class OptionStages : public StagedJob {
 public:
  OptionStages(const io::Job& job, const RunOptions& options, const DeviceList&)
      : job_(job),
        run_(job.run),
        kernel_(job.model->kernel({run_.precision, run_.seed, run_.chunk_paths, options.fitted_by})),
        width_(tally_width(kernel_)),
        chunks_((run_.paths + run_.chunk_paths - 1) / run_.chunk_paths),
        has_target_(run_.target_rel_error > 0 || run_.target_abs_error > 0),
        stages_(plan::stage_ends(chunks_, has_target_)),
        store_(chunks_, width_) {}

  std::uint64_t checkpoint_units() const override { return chunks_; }
  reduce::PartialLayout checkpoint_layout() const override { return kChunksLayout; }
  void resume(const std::vector<std::pair<std::string, io::Checkpoint>>& files) override {
    for (const auto& [file, c] : files) unpack_chunks(c.partial, "checkpoint '" + file + "'", store_);
  }
  std::optional<std::pair<std::vector<std::uint64_t>, std::string>> checkpoint() override {
    std::vector<std::uint64_t> done;
    std::string partial = pack_chunks(store_, owned_, &done);
    return std::make_pair(std::move(done), std::move(partial));
  }
  // Every chunk, the unfinished ones as empty tallies: the estimates of the paths done.
  void peek() override {
    end_ = chunks_;
    store_.reserve(end_);
    mine_ = {0, end_};
    nodes_ = my_subtrees();
    summary_ = job_.model->summarise(reduce::combine(nodes_, end_, width_));
    peeked_paths_ = 0;
    for (std::uint64_t c = 0; c < chunks_; ++c)
      if (store_.done(c)) peeked_paths_ += std::min(run_.chunk_paths, run_.paths - c * run_.chunk_paths);
    if (peeked_paths_ == 0) throw std::runtime_error("the checkpoint holds no finished chunk yet");
  }
  // Rank 0 shows its own share's progress.
  std::uint64_t progress_total() const override { return run_.paths / static_cast<std::uint64_t>(mpi::size()); }

  bool next_stage() override {
    if (met_ || stage_ == stages_.size()) return false;
    begin_ = end_, end_ = stages_[stage_++];
    store_.reserve(end_);
    mine_ = plan::my_share({begin_, end_});
    owned_.push_back(mine_);
    return true;
  }
  bool dispatch(const DeviceList& devices, StageContext& context) override {
    std::vector<ChunkSpan> todo;
    for (std::uint64_t c = mine_.first; c < mine_.last; ++c) {
      if (store_.done(c)) {
        context.progress.add(std::min(run_.chunk_paths, run_.paths - c * run_.chunk_paths));
        continue;
      }
      if (!todo.empty() && todo.back().last == c) ++todo.back().last;
      else todo.push_back({c, c + 1});
    }
    WorkerHooks hooks;
    hooks.stop = stop_requested;
    hooks.checkpoint_s = context.checkpoints.every_s();
    hooks.checkpoint = [&context] { context.checkpoints.save(); };
    const ChunkGeometry geo{run_.paths, run_.chunk_paths, run_.seed};
    return run_chunks(devices, kernel_, geo, todo, store_, &context.progress, hooks);
  }
  // Each rank's maximal complete subtrees of the fixed tree over this stage's chunks.
  std::string stage_partial() override { return pack_subtrees(my_subtrees(), width_); }
  std::string reduce_stage(const std::vector<std::string>& partials) override {
    const std::vector<reduce::NodeValue> mine = my_subtrees();
    nodes_.insert(nodes_.end(), mine.begin(), mine.end());
    for (std::size_t r = 1; r < partials.size(); ++r)
      unpack_subtrees(partials[r], width_, fmt::format("rank {}", r), &nodes_);
    summary_ = job_.model->summarise(reduce::combine(nodes_, end_, width_));
    met_ = has_target_ && reached(summary_.estimates, run_);
    return met_ ? "1" : "0";
  }
  void decide(const std::string& decision) override { met_ = decision == "1"; }

  std::string final_partial() override {
    std::vector<std::uint64_t> sent;
    return pack_chunks(store_, owned_, &sent);
  }
  ScenarioRun results(const std::vector<std::string>& partials, const DeviceList&, double) override {
    for (std::size_t r = 1; r < partials.size(); ++r) unpack_chunks(partials[r], fmt::format("rank {}", r), store_);
    ScenarioRun out;
    io::ScenarioResult& scenario = out.scenario;
    scenario.estimates = summary_.estimates;
    scenario.diagnostics = summary_.diagnostics;
    scenario.references = job_.model->references();
    scenario.tally_layout = tally_layout(job_.model->outputs());
    scenario.chunk_tallies.assign(store_.slot(0), store_.slot(0) + end_ * width_);
    if (end_ > 0) scenario.tables.push_back(convergence_table(*job_.model, store_, end_, run_, summary_));
    // The estimates on batches of chunks, for paired differences between scenarios.
    const std::uint64_t B = reduce::batch_count(end_);
    for (std::uint64_t b = 0; b < B; ++b) {
      const auto [first, last] = reduce::batch_rows(b, B, end_);
      reduce::Tally t(store_.slot(first), store_.slot(first) + width_);
      for (std::uint64_t c = first + 1; c < last; ++c)
        for (std::size_t i = 0; i < width_; ++i) t[i] += store_.slot(c)[i];
      scenario.batches.add(job_.model->summarise(t).estimates);
    }
    out.work = static_cast<double>(paths());
    return out;
  }
  std::uint64_t paths() const override { return peeked_paths_ ? peeked_paths_ : std::min(run_.paths, end_ * run_.chunk_paths); }
  bool target_met() const override { return met_; }

 private:
  std::vector<reduce::NodeValue> my_subtrees() const {
    std::vector<reduce::NodeValue> out;
    for (const reduce::Node& n : reduce::subtrees(mine_.first, mine_.last, end_))
      out.push_back({n, reduce::node_value(store_.slot(mine_.first), mine_.first, n, end_, width_)});
    return out;
  }

  const io::Job& job_;
  const io::RunConfig& run_;
  const PathKernel kernel_;
  const std::size_t width_;
  const std::uint64_t chunks_;
  const bool has_target_;
  const std::vector<std::uint64_t> stages_;
  ChunkStore store_;
  std::size_t stage_ = 0;
  std::uint64_t begin_ = 0, end_ = 0;
  ChunkSpan mine_{0, 0};
  std::vector<ChunkSpan> owned_;         // this rank's shares of every stage so far
  std::vector<reduce::NodeValue> nodes_;  // rank 0: subtrees of every rank so far
  Summary summary_;
  bool met_ = false;
  std::uint64_t peeked_paths_ = 0;  // peek: the paths of the finished chunks
};

ScenarioRun simulate_option(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  return run_family<OptionStages>(job, options, devices);
}

}  // namespace

ScenarioRun run_option_scenario(const io::Job& job, const RunOptions& options, const DeviceList& devices) {
  ScenarioRun r = simulate_option(job, options, devices);
  const auto t = Clock::now();
  if (add_greeks(job, options, devices, simulate_option, r)) r.stage_seconds.emplace_back("greeks", since(t));
  return r;
}

}  // namespace mcsim
