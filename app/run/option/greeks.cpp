#include "app/run/option/greeks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "reduce/mpi.hpp"

namespace mcsim {

namespace {
// Each chunk's mean of the first output: the per-chunk price.
std::vector<double> chunk_means(const io::ScenarioResult& s) {
  const std::size_t w = s.tally_layout.size();
  std::vector<double> m;
  for (std::size_t at = 0; at + w <= s.chunk_tallies.size(); at += w)
    m.push_back(s.chunk_tallies[at + 1] / s.chunk_tallies[at]);
  return m;
}
}  // namespace

bool add_greeks(const io::Job& job, const RunOptions& options, const DeviceList& devices, RunFn run, ScenarioRun& base) {
  const auto bumps = job.model->greek_bumps();
  if (bumps.empty()) return false;
  RunOptions quiet = options;
  quiet.progress = false;
  quiet.checkpoint_for.clear();  // reruns are short and repeatable
  quiet.resume = false;
  // The base run's paths and chunks exactly (a target error may have stopped it
  // early; only rank 0 holds the results).
  const std::vector<std::string> same_paths{
      fmt::format("run.paths={}", mpi::broadcast(base.paths)), fmt::format("run.chunk_paths={}", job.run.chunk_paths),
      "run.target_rel_error=null", "run.target_abs_error=null"};
  // (key, value) -> chunk means (empty off rank 0). Every rank reruns the same
  // bumps in the same order: the reruns are collective. A rerun prices alone.
  std::map<std::pair<std::string, std::string>, std::vector<double>> cache;
  const auto means_at = [&](const GreekBump& b, double value) {
    const std::string text = b.text ? b.text(value) : fmt::format("{:.17g}", value);
    const auto found = cache.find({b.key, text});
    if (found != cache.end()) return found->second;
    std::vector<std::string> sets = same_paths;
    sets.insert(sets.end(), {b.key + "=" + text, "model.greeks=null"});
    RunOptions rerun = quiet;
    rerun.fitted_by = b.holds_fit ? job.model.get() : nullptr;
    const ScenarioRun r = run(io::load_job_text(job.yaml, job.file + " (" + b.key + " bumped)", sets), rerun, devices);
    return cache[{b.key, text}] = mpi::master() ? chunk_means(r.scenario) : std::vector<double>{};
  };

  io::ScenarioResult& s = base.scenario;
  const std::vector<double> m0 = mpi::master() ? chunk_means(s) : std::vector<double>{};
  for (const GreekBump& b : bumps) {
    using Scheme = GreekBump::Scheme;
    std::vector<double> up, down;
    if (b.scheme != Scheme::Decay) up = means_at(b, b.value + b.step);
    down = means_at(b, b.value - b.step);
    if (!mpi::master()) continue;
    // Per-chunk Greeks, weighted by the chunk's paths.
    const std::size_t w = s.tally_layout.size(), chunks = m0.size();
    std::vector<double> g(chunks), weight(chunks);
    double total = 0, mean = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      const double h = b.step;
      g[c] = b.scheme == Scheme::Central  ? (up[c] - down[c]) / (2 * h)
             : b.scheme == Scheme::Second ? (up[c] - 2 * m0[c] + down[c]) / (h * h)
                                          : (down[c] - m0[c]) / h;  // a step of time later
      weight[c] = s.chunk_tallies[c * w];
      total += weight[c];
    }
    for (std::size_t c = 0; c < chunks; ++c) mean += weight[c] / total * g[c];
    double var = 0;
    for (std::size_t c = 0; c < chunks; ++c) var += std::pow(weight[c] / total * (g[c] - mean), 2);
    reduce::Estimate e;
    e.name = b.greek;
    e.value = mean;
    e.std_error = chunks > 1 ? std::sqrt(var * chunks / (chunks - 1)) : std::nan("");
    e.ci_low = mean - reduce::kZ95 * e.std_error;
    e.ci_high = mean + reduce::kZ95 * e.std_error;
    e.samples = static_cast<std::uint64_t>(total);
    s.estimates.push_back(e);
    // The same batches of chunks as the run's other estimates.
    std::vector<double>& batches = s.batches.values[b.greek];
    const std::uint64_t B = s.batches.weights.size();
    for (std::uint64_t k = 0; k < B; ++k) {
      const auto [first, last] = reduce::batch_rows(k, B, chunks);
      double sum = 0, w = 0;
      for (std::uint64_t c = first; c < last; ++c) sum += weight[c] * g[c], w += weight[c];
      batches.push_back(sum / w);
    }
    s.diagnostics.emplace_back(b.greek + "_bump", b.step);
  }
  return true;
}

}  // namespace mcsim
