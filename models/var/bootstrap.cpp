#include "models/var/bootstrap.hpp"

#include <algorithm>
#include <cmath>

#include "models/var/age_weights.hpp"
#include "reduce/quantile.hpp"
#include "rng/stream.hpp"

namespace mcsim::var {

std::vector<BootstrapErrors> bootstrap_errors(const std::vector<double>& losses, const std::vector<double>& levels,
                                              std::size_t block, std::uint64_t seed, int resamples,
                                              const std::vector<double>& weights) {
  const std::size_t n = losses.size();
  block = std::clamp<std::size_t>(block, 1, std::max<std::size_t>(n, 1));
  const std::uint64_t starts = n - block + 1;
  struct Sums {
    double var = 0, var_sq = 0, es = 0, es_sq = 0;
  };
  std::vector<Sums> sums(levels.size());
  std::vector<double> x(n);
  std::vector<std::pair<double, double>> xw(weights.empty() ? 0 : n);  // (loss, weight)
  for (int r = 0; r < resamples && n > 0; ++r) {
    rng::Stream stream(seed, static_cast<std::uint64_t>(r));
    for (std::size_t at = 0; at < n;) {
      const auto w = stream.next4();
      const std::uint64_t start = (static_cast<std::uint64_t>(w.w[0]) | static_cast<std::uint64_t>(w.w[1]) << 32) % starts;
      for (std::size_t j = 0; j < block && at < n; ++j, ++at) {
        x[at] = losses[start + j];
        if (!weights.empty()) xw[at] = {losses[start + j], weights[start + j]};
      }
    }
    if (!weights.empty()) {
      std::sort(xw.begin(), xw.end());
      for (std::size_t l = 0; l < levels.size(); ++l) {
        const VarEs f = weighted_var_es(xw, levels[l]);
        sums[l].var += f.var, sums[l].var_sq += f.var * f.var, sums[l].es += f.es, sums[l].es_sq += f.es * f.es;
      }
      continue;
    }
    std::sort(x.begin(), x.end());
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const std::uint64_t k = reduce::level_ranks(levels[l], n).k;
      const double var = x[k - 1];
      double above = 0;
      for (std::size_t i = k; i < n; ++i) above += x[i];
      const double es = reduce::expected_shortfall(levels[l], n, k, var, above);
      sums[l].var += var, sums[l].var_sq += var * var, sums[l].es += es, sums[l].es_sq += es * es;
    }
  }
  std::vector<BootstrapErrors> out(levels.size());
  const double m = resamples;
  const auto sd = [&](double s, double q) { return resamples > 1 ? std::sqrt(std::max(0.0, (q - s * s / m) / (m - 1))) : 0.0; };
  for (std::size_t l = 0; l < levels.size(); ++l) out[l] = {sd(sums[l].var, sums[l].var_sq), sd(sums[l].es, sums[l].es_sq)};
  return out;
}

}  // namespace mcsim::var
