#include "app/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "app/greeks.hpp"
#include "app/risk.hpp"
#include "app/transport.hpp"
#include "app/signals.hpp"
#include "app/version.hpp"
#include "app/workers.hpp"
#include "io/checkpoint.hpp"
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

// Chunk counts after which a run with a target error may stop: 16, 32, 64, ...
// and finally all. They depend on the job alone, so the stop point is reproducible.
std::vector<std::uint64_t> stage_ends(std::uint64_t chunks, bool target) {
  std::vector<std::uint64_t> ends;
  if (target)
    for (std::uint64_t e = 16; e < chunks; e *= 2) ends.push_back(e);
  ends.push_back(chunks);
  return ends;
}

// This rank's contiguous share of chunks [first, last).
ChunkSpan share(std::uint64_t first, std::uint64_t last, int rank, int ranks) {
  const std::uint64_t n = last - first;
  auto at = [&](int r) { return first + static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * r) / ranks); };
  return {at(rank), at(rank + 1)};
}

bool target_met(const std::vector<reduce::Estimate>& est, const io::RunConfig& run) {
  for (const auto& e : est) {
    if (run.target_rel_error > 0 && !(e.std_error <= run.target_rel_error * std::fabs(e.value))) return false;
    if (run.target_abs_error > 0 && !(e.std_error <= run.target_abs_error)) return false;
  }
  return true;
}

// Node values go to rank 0 as [level, index, values...] records.
std::vector<double> pack(const std::vector<reduce::NodeValue>& nodes) {
  std::vector<double> out;
  for (const auto& nv : nodes) {
    out.push_back(nv.node.level);
    out.push_back(static_cast<double>(nv.node.index));  // exact below 2^53
    out.insert(out.end(), nv.value.begin(), nv.value.end());
  }
  return out;
}
void unpack(const std::vector<double>& in, std::size_t width, std::vector<reduce::NodeValue>* out) {
  for (std::size_t at = 0; at + 2 + width <= in.size(); at += 2 + width)
    out->push_back({{static_cast<int>(in[at]), static_cast<std::uint64_t>(in[at + 1])},
                    reduce::Tally(in.begin() + static_cast<std::ptrdiff_t>(at + 2),
                                  in.begin() + static_cast<std::ptrdiff_t>(at + 2 + width))});
}

class CheckpointFiles {
 public:
  CheckpointFiles(const RunOptions& opt, std::string fp, std::uint64_t chunks, std::size_t width)
      : for_(opt.checkpoint_for), fp_(std::move(fp)), chunks_(chunks), width_(width) {}
  bool enabled() const { return !for_.empty(); }

  // Loads every checkpoint of this results path into the store (--resume).
  void load(const RunOptions& opt, ChunkStore& store) const {
    if (!enabled()) return;
    for (const io::Checkpoint& c : resume_checkpoints(opt, fp_, chunks_, width_))
      for (std::size_t i = 0; i < c.done.size(); ++i) store.put(c.done[i], &c.partials[i * width_]);
  }
  // Writes this rank's finished chunks.
  void save(const ChunkStore& store, const std::vector<ChunkSpan>& mine) const {
    if (!enabled()) return;
    io::Checkpoint c;
    c.mcsim_version = kVersion;
    c.fingerprint = fp_;
    c.chunks = chunks_;
    c.width = width_;
    for (const ChunkSpan& s : mine) store.snapshot(s.first, s.last, &c.done, &c.partials);
    io::write_checkpoint(io::checkpoint_path(for_, mpi::rank()), c);
  }

 private:
  std::string for_, fp_;
  std::uint64_t chunks_;
  std::size_t width_;
};

io::Results simulate_job(const io::Job& job, const RunOptions& options);

}  // namespace

std::vector<io::Checkpoint> resume_checkpoints(const RunOptions& opt, const std::string& fingerprint,
                                               std::uint64_t chunks, std::size_t width) {
  if (opt.checkpoint_for.empty()) return {};
  const auto files = io::find_checkpoints(opt.checkpoint_for);
  if (files.empty()) {
    if (opt.resume) throw std::runtime_error("--resume: no checkpoint of '" + opt.checkpoint_for + "' found");
    return {};
  }
  if (!opt.resume) {
    if (!opt.discard_old)
      throw std::runtime_error("a checkpoint of an unfinished run exists (" + files.front() +
                               "): pass --resume to continue it, or --force to start over");
    if (mpi::master()) io::remove_checkpoints(opt.checkpoint_for);
    return {};
  }
  std::vector<io::Checkpoint> out;
  for (const auto& f : files) {
    io::Checkpoint c = io::read_checkpoint(f);
    if (c.mcsim_version != kVersion)
      throw std::runtime_error("checkpoint '" + f + "' was written by mcsim " + c.mcsim_version + ", this is " +
                               kVersion + "; it cannot be resumed");
    if (c.fingerprint != fingerprint || c.chunks != chunks || c.width != width)
      throw std::runtime_error("checkpoint '" + f + "' belongs to a different job (config, backend or "
                               "precision changed); resume with the job as it was, or --force to start over");
    out.push_back(std::move(c));
  }
  return out;
}

std::string job_fingerprint(const io::Job& job, const std::string& backend) {
  return io::fingerprint(job.yaml + "\nbackend " + backend);
}

void results_header(const io::Job& job, const RunOptions& options, const std::string& backend, io::Results* r) {
  r->mcsim_version = kVersion;
  r->git_sha = kGitSha;
  r->created = now_iso8601();
  r->command_line = options.command_line;
  r->config = job.yaml;
  r->backend = backend;
  r->precision = io::to_string(job.run.precision);
  r->seed = job.run.seed;
  r->chunk_paths = job.run.chunk_paths;
  r->ranks = static_cast<std::uint64_t>(mpi::size());
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// Per-device timings travel to rank 0 as text lines: rank, seconds, kernel ms, paths, name.
std::string encode_timings(const std::vector<std::unique_ptr<Backend>>& backends) {
  std::string s;
  for (const auto& b : backends)
    for (const auto& d : b->timings())
      s += fmt::format("{} {:.17g} {:.17g} {} {}\n", mpi::rank(), d.seconds, d.kernel_ms, d.paths, d.device);
  return s;
}
void decode_timings(const std::string& text, std::vector<io::DeviceTime>* out) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream l(line);
    io::DeviceTime d;
    l >> d.rank >> d.seconds >> d.kernel_ms >> d.paths;
    std::getline(l >> std::ws, d.device);
    out->push_back(d);
  }
}


std::vector<std::unique_ptr<Backend>> choose_backends(io::BackendChoice choice) {
  std::vector<std::unique_ptr<Backend>> out;
  if (choice == io::BackendChoice::Cpu) {
    out.push_back(make_cpu_backend());
    return out;
  }
  std::string why;
  out = make_cuda_backends(&why);
  if (!out.empty()) return out;
  if (choice == io::BackendChoice::Cuda)
    throw std::runtime_error("backend cuda was requested but is not usable: " + why);
  out.push_back(make_cpu_backend());
  return out;
}

namespace {

// One scenario's job.
io::Results run_scenario(const io::Job& job, const RunOptions& options) {
  if (const auto* risk = dynamic_cast<const var::VarModel*>(job.model.get())) return run_risk_job(job, *risk, options);
  if (const auto* t = dynamic_cast<const transport::TransportModel*>(job.model.get()))
    return run_transport_job(job, *t, options);
  io::Results r = simulate_job(job, options);
  add_greeks(job, options, simulate_job, r);
  return r;
}

// Every scenario's estimates minus the base scenario's, by name.
void add_differences(io::Results& r) {
  const io::ScenarioResult& base = r.scenarios.front();
  for (std::size_t i = 1; i < r.scenarios.size(); ++i) {
    io::ScenarioResult& s = r.scenarios[i];
    const auto& weights = s.batches.weights == base.batches.weights ? s.batches.weights : std::vector<double>{};
    for (const reduce::Estimate& e : s.estimates)
      for (const reduce::Estimate& b : base.estimates) {
        if (b.name != e.name) continue;
        const auto values = [](const io::ScenarioResult& x, const std::string& name) {
          const auto found = x.batches.values.find(name);
          return found == x.batches.values.end() ? std::vector<double>{} : found->second;
        };
        reduce::Difference d = reduce::paired_difference(e, b, values(s, e.name), values(base, e.name), weights);
        // VaR and ES have no batches; their tails pair them.
        for (const reduce::Tail& ta : s.tails)
          for (const reduce::Tail& tb : base.tails)
            if (ta.var_name == tb.var_name && (e.name == ta.var_name || e.name == ta.es_name)) {
              const reduce::TailCorrelation c = reduce::tail_correlation(ta, tb);
              d = reduce::correlated_difference(e, b, e.name == ta.var_name ? c.var : c.es);
            }
        for (const Reference& x : s.references)
          for (const Reference& y : base.references)
            if (x.name == e.name && y.name == e.name && x.tolerance == 0 && y.tolerance == 0) d.reference = x.value - y.value;
        s.differences.push_back(d);
      }
  }
}

// Adds a later scenario's run to the first's: its results, and its seconds.
void merge_run(io::Results& all, io::Results&& r) {
  all.scenarios.push_back(std::move(r.scenarios.front()));
  all.wall_s += r.wall_s;
  for (const auto& [stage, s] : r.stage_seconds)
    for (auto& [name, total] : all.stage_seconds)
      if (name == stage) total += s;
  for (const io::DeviceTime& d : r.device_times)
    for (io::DeviceTime& t : all.device_times)
      if (t.rank == d.rank && t.device == d.device) t.seconds += d.seconds, t.kernel_ms += d.kernel_ms, t.paths += d.paths;
}

}  // namespace

std::string scenario_checkpoint_path(const std::string& results_path, const io::Job& job, std::size_t i) {
  if (i == 0 || results_path.empty()) return results_path;
  return io::results_base(results_path) + "." + job.scenarios.at(i).name + ".h5";
}

void remove_job_checkpoints(const std::string& results_path, const io::Job& job) {
  for (std::size_t i = 0; i < job.scenarios.size(); ++i) io::remove_checkpoints(scenario_checkpoint_path(results_path, job, i));
}

io::Results run_job(const io::Job& job, const RunOptions& options) {
  const std::size_t n = job.scenarios.size();
  if (n <= 1) return run_scenario(job, options);
  // Checkpoints per scenario: refuse to start over an unfinished run before any
  // work, and resume the scenarios that have some (the others start afresh).
  std::vector<bool> saved(n);
  for (std::size_t i = 0; i < n; ++i)
    saved[i] = !options.checkpoint_for.empty() && !io::find_checkpoints(scenario_checkpoint_path(options.checkpoint_for, job, i)).empty();
  const bool any = std::find(saved.begin(), saved.end(), true) != saved.end();
  if (options.resume && !any) throw std::runtime_error("--resume: no checkpoint of '" + options.checkpoint_for + "' found");

  io::Results all;
  double simulate_s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    io::Job one = job.scenario(i);
    if (i > 0 && (job.run.target_rel_error > 0 || job.run.target_abs_error > 0)) {
      // The base scenario's paths exactly: its target error may have stopped it early.
      one.run.paths = mpi::broadcast(all.paths);
      one.run.target_rel_error = one.run.target_abs_error = 0;
    }
    RunOptions o = options;
    o.checkpoint_for = scenario_checkpoint_path(options.checkpoint_for, job, i);
    o.resume = options.resume && saved[i];
    o.checkpoint_at_end = true;
    o.keep_tails = true;
    if (options.progress && mpi::master()) fmt::print(stderr, "scenario {} ({} of {})\n", job.scenarios[i].name, i + 1, n);
    io::Results r = run_scenario(one, o);
    if (!mpi::master()) continue;
    r.scenarios.front().name = job.scenarios[i].name;
    r.scenarios.front().overrides = job.scenarios[i].overrides;
    for (const auto& [stage, s] : r.stage_seconds)
      if (stage == "simulate") simulate_s += s;
    if (i == 0) all = std::move(r);
    else merge_run(all, std::move(r));
  }
  if (!mpi::master()) return all;
  all.config = job.yaml;
  all.paths_per_s = simulate_s > 0 ? static_cast<double>(all.paths) * static_cast<double>(n) / simulate_s : 0.0;
  add_differences(all);
  for (auto& s : all.scenarios) s.tails.clear();  // used; the file does not hold them
  return all;
}

namespace {

io::Results simulate_job(const io::Job& job, const RunOptions& options) {
  const auto t_start = Clock::now();
  const io::RunConfig& run = job.run;
  const int rank = mpi::rank(), ranks = mpi::size();
  auto backends = choose_backends(options.backend.value_or(run.backend));
  std::vector<Backend*> devices;
  for (auto& b : backends) devices.push_back(b.get());
  const PathKernel kernel = job.model->kernel({run.precision, run.seed, run.chunk_paths});
  const std::size_t width = tally_width(kernel);
  const std::uint64_t chunks = (run.paths + run.chunk_paths - 1) / run.chunk_paths;
  const ChunkGeometry geo{run.paths, run.chunk_paths, run.seed};
  const bool has_target = run.target_rel_error > 0 || run.target_abs_error > 0;

  ChunkStore store(chunks, width);
  const CheckpointFiles ckpt(options, job_fingerprint(job, backends.front()->name()), chunks, width);
  ckpt.load(options, store);
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
    for (const std::uint64_t stage_end : stage_ends(chunks, has_target)) {
      end = stage_end;
      const ChunkSpan mine = share(begin, end, rank, ranks);
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
        throw Stopped(fmt::format("stopped by signal {}{}", stop_signal(),
                                  ckpt.enabled() ? "; checkpoint written" : " (no checkpoint: none asked for)"));
      }

      const auto t_red = Clock::now();
      std::vector<reduce::NodeValue> my_nodes;
      for (const reduce::Node& n : reduce::subtrees(mine.first, mine.last, end))
        my_nodes.push_back({n, reduce::node_value(store.slot(mine.first), mine.first, n, end, width)});
      const auto gathered = mpi::gather(pack(my_nodes));
      if (mpi::master()) {
        for (const auto& g : gathered) unpack(g, width, &nodes);
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
  // Rank 0 collects the chunk table for the file, and every device's timings.
  const auto t_gather = Clock::now();
  std::vector<double> records;  // [first, last, partials...] per owned span
  if (!mpi::master()) {
    for (const ChunkSpan& sp : owned) {
      records.push_back(static_cast<double>(sp.first));
      records.push_back(static_cast<double>(sp.last));
      records.insert(records.end(), store.slot(sp.first), store.slot(sp.first) + (sp.last - sp.first) * width);
    }
  }
  const auto spans = mpi::gather(records);
  const auto timing_text = mpi::gather(encode_timings(backends));
  const auto names = mpi::gather([&] {
    std::string s;
    for (const auto& b : backends) s += b->devices().front() + "\n";
    return s;
  }());
  io::Results r;
  if (!mpi::master()) return r;
  for (const auto& rec : spans)
    for (std::size_t at = 0; at + 2 <= rec.size();) {
      const auto first = static_cast<std::uint64_t>(rec[at]), last = static_cast<std::uint64_t>(rec[at + 1]);
      for (std::uint64_t c = first; c < last; ++c) store.put(c, &rec[at + 2 + (c - first) * width]);
      at += 2 + (last - first) * width;
    }
  reduce_s += since(t_gather);

  io::ScenarioResult scenario;
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
  results_header(job, options, backends.front()->name(), &r);
  r.paths = std::min(run.paths, end * run.chunk_paths);
  for (const auto& n : names) {
    std::istringstream in(n);
    for (std::string line; std::getline(in, line);) r.devices.push_back(line);
  }
  r.paths_cap = run.paths;
  r.target_rel_error = run.target_rel_error;
  r.target_abs_error = run.target_abs_error;
  r.target_met = met;
  for (const auto& t : timing_text) decode_timings(t, &r.device_times);
  r.scenarios.push_back(std::move(scenario));
  r.stage_seconds = {{"setup", setup_s}, {"simulate", simulate_s}, {"reduce", reduce_s}};
  r.wall_s = since(t_start);
  r.paths_per_s = simulate_s > 0 ? static_cast<double>(r.paths) / simulate_s : 0.0;
  return r;
}

}  // namespace

std::string format_estimates(const io::ScenarioResult& s) {
  std::size_t w = 10;  // the name column fits the longest name
  for (const auto& e : s.estimates) w = std::max(w, e.name.size());
  std::string out = fmt::format("  {:<{}} {:>16} {:>12} {:>29} {:>12} {:>16} {:>7}\n", "estimate", w,
                                "value", "std error", "95% interval", "samples", "reference", "z");
  std::string notes;  // approximate references, with their stated tolerance
  for (const auto& e : s.estimates) {
    std::string ref = "", z = "";
    for (const auto& r : s.references) {
      if (r.name != e.name) continue;
      ref = fmt::format("{:.10g}", r.value);
      z = fmt::format("{:+.2f}", (e.value - r.value) / e.std_error);
      if (r.tolerance > 0) {
        z += "*";
        notes += fmt::format("  * {}: the reference is approximate, to +-{:.2g} (z counts the std error only)\n",
                             e.name, r.tolerance);
      }
    }
    out += fmt::format("  {:<{}} {:>16.10g} {:>12.4g} [{:>13.8g}, {:>13.8g}] {:>12} {:>16} {:>7}\n",
                       e.name, w, e.value, e.std_error, e.ci_low, e.ci_high, e.samples, ref, z);
  }
  out += notes;
  if (!s.differences.empty()) {
    out += fmt::format("  {:<{}} {:>16} {:>12} {:>29} {:>12} {:>16} {:>7}\n", "minus base", w, "difference", "paired err",
                       "95% interval (paired)", "unpaired err", "reference", "z");
    for (const auto& d : s.differences) {
      const reduce::Estimate& e = d.estimate;
      const bool paired = !std::isnan(e.std_error);
      const bool ref = !std::isnan(d.reference);
      out += fmt::format("  {:<{}} {:>+16.10g} {:>12} {:>29} {:>12.4g} {:>16} {:>7}\n", e.name, w, e.value,
                         paired ? fmt::format("{:.4g}", e.std_error) : "n/a",
                         paired ? fmt::format("[{:>13.8g}, {:>13.8g}]", e.ci_low, e.ci_high) : "", d.unpaired_std_error,
                         ref ? fmt::format("{:+.10g}", d.reference) : "",
                         ref && paired ? fmt::format("{:+.2f}", (e.value - d.reference) / e.std_error) : "");
    }
  }
  for (const auto& [name, value] : s.diagnostics) out += fmt::format("  {:<{}} {:.4g}\n", name, w + 17, value);
  return out;
}

}  // namespace mcsim
