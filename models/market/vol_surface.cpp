// No-arbitrage checks of an implied volatility surface's quotes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/market/market.hpp"
#include "models/option/bsm.hpp"

namespace mcsim::market {

namespace {

// Total implied variance at log-moneyness k on row i, linear between the row's
// quotes; nullopt outside them.
std::optional<double> row_variance(const VolSurface& s, std::size_t i, double forward, double k) {
  const std::size_t n = s.strikes.size();
  std::vector<double> ks(n);
  for (std::size_t j = 0; j < n; ++j) ks[j] = std::log(s.strikes[j] / forward);
  if (k < ks.front() || k > ks.back()) return std::nullopt;
  const std::size_t j = std::min<std::size_t>(n - 1, static_cast<std::size_t>(std::upper_bound(ks.begin(), ks.end(), k) - ks.begin()));
  const std::size_t a = j ? j - 1 : 0;
  const double wa = s.vols[i][a] * s.vols[i][a] * s.expiries[i], wb = s.vols[i][j] * s.vols[i][j] * s.expiries[i];
  return a == j ? wa : wa + (wb - wa) * (k - ks[a]) / (ks[j] - ks[a]);
}

}  // namespace

std::vector<Problem> arbitrage(const VolSurface& s, double spot, const Market& m) {
  std::vector<Problem> out;
  const std::size_t n = s.strikes.size();
  std::vector<double> forward;
  for (double t : s.expiries) forward.push_back(spot * std::exp(m.log_growth(t)));
  for (std::size_t i = 0; i < s.expiries.size(); ++i) {
    const double t = s.expiries[i], f = forward[i];
    // Butterfly: undiscounted calls C(K) decrease, convexly, in the strike.
    std::vector<double> call(n);
    for (std::size_t j = 0; j < n; ++j) {
      const double sd = s.vols[i][j] * std::sqrt(t);
      call[j] = option::bsm_core(f, s.strikes[j], std::log(f / s.strikes[j]), sd, 1.0);
    }
    const double tol = 1e-10 * f;
    for (std::size_t j = 1; j < n && out.size() < 8; ++j) {
      const double slope = (call[j] - call[j - 1]) / (s.strikes[j] - s.strikes[j - 1]);
      if (slope > tol || slope < -1 - tol) {
        out.push_back({s.where[i][j], fmt::format("butterfly arbitrage at expiry {:g}, strike {:g}: call prices "
                                                  "must fall with the strike, by at most the strike's rise (slope {:.4g})",
                                                  t, s.strikes[j], slope)});
        break;
      }
      if (j + 1 < n) {
        const double next = (call[j + 1] - call[j]) / (s.strikes[j + 1] - s.strikes[j]);
        if (next < slope - tol) {
          out.push_back({s.where[i][j], fmt::format("butterfly arbitrage at expiry {:g}, strike {:g}: call prices "
                                                    "are not convex in the strike there (a negative density)",
                                                    t, s.strikes[j])});
          break;
        }
      }
    }
    // Calendar: at each quote's forward moneyness, the next expiry's total variance is no less.
    if (i + 1 < s.expiries.size())
      for (std::size_t j = 0; j < n; ++j) {
        const double k = std::log(s.strikes[j] / f), w = s.vols[i][j] * s.vols[i][j] * t;
        const auto later = row_variance(s, i + 1, forward[i + 1], k);
        if (later && *later < w * (1 - 1e-12)) {
          out.push_back({s.where[i + 1][j],
                         fmt::format("calendar arbitrage between expiries {:g} and {:g} at strike {:g} (forward "
                                     "moneyness {:.4g}): total implied variance falls from {:.6g} to {:.6g}",
                                     t, s.expiries[i + 1], s.strikes[j], k, w, *later)});
          break;
        }
      }
  }
  return out;
}

}  // namespace mcsim::market
