#include "models/market/local_vol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mcsim::market {

namespace {

// A natural cubic spline through (x_j, y_j), flat beyond its ends; value, first
// and second derivative.
class Spline {
 public:
  Spline(std::vector<double> x, std::vector<double> y) : x_(std::move(x)), y_(std::move(y)), m_(x_.size(), 0.0) {
    const std::size_t n = x_.size();
    if (n < 3) return;
    // Second derivatives m_j: the tridiagonal system with m_0 = m_{n-1} = 0.
    std::vector<double> c(n, 0.0), d(n, 0.0);
    for (std::size_t j = 1; j + 1 < n; ++j) {
      const double h0 = x_[j] - x_[j - 1], h1 = x_[j + 1] - x_[j];
      const double a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6;
      const double r = (y_[j + 1] - y_[j]) / h1 - (y_[j] - y_[j - 1]) / h0;
      const double denom = b - a * c[j - 1];
      c[j] = cc / denom;
      d[j] = (r - a * d[j - 1]) / denom;
    }
    for (std::size_t j = n - 2; j >= 1; --j) m_[j] = d[j] - c[j] * m_[j + 1];
  }
  struct Value {
    double f, d1, d2;
  };
  Value at(double x) const {
    if (std::isnan(x)) return {x, x, x};
    if (x <= x_.front()) return {y_.front(), 0, 0};
    if (x >= x_.back()) return {y_.back(), 0, 0};
    const std::size_t j = static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
    const double h = x_[j + 1] - x_[j], a = (x_[j + 1] - x) / h, b = (x - x_[j]) / h;
    const double f = a * y_[j] + b * y_[j + 1] + ((a * a * a - a) * m_[j] + (b * b * b - b) * m_[j + 1]) * h * h / 6;
    const double d1 = (y_[j + 1] - y_[j]) / h - (3 * a * a - 1) / 6 * h * m_[j] + (3 * b * b - 1) / 6 * h * m_[j + 1];
    const double d2 = a * m_[j] + b * m_[j + 1];
    return {f, d1, d2};
  }
  double lo() const { return x_.front(); }
  double hi() const { return x_.back(); }

 private:
  std::vector<double> x_, y_, m_;
};

}  // namespace

LocalVolGrid dupire_grid(const VolSurface& s, double spot, const Market& m, const std::vector<double>& step_ends,
                         std::vector<Problem>* problems, const LocalVolGrid* nodes_of) {
  const std::size_t ne = s.expiries.size();
  std::vector<Spline> rows;
  double k_lo = 0, k_hi = 0, widest = 0;
  for (std::size_t i = 0; i < ne; ++i) {
    const double f = spot * std::exp(m.log_growth(s.expiries[i]));
    std::vector<double> k, w;
    for (std::size_t j = 0; j < s.strikes.size(); ++j) {
      k.push_back(std::log(s.strikes[j] / f));
      w.push_back(s.vols[i][j] * s.vols[i][j] * s.expiries[i]);
      widest = std::max(widest, std::sqrt(w.back()));
    }
    rows.emplace_back(k, w);
    k_lo = std::min(k_lo, k.front());
    k_hi = std::max(k_hi, k.back());
  }
  // Wide enough for the paths the surface's largest variance spreads.
  k_lo = std::min(k_lo, -5 * widest);
  k_hi = std::max(k_hi, 5 * widest);

  LocalVolGrid g;
  g.nodes = kLocalVolNodes;
  g.k_lo = nodes_of ? nodes_of->k_lo : k_lo;
  g.dk = nodes_of ? nodes_of->dk : (k_hi - k_lo) / (g.nodes - 1);
  g.sigma.assign(step_ends.size() * static_cast<std::size_t>(g.nodes), 0.0);
  for (std::size_t st = 0; st < step_ends.size(); ++st) {
    const double t0 = st ? step_ends[st - 1] : 0.0, t = 0.5 * (t0 + step_ends[st]);
    // The expiries around t: w(k, t) = (1 - a) w_lo(k) + a w_hi(k), scaled from 0 before the first.
    std::size_t hi = static_cast<std::size_t>(std::upper_bound(s.expiries.begin(), s.expiries.end(), t) - s.expiries.begin());
    const bool before = hi == 0, after = hi == ne;
    const std::size_t lo = before ? 0 : hi - 1;
    if (after) hi = ne - 1;
    const double t_lo = before ? 0.0 : s.expiries[lo], t_hi = s.expiries[hi];
    // Quoted moneyness at t: where both rows have quotes.
    const double q_lo = std::max(rows[lo].lo(), rows[hi].lo()), q_hi = std::min(rows[lo].hi(), rows[hi].hi());
    // k of the grid is log(S / F(t0)); the surface's moneyness at t is log(S / F(t)).
    const double shift = m.log_growth(t0) - m.log_growth(t);
    g.log_forward.push_back(std::log(spot) + m.log_growth(t0));
    double* row = &g.sigma[st * static_cast<std::size_t>(g.nodes)];
    int first_quoted = -1, last_quoted = -1;
    for (int i = 0; i < g.nodes; ++i) {
      const double k = g.k_lo + i * g.dk + shift;
      if (k < q_lo || k > q_hi) continue;
      double w, wk, wkk, wt;
      if (before || after) {
        const auto v = rows[before ? 0 : ne - 1].at(k);
        const double scale = t / s.expiries[before ? 0 : ne - 1];
        w = v.f * scale, wk = v.d1 * scale, wkk = v.d2 * scale, wt = v.f / s.expiries[before ? 0 : ne - 1];
      } else {
        const auto a = rows[lo].at(k), b = rows[hi].at(k);
        const double x = (t - t_lo) / (t_hi - t_lo);
        w = (1 - x) * a.f + x * b.f, wk = (1 - x) * a.d1 + x * b.d1, wkk = (1 - x) * a.d2 + x * b.d2;
        wt = (b.f - a.f) / (t_hi - t_lo);
      }
      const double denom = 1 - k * wk / w + 0.25 * (-0.25 - 1 / w + k * k / (w * w)) * wk * wk + 0.5 * wkk;
      const double var = wt / denom;
      if (!(var > 0) || !(denom > 0) || !std::isfinite(var)) {
        if (problems && problems->size() < 4) {
          const double strike = spot * std::exp(m.log_growth(t) + k);
          problems->push_back({"", fmt::format("no positive local variance at time {:.4g}, strike {:.4g} (the surface's "
                                               "{} there)", t, strike, !(wt > 0) ? "total variance falls with expiry"
                                                                                : "call prices are not convex in strike")});
        }
        row[i] = 0;
        continue;
      }
      row[i] = std::sqrt(var);
      if (first_quoted < 0) first_quoted = i;
      last_quoted = i;
    }
    if (first_quoted < 0) {  // a grid too coarse to see the quotes: the row's nearest node
      const int i = std::clamp(static_cast<int>(std::lround((0.5 * (q_lo + q_hi) - shift - g.k_lo) / g.dk)), 0, g.nodes - 1);
      const double k = g.k_lo + i * g.dk + shift;
      const auto v = rows[hi].at(k);
      row[i] = std::sqrt(v.f / s.expiries[hi]);
      first_quoted = last_quoted = i;
    }
    for (int i = 0; i < first_quoted; ++i) row[i] = row[first_quoted];
    for (int i = last_quoted + 1; i < g.nodes; ++i) row[i] = row[last_quoted];
  }
  return g;
}

double curvature_at(const LocalVolGrid& g, std::size_t row, double log_spot) {
  if (g.nodes < 3) return 0;
  const double place = (log_spot - g.log_forward[row] - g.k_lo) / g.dk;
  const long i = std::clamp(std::lround(place), 1L, static_cast<long>(g.nodes) - 2);
  const double* s = &g.sigma[row * static_cast<std::size_t>(g.nodes) + static_cast<std::size_t>(i)];
  return (s[1] - 2 * s[0] + s[-1]) / (g.dk * g.dk);
}

std::vector<double> cell_rows(const LocalVolGrid& g) {
  std::vector<double> out;
  out.reserve(2 * g.sigma.size());
  for (std::size_t at = 0; at < g.sigma.size(); at += static_cast<std::size_t>(g.nodes))
    for (int i = 0; i < g.nodes; ++i) {
      const double here = g.sigma[at + i], next = i + 1 < g.nodes ? g.sigma[at + i + 1] : here;
      out.insert(out.end(), {0.5 * (here + next), next - here});
    }
  return out;
}

}  // namespace mcsim::market
