#include "models/option/market_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/option/spec_inputs.hpp"

namespace mcsim::option {

namespace {

using Kind = MarketInput::Kind;

std::string flow_list(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ", ") + fmt::format("{:.17g}", x);
  return "[" + s + "]";
}

std::string curve_text(const market::Curve& c) {
  return "{times: " + flow_list(c.times()) + ", zero_rates: " + flow_list(c.zero_rates()) + "}";
}

// d(-log P(t)) / d(zero rate) per pillar of the input's curve, or d variance(0, t) /
// d sigma per node of the volatility: what both the chain rule and the path's steps use.
std::vector<double> weights_at(const OptionSpec& s, const MarketInput& in, double t) {
  switch (in.kind) {
    case Kind::Discount: return s.market.discount.pillar_weights(t);
    case Kind::Yield: return s.market.dividend_yield.pillar_weights(t);
    default: return s.vol_term.node_weights(t);
  }
}

}  // namespace

std::vector<MarketInput> bucket_inputs(const OptionSpec& s) {
  std::vector<MarketInput> out;
  const auto curve = [&](Kind kind, const market::Curve& c, const char* greek) {
    for (std::size_t i = 0; i < c.times().size(); ++i) out.push_back({kind, i, 0, fmt::format("{}_{:g}", greek, c.times()[i])});
  };
  if (s.market.has_discount) curve(Kind::Discount, s.market.discount, "rho");
  if (s.market.has_dividend_yield) curve(Kind::Yield, s.market.dividend_yield, "dividend_rho");
  if (s.gbm_diffusion() && !s.vol_term.is_flat())
    for (std::size_t i = 0; i < s.vol_term.times().size(); ++i)
      out.push_back({Kind::VolNode, i, 0, fmt::format("vega_{:g}", s.vol_term.times()[i])});
  if (s.process == Process::LocalVol && s.market.surface) {
    const market::VolSurface& q = *s.market.surface;
    for (std::size_t e = 0; e < q.expiries.size(); ++e)
      for (std::size_t k = 0; k < q.strikes.size(); ++k)
        out.push_back({Kind::SurfaceQuote, e, k, fmt::format("vega_{:g}_{:g}", q.expiries[e], q.strikes[k])});
  }
  return out;
}

bool parallel_input(const OptionSpec& s, const std::string& greek, MarketInput* out) {
  if (greek == "rho" && s.market.has_discount) *out = {Kind::Discount, kEveryNode, 0, greek};
  else if (greek == "dividend_rho" && s.market.has_dividend_yield) *out = {Kind::Yield, kEveryNode, 0, greek};
  else if (greek == "vega" && s.gbm_diffusion() && !s.vol_term.is_flat()) *out = {Kind::VolNode, kEveryNode, 0, greek};
  else return false;
  return true;
}

void flat_equivalents(OptionSpec& s) {
  const double t = s.maturity;
  const market::Market& m = s.market;
  s.rate = m.discount.zero_rate(t);
  s.dividend = s.rate - m.log_growth(t) / t;
  if (s.gbm_diffusion()) s.volatility = std::sqrt(s.vol_term.variance(0, t) / t);
}

OptionSpec moved(const OptionSpec& s, const MarketInput& in, double d) {
  OptionSpec out = s;
  market::Market& m = out.market;
  switch (in.kind) {
    case Kind::Discount:
      m.discount = m.discount.shifted(in.index, d);
      if (m.discount.is_flat()) out.rate += d;
      break;
    case Kind::Yield:
      m.dividend_yield = m.dividend_yield.shifted(in.index, d);
      if (m.dividend_yield.is_flat()) out.dividend += d;
      break;
    case Kind::VolNode:
      out.vol_term = out.vol_term.shifted(in.index, d);
      if (out.vol_term.is_flat()) out.volatility += d;
      break;
    case Kind::SurfaceQuote: m.surface->vols[in.index][in.column] += d; break;
  }
  if (out.term_structure()) flat_equivalents(out);
  return out;
}

GreekBump input_bump(const OptionSpec& s, const MarketInput& in) {
  using S = GreekBump::Scheme;
  GreekBump b{in.greek, "", 0.0, in.kind == Kind::Discount || in.kind == Kind::Yield ? 0.001 : 0.01, S::Central};
  switch (in.kind) {
    case Kind::Discount:
      b.key = "model.market.discount";
      b.text = [c = s.market.discount, i = in.index](double x) { return curve_text(c.shifted(i, x)); };
      break;
    case Kind::Yield:
      b.key = "model.market.dividend_yield";
      b.text = [c = s.market.dividend_yield, i = in.index](double x) { return curve_text(c.shifted(i, x)); };
      break;
    case Kind::VolNode:
      b.key = "model.process.volatility";
      b.text = [v = s.vol_term, i = in.index](double x) {
        const market::VolTerm m = v.shifted(i, x);
        return "{times: " + flow_list(m.times()) + ", values: " + flow_list(m.values()) + "}";
      };
      break;
    case Kind::SurfaceQuote:
      b.key = "model.market.vol_surface.vols";
      b.text = [q = s.market.surface->vols, e = in.index, k = in.column](double x) {
        auto v = q;
        v[e][k] += x;
        std::string rows;
        for (const auto& row : v) rows += (rows.empty() ? "" : ", ") + flow_list(row);
        return "[" + rows + "]";
      };
      break;
  }
  // A local volatility's rates Greeks hold sigma(t, S), as its rho does; a quote moves the surface it is built from.
  b.holds_fit = s.local_vol && in.kind != Kind::SurfaceQuote;
  return b;
}

double flat_factor(const OptionSpec& s, const MarketInput& in) {
  if (in.kind == Kind::SurfaceQuote) return std::nan("");
  const double t = s.maturity;
  const auto w = weights_at(s, in, t);
  double weight = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (in.index == kEveryNode || i == in.index) weight += w[i];
  return in.kind == Kind::VolNode ? weight / (2 * s.volatility * t) : weight / t;
}

int path_bucket_slots(const OptionSpec& s) {
  return s.process == Process::LocalVol ? kLocalPathBuckets : kPathBuckets;
}

namespace {

// Per step, the cells (market::cell_rows) of d sigma / d quote on the job's Dupire
// grid: central differences of grids built on its nodes from the moved surface. A
// row the quote does not reach (steps beyond its neighbouring expiries) is exactly 0.
std::vector<double> quote_tangent(const OptionSpec& s, const MarketInput& in, const std::vector<double>& ends) {
  constexpr double h = 1e-5;  // small against the surface's curvature, large against its rounding
  const market::LocalVolGrid& g = *s.local_vol;
  const auto grid = [&](double d) {
    market::VolSurface q = *s.market.surface;
    q.vols[in.index][in.column] += d;
    return market::dupire_grid(q, s.spot, s.market, ends, nullptr, &g);
  };
  market::LocalVolGrid j = g;
  const auto up = grid(h), down = grid(-h);
  for (std::size_t i = 0; i < j.sigma.size(); ++i) j.sigma[i] = (up.sigma[i] - down.sigma[i]) / (2 * h);
  return market::cell_rows(j);
}

}  // namespace

bool path_buckets(const OptionSpec& s, PathBuckets* out) {
  // StepPath's payoffs (step_path.hpp's kBuckets, kLRBuckets); a local volatility's
  // Lipschitz ones (its digitals and barriers bump all their Greeks).
  const Instrument k = s.instrument;
  const bool local = s.process == Process::LocalVol && s.local_vol && !s.jumping;
  const bool on_path = local ? k == Instrument::Asian || k == Instrument::Lookback || k == Instrument::European
                             : k == Instrument::Asian || k == Instrument::Lookback || k == Instrument::Barrier ||
                                   k == Instrument::ForwardStart || k == Instrument::Cliquet;
  if (!on_path || !(s.gbm() || local) || !s.stepped() || (local && s.knock != KnockKind::None) || s.control_variate ||
      s.sobol || s.market.has_cash() || s.bump_greeks ||
      std::find(s.greeks.begin(), s.greeks.end(), "buckets") == s.greeks.end())
    return false;
  const auto times = fixing_times(s);
  const auto inputs = bucket_inputs(s);
  const auto weights = [&](const MarketInput& in, double t) { return weights_at(s, in, t).at(in.index); };
  struct Entry {
    std::size_t input;
    double a, c;
  };
  std::vector<std::vector<Entry>> steps(times.size());
  std::vector<int> slot(inputs.size(), -1);
  PathBuckets b;
  const int slots = path_bucket_slots(s);
  const std::size_t row_cells = local ? 2 * static_cast<std::size_t>(s.local_vol->nodes) : 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const MarketInput& in = inputs[k];
    // A quote's cells of d sigma / d quote, every step's row; the steps it reaches keep theirs.
    const std::vector<double> cells = in.kind == Kind::SurfaceQuote ? quote_tangent(s, in, times) : std::vector<double>{};
    for (std::size_t i = 0; i < times.size(); ++i) {
      Entry e{k, 0, 0};
      if (in.kind == Kind::SurfaceQuote) {
        // c: the step's row of the quote's cells, in the order of the entries.
        const auto row = cells.begin() + static_cast<std::ptrdiff_t>(i * row_cells);
        if (std::all_of(row, row + static_cast<std::ptrdiff_t>(row_cells), [](double v) { return v == 0; })) continue;
        e.c = static_cast<double>(b.rows.size() / row_cells);
        b.rows.insert(b.rows.end(), row, row + static_cast<std::ptrdiff_t>(row_cells));
      } else {
        const double t0 = i ? times[i - 1] : 0.0, d = weights(in, times[i]) - weights(in, t0);
        if (d == 0) continue;
        if (in.kind == Kind::VolNode) e.a = -0.5 * d, e.c = 0.5 * d / std::sqrt(s.vol_term.variance(t0, times[i]));
        else e.a = in.kind == Kind::Discount ? d : -d;  // a yield's carry is the rate's, less
        if (local) e.c = -1;  // no cells: a curve moves the step's carry only
      }
      steps[i].push_back(e);
      if (slot[k] < 0) {
        slot[k] = static_cast<int>(b.inputs.size());
        b.inputs.push_back(in);
        b.discount.push_back(in.kind == Kind::Discount ? weights(in, s.maturity) : 0.0);
      }
    }
    // More inputs than slots: they bump; stop before a large surface's other quotes are differenced.
    if (b.inputs.size() > static_cast<std::size_t>(slots)) return false;
  }
  double offset = 0;
  for (const auto& entries : steps) b.table.push_back(offset), offset += static_cast<double>(entries.size());
  b.table.push_back(offset);
  for (const auto& entries : steps)
    for (const Entry& e : entries) b.table.insert(b.table.end(), {static_cast<double>(slot[e.input]), e.a, e.c});
  b.discount.resize(static_cast<std::size_t>(slots), 0.0);
  *out = std::move(b);
  return true;
}

const char* flat_greek(const MarketInput& in) {
  return in.kind == Kind::Discount ? "rho" : in.kind == Kind::Yield ? "dividend_rho" : "vega";
}

}  // namespace mcsim::option
