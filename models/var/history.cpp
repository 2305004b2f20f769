#include "models/var/history.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "io/csv.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

namespace {

// YYYY-MM-DD with a real month and day: such dates order as text.
bool is_date(const std::string& d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (d[i] < '0' || d[i] > '9') return false;
  const int year = std::stoi(d.substr(0, 4)), month = std::stoi(d.substr(5, 2)), day = std::stoi(d.substr(8, 2));
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month >= 1 && month <= 12 && day >= 1 && day <= (month == 2 && !leap ? 28 : days[month - 1]);
}

// The window's bound at `key`, "" when not given.
std::string bound(io::Block& b, const std::string& key) {
  const std::string d = b.text(key, std::string(""));
  if (!d.empty() && !is_date(d)) b.error(key, "a date is written YYYY-MM-DD (got '" + d + "')");
  return d;
}

}  // namespace

MarketHistory read_history(io::Block& b, const std::vector<std::string>& assets, const std::vector<bool>& absolute) {
  MarketHistory h;
  h.names = assets;
  const std::string from = bound(b, "from"), to = bound(b, "to");
  if (!from.empty() && !to.empty() && to < from) b.error("to", "the window ends (" + to + ") before it starts (" + from + ")");
  const auto csv = io::data_file(b);
  if (!csv || !b.valid()) return {};
  h.file = csv->file;
  const int date = io::required_column(*csv, "date", b);
  std::vector<int> column;
  for (const std::string& a : assets) column.push_back(io::required_column(*csv, a, b));
  if (!b.valid()) return {};
  h.prices.assign(assets.size(), {});
  io::CsvErrors errors(*csv, b);
  const std::string* last = nullptr;
  for (const auto& row : csv->rows) {
    const io::CsvField& d = row[static_cast<std::size_t>(date)];
    if (!is_date(d.text)) {
      errors.error(d, "a date is written YYYY-MM-DD (got '" + d.text + "')");
      continue;
    }
    if (last && !(d.text > *last)) errors.error(d, "dates must increase: " + d.text + " after " + *last);
    last = &d.text;
    if ((!from.empty() && d.text < from) || (!to.empty() && d.text > to)) continue;
    h.dates.push_back(d.text);
    for (std::size_t i = 0; i < assets.size(); ++i) {
      // Log returns need prices above 0; absolute moves take any (rates, spreads).
      const auto v = errors.number(row[static_cast<std::size_t>(column[i])], assets[i],
                                   absolute[i] ? io::Range{} : io::Range::positive());
      h.prices[i].push_back(v && std::isfinite(*v) ? *v : NAN);
    }
  }
  errors.close();
  if (b.valid() && h.dates.size() < 2)
    b.error_where(b.where_of("file"), fmt::format("{} holds {} dates in the window{}{}: a history needs at least two",
                                                  csv->file, h.dates.size(), from.empty() ? "" : " from " + from,
                                                  to.empty() ? "" : " to " + to));
  if (!b.valid()) return {};
  return h;
}

std::vector<std::vector<double>> daily_moves(const MarketHistory& h, const std::vector<bool>& absolute, double lambda) {
  std::vector<std::vector<double>> out;
  const std::size_t days = h.dates.size();
  for (std::size_t i = 0; i < h.prices.size(); ++i) {
    const std::vector<double>& p = h.prices[i];
    std::vector<double> m(days - 1);
    for (std::size_t u = 1; u < days; ++u) m[u - 1] = absolute[i] ? p[u] - p[u - 1] : std::log(p[u] / p[u - 1]);
    if (lambda > 0) {
      // sigma2[u]: the variance expected for move u from the moves before it,
      // started at the window's mean square; the last is tomorrow's.
      double seed = 0;
      for (double x : m) seed += x * x;
      seed /= static_cast<double>(m.size());
      std::vector<double> sigma2(m.size() + 1, seed);
      for (std::size_t u = 0; u < m.size(); ++u) sigma2[u + 1] = lambda * sigma2[u] + (1 - lambda) * m[u] * m[u];
      const double now = sigma2.back();
      for (std::size_t u = 0; u < m.size(); ++u) m[u] = sigma2[u] > 0 ? m[u] * std::sqrt(now / sigma2[u]) : 0.0;
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<double> historical_log_spots(const MarketHistory& h, const std::vector<double>& spots,
                                         const std::vector<bool>& absolute, const std::vector<bool>& level, double lambda,
                                         std::size_t horizon_days) {
  const std::size_t days = h.dates.size(), n = spots.size();
  if (days <= horizon_days) return {};
  const std::size_t scenarios = days - horizon_days;
  const std::vector<std::vector<double>> daily = lambda > 0 ? daily_moves(h, absolute, lambda) : std::vector<std::vector<double>>{};
  std::vector<double> out(scenarios * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double>& p = h.prices[i];
    for (std::size_t t = 0; t < scenarios; ++t) {
      double move = 0;
      if (lambda > 0)
        for (std::size_t u = t; u < t + horizon_days; ++u) move += daily[i][u];
      else
        move = absolute[i] ? p[t + horizon_days] - p[t] : std::log(p[t + horizon_days] / p[t]);
      const double spot = absolute[i] ? spots[i] + move : 0.0;
      if (level[i]) {  // a short-rate factor: its level moves as the rate did
        out[t * n + i] = spot;
        continue;
      }
      if (absolute[i] && !(spot > 0))
        throw std::runtime_error(fmt::format("{}: the move of {} from {} to {} ({:g}) takes its spot {:g} to {:g}; "
                                             "a price moved by absolute returns must stay above 0",
                                             h.file, h.names[i], h.dates[t], h.dates[t + horizon_days], move, spots[i], spot));
      out[t * n + i] = absolute[i] ? std::log(spot) : std::log(spots[i]) + move;
    }
  }
  return out;
}

std::vector<std::vector<double>> return_covariance(const MarketHistory& h, double lambda) {
  const std::size_t n = h.prices.size();
  const std::vector<std::vector<double>> r = daily_moves(h, std::vector<bool>(n, false), 0);
  const std::size_t m = r.empty() ? 0 : r[0].size();
  std::vector<double> mean(n, 0.0);
  if (!(lambda > 0))
    for (std::size_t i = 0; i < n; ++i) {
      for (double x : r[i]) mean[i] += x;
      mean[i] /= static_cast<double>(m);
    }
  std::vector<std::vector<double>> c(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double s = 0;
      if (lambda > 0) {  // weights (1 - lambda) lambda^age, the newest move's age 0
        double w = 1 - lambda;
        for (std::size_t u = m; u-- > 0; w *= lambda) s += w * r[i][u] * r[j][u];
      } else {
        for (std::size_t u = 0; u < m; ++u) s += (r[i][u] - mean[i]) * (r[j][u] - mean[j]);
        s /= static_cast<double>(m > 1 ? m - 1 : 1);
      }
      c[i][j] = c[j][i] = s * kTradingDays;
    }
  return c;
}

}  // namespace mcsim::var
