// The exact (or stated-error) references a job's estimates are checked against.

#include <algorithm>
#include <cmath>
#include <optional>

#include "models/option/analytic.hpp"
#include "models/option/basket_kernel.hpp"
#include "models/option/hybrid.hpp"
#include "models/option/market_inputs.hpp"
#include "models/option/option_model.hpp"
#include "models/option/spec_inputs.hpp"

namespace mcsim::option {

namespace {

// Longstaff-Schwartz's rule, fitted on a cubic, falls short of the optimal exercise
// by a small part of the price; the reference carries this relative tolerance.
constexpr double kLsmTolerance = 0.005;
// Steps of the reference tree: about this many, a whole even number per exercise date.
constexpr int kTreeSteps = 8000;

// BGK's discrete-barrier correction is accurate to a small part of the shift it
// makes; its reference carries a tolerance of this fraction of that shift.
constexpr double kBgkTolerance = 0.1;

// A first (or second) derivative of price(step), the price with its input moved by
// step, by central differences extrapolated (Richardson) from steps h and h/2; the
// gap to the finer difference is its stated error. mid is price(0).
template <class Price>
Reference difference(const std::string& name, Price price, double mid, double h, bool second) {
  const auto at = [&](double step) {
    const double u = price(step), d = price(-step);
    return second ? (u - 2 * mid + d) / (step * step) : (u - d) / (2 * step);
  };
  const double coarse = at(h), fine = at(h / 2), value = (4 * fine - coarse) / 3;
  return {name, value, std::fabs(value - fine)};
}

BarrierKind barrier_kind(KnockKind k) {
  switch (k) {
    case KnockKind::DownOut: return BarrierKind::DownOut;
    case KnockKind::UpOut: return BarrierKind::UpOut;
    case KnockKind::DownIn: return BarrierKind::DownIn;
    default: return BarrierKind::UpIn;
  }
}

TwoAssetInput two_asset_input(const OptionSpec& s) {
  const Asset &a = s.assets[0], &b = s.assets[1];
  return {a.spot, b.spot, a.dividend, b.dividend, a.volatility, b.volatility, s.correlation[0][1], s.rate, s.maturity};
}

// A two-asset basket's exact price.
double two_asset_value(const OptionSpec& s, const TwoAssetInput& two) {
  const bool spread = s.basket == BasketKind::Spread || s.basket == BasketKind::Exchange;
  const TwoAssetPayoff p = s.basket == BasketKind::Max   ? TwoAssetPayoff::Max
                           : s.basket == BasketKind::Min ? TwoAssetPayoff::Min
                                                         : TwoAssetPayoff::Sum;
  return two_asset_price(two, p, s.weights[0], spread ? -s.weights[1] : s.weights[1], s.strike, s.call);
}

// Its Greeks by differences of the exact price: per asset delta, gamma, vega and
// dividend rho, the rho and the correlation sensitivity.
std::vector<Reference> two_asset_greeks(const OptionSpec& s) {
  std::vector<Reference> out;
  const TwoAssetInput base = two_asset_input(s);
  const double mid = two_asset_value(s, base);
  const auto add = [&](const std::string& name, double TwoAssetInput::*field, double h, bool second) {
    const auto moved = [&](double step) {
      TwoAssetInput in = base;
      in.*field += step;
      return two_asset_value(s, in);
    };
    out.push_back(difference(name, moved, mid, h, second));
  };
  for (const auto& g : s.greeks) {
    if (g == "rho") add(g, &TwoAssetInput::rate, 0.001, false);
    if (g == "correlation") add(correlation_greek(s, 0, 1), &TwoAssetInput::rho, 0.01, false);
    for (int a = 0; a < 2; ++a) {
      const std::string name = g + "_" + s.assets[a].name;
      if (g == "delta" || g == "gamma")
        add(name, a ? &TwoAssetInput::spot2 : &TwoAssetInput::spot1, 0.01 * s.assets[a].spot, g == "gamma");
      if (g == "vega") add(name, a ? &TwoAssetInput::vol2 : &TwoAssetInput::vol1, 0.01, false);
      if (g == "dividend_rho") add(name, a ? &TwoAssetInput::q2 : &TwoAssetInput::q1, 0.001, false);
    }
  }
  return out;
}

// A European's or digital's price at `spot` on a GBM paying cash dividends, by
// quadrature over the spot at each ex-date (none past kCashDividendsMost of them).
std::optional<double> cash_dividend_value(const OptionSpec& s, double spot) {
  const bool vanilla = s.instrument == Instrument::European || s.instrument == Instrument::Digital;
  std::vector<CashLeg> legs;
  double t0 = 0;
  const auto leg_to = [&](double t, double cash) {
    legs.push_back({s.market.log_growth(t) - s.market.log_growth(t0), s.vol_term.variance(t0, t),
                    s.market.discount.discount(t) / s.market.discount.discount(t0), cash});
    t0 = t;
  };
  double at_maturity = 0;
  for (const CashStep& c : cash_steps(s))  // a European's fixings are no dates of its own
    if (c.cash > 0 && c.time < s.maturity) leg_to(c.time, c.cash);
    else if (c.cash > 0) at_maturity = c.cash;
  leg_to(s.maturity, at_maturity);
  if (!vanilla || !s.gbm() || legs.size() > kCashDividendsMost + 1) return std::nullopt;
  return cash_dividend_price(spot, s.strike, s.call, legs, s.instrument == Instrument::Digital, s.cash);
}

// Delta and gamma of that price by its differences.
std::vector<Reference> cash_dividend_greeks(const OptionSpec& s) {
  std::vector<Reference> out;
  const auto mid = cash_dividend_value(s, s.spot);
  if (!mid) return out;
  const auto moved = [&](double step) { return *cash_dividend_value(s, s.spot + step); };
  for (const auto& g : s.greeks)
    if (g == "delta" || g == "gamma") out.push_back(difference(g, moved, *mid, 0.01 * s.spot, g == "gamma"));
  return out;
}

std::vector<Reference> price_references(const OptionSpec& s);

// A walked basket's: a basket of one asset is that asset's option on w S (a Heston
// European's closed form, a GBM tree's); a European on two GBM assets, the
// two-asset closed form. None for more assets.
std::vector<Reference> walked_basket_references(const OptionSpec& s) {
  const bool european = s.exercise_dates == 1;
  if (s.assets.size() == 2 && !s.heston() && european) return {{"price", two_asset_value(s, two_asset_input(s))}};
  if (s.assets.size() != 1) return {};
  const Asset& a = s.assets[0];
  OptionSpec one = s;
  one.assets.clear(), one.correlation.clear(), one.cholesky.clear(), one.weights.clear(), one.greeks.clear();
  one.basket = BasketKind::None;
  one.spot = s.weights[0] * a.spot, one.dividend = a.dividend;
  one.volatility = a.volatility, one.vol_term = market::VolTerm::flat(a.volatility);
  one.v0 = a.v0, one.kappa = a.kappa, one.theta = a.theta, one.xi = a.xi, one.rho = a.rho;
  one.instrument = european ? Instrument::European : s.instrument;
  one.steps = s.exercise_dates;
  return price_references(one);
}

// The price's reference: a closed form, or an approximation with its stated error.
std::vector<Reference> price_references(const OptionSpec& s) {
  if (s.basket_steps()) return walked_basket_references(s);
  if (s.hybrid()) {
    // Black-Scholes-Hull-White's European on a flat dividend and volatility; no
    // closed form for autocallables or under Heston.
    if (s.instrument != Instrument::European || s.heston() || !s.vol_term.is_flat() || !s.market.dividends.empty() ||
        !s.market.dividend_yield.is_flat())
      return {};
    return {{"price", rates::bs_hull_white_price(hull_white_of(s), s.spot, s.dividend,
                                                 s.volatility, s.hw_correlation, s.strike, s.maturity, s.call)}};
  }
  if (s.heston()) {
    if (s.instrument != Instrument::European) return {};
    const HestonInput h{s.spot, s.strike, s.rate, s.dividend, s.maturity, s.v0, s.kappa, s.theta, s.xi, s.rho, s.call};
    return {{"price", s.jumping ? bates_price(h, s.jumps) : heston_price(h)}};
  }
  if (s.jumping) {
    // Merton's series on the flat inputs to maturity (exact: the jumps are
    // time-homogeneous and the diffusion's variance is the total's).
    if (s.instrument != Instrument::European) return {};
    return {{"price", merton_price(bsm_input(s), s.jumps)}};
  }
  if (s.multi_asset()) {
    if (s.assets.size() != 2) return {};
    return {{"price", two_asset_value(s, two_asset_input(s))}};
  }
  const BsmInput in = bsm_input(s);
  const bool vanilla = s.instrument == Instrument::European || s.instrument == Instrument::Digital;
  if (s.market.has_cash()) {
    const auto price = cash_dividend_value(s, s.spot);
    if (!price) return {};
    return {{"price", *price}};
  }
  if (s.process == Process::LocalVol) {
    // Dupire's volatility from a flat surface is that volatility: Black-Scholes.
    const auto& q = s.market.surface->vols;
    double lo = q[0][0], hi = q[0][0];
    for (const auto& row : q)
      for (double v : row) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!vanilla || lo != hi) return {};
    BsmInput flat = in;
    flat.volatility = lo;
    return {{"price", s.instrument == Instrument::Digital ? digital_price(flat, s.cash) : bsm_price(flat)}};
  }
  if (s.process == Process::Cev) {
    if (!vanilla || s.instrument == Instrument::Digital || !s.market.flat()) return {};
    return {{"price", cev_price({s.spot, s.strike, s.rate, s.dividend, s.maturity, s.cev_sigma, s.cev_beta, s.call})}};
  }
  if (s.term_structure() && !vanilla) return {};  // the closed forms below take flat inputs
  if (s.instrument == Instrument::ForwardStart) {
    BsmInput unit = in;
    unit.strike = s.moneyness;
    return {{"price", forward_start_price(unit, s.start)}};
  }
  if (s.instrument == Instrument::Cliquet) {
    if (std::isfinite(s.global_floor) || std::isfinite(s.global_cap)) return {};  // no closed form
    return {{"price", cliquet_price(in, fixing_times(s), s.local_floor, s.local_cap)}};
  }
  if (s.early_exercise()) {
    // The tree on the same exercise dates; an American is priced on `steps` dates, so
    // its reference, exercisable at any time, also carries the gap between the two.
    const int dates = static_cast<int>(s.steps), tree = dates * std::max(2, kTreeSteps / dates / 2 * 2);
    const double bermudan = binomial_price(in, tree, true, dates);
    const double coarser = binomial_price(in, tree / 2, true, dates);  // the tree's own error, about
    const double value = s.instrument == Instrument::American ? binomial_price(in, tree, true) : bermudan;
    return {{"price", value, kLsmTolerance * value + std::fabs(value - bermudan) + std::fabs(bermudan - coarser)}};
  }
  if (s.instrument == Instrument::Digital) return {{"price", digital_price(in, s.cash)}};
  if (s.instrument == Instrument::European) return {{"price", bsm_price(in)}};
  if (s.instrument == Instrument::Asian && s.knock == KnockKind::None && s.average == Average::Geometric)
    return {{"price", geometric_asian_price(in, fixing_times(s))}};
  if (s.instrument == Instrument::Barrier) {
    const BarrierKind kind = barrier_kind(s.knock);
    if (s.continuous) return {{"price", barrier_price(in, kind, s.barrier, s.rebate, RebateTime::AtExpiry)}};
    if (s.times.empty()) {
      // Broadie-Glasserman-Kou: an approximation, its error stated as the reference's tolerance.
      const double dt = s.maturity / static_cast<double>(s.steps);
      const double v = barrier_price_discrete(in, kind, s.barrier, s.rebate, dt);
      const double cont = barrier_price(in, kind, s.barrier, s.rebate, RebateTime::AtExpiry);
      return {{"price", v, kBgkTolerance * std::fabs(v - cont)}};
    }
  }
  if (s.instrument == Instrument::Lookback && s.continuous && std::fabs(s.rate - s.dividend) > 1e-12) {
    BsmInput l = in;
    return {{"price", s.strike_type == StrikeType::Floating ? lookback_floating_price(l, s.spot) : lookback_fixed_price(l, s.spot)}};
  }
  return {};
}

// The Greeks of an exact closed form on flat single-asset GBM, Heston or CEV inputs
// (or a flat implied surface's local volatility), or of Black-Scholes-Hull-White's
// in its spot and volatility, by its differences.
// Theta is left to its own reference.
std::vector<Reference> difference_greeks(const OptionSpec& s, const std::vector<Reference>& have) {
  std::vector<Reference> out;
  const bool heston = s.heston() && !s.jumping, hybrid = s.hybrid(), local = s.local() && !s.jumping;
  if (!(s.gbm() || heston || local) || s.multi_asset() || (s.term_structure() && hybrid) || s.market.has_cash()) return out;
  const auto base = price_references(s);
  if (base.empty() || base[0].tolerance != 0) return out;
  const double mid = base[0].value;
  // A market input's Greek: the closed form on the market moved (its flat equivalents
  // recomputed). A surface quote moved leaves a flat surface, whose closed form it has no more.
  const auto input_greek = [&](const MarketInput& in) {
    if (in.kind == MarketInput::Kind::SurfaceQuote) return;
    const auto at = [&](double d) { return price_references(moved(s, in, d))[0].value; };
    const bool rate = in.kind != MarketInput::Kind::VolNode;
    out.push_back(difference(in.greek, at, mid, rate ? 0.001 : 0.01, false));
  };
  // A spot step that stays clear of a barrier.
  const double spot_step = std::min(0.01 * s.spot, s.knock == KnockKind::None ? INFINITY : 0.25 * std::fabs(s.spot - s.barrier));
  for (const auto& g : s.greeks) {
    const auto given = [&g](const Reference& r) { return r.name == g; };
    if (g == "theta" || (hybrid && g != "delta" && g != "gamma" && g != "vega") ||
        std::any_of(have.begin(), have.end(), given))
      continue;
    if (heston && g == "vega") {  // in the initial volatility sqrt(v0)
      const auto moved = [&](double step) {
        OptionSpec at = s;
        at.v0 = std::pow(std::sqrt(s.v0) + step, 2);
        return price_references(at)[0].value;
      };
      out.push_back(difference(g, moved, mid, 0.01, false));
      continue;
    }
    MarketInput in;
    if (g == "buckets")
      for (const MarketInput& b : bucket_inputs(s)) input_greek(b);
    if (g == "buckets" || parallel_input(s, g, &in)) {
      if (g != "buckets") input_greek(in);
      continue;
    }
    double OptionSpec::*field = g == "vega" ? &OptionSpec::volatility
                                : g == "rho" ? &OptionSpec::rate
                                : g == "dividend_rho" ? &OptionSpec::dividend
                                                      : &OptionSpec::spot;
    const double h = field == &OptionSpec::spot ? spot_step : field == &OptionSpec::volatility ? 0.01 : 0.001;
    const auto moved = [&](double step) {
      OptionSpec at = s;
      at.*field += step;
      return price_references(at)[0].value;
    };
    out.push_back(difference(g, moved, mid, h, g == "gamma"));
  }
  return out;
}

}  // namespace

double control_mean(const OptionSpec& s) {
  if (s.multi_asset()) return geometric_basket_price(basket_input(s), s.strike, s.call);
  const BsmInput in = bsm_input(s);
  return s.instrument == Instrument::Asian ? geometric_asian_price(in, fixing_times(s)) : bsm_price(in);
}

std::vector<Reference> OptionModel::references() const {
  std::vector<Reference> refs = price_references(spec_);
  if (spec_.control_variate) refs.push_back({"control", control_mean(spec_)});
  if (spec_.market.has_cash()) {  // delta and gamma by differences of the quadrature; no others
    const auto greeks = cash_dividend_greeks(spec_);
    refs.insert(refs.end(), greeks.begin(), greeks.end());
    return refs;
  }
  if (spec_.instrument == Instrument::Digital && spec_.gbm()) {
    const DigitalGreeks d = digital_greeks(bsm_input(spec_), spec_.cash);
    for (const auto& g : spec_.greeks) {
      if (spec_.term_structure() && g != "delta" && g != "gamma") continue;
      if (g == "delta") refs.push_back({g, d.delta});
      if (g == "gamma") refs.push_back({g, d.gamma});
      if (g == "vega") refs.push_back({g, d.vega});
      if (g == "rho") refs.push_back({g, d.rho});
    }
  }
  if (spec_.multi_asset() && spec_.assets.size() == 2 && !spec_.heston() && spec_.exercise_dates == 1) {
    const auto greeks = two_asset_greeks(spec_);
    refs.insert(refs.end(), greeks.begin(), greeks.end());
  }
  if (spec_.instrument == Instrument::European && spec_.gbm() && !spec_.hybrid()) {
    // Term structures: delta and gamma are those of the equivalent flat inputs (not
    // so beside a random rate, which adds to the forward's variance).
    const BsmInput in = bsm_input(spec_);
    for (const auto& g : spec_.greeks) {
      if (spec_.term_structure() && g != "delta" && g != "gamma") continue;
      if (g == "delta") refs.push_back({g, bsm_delta(in)});
      if (g == "gamma") refs.push_back({g, bsm_gamma(in)});
      if (g == "vega") refs.push_back({g, bsm_vega(in)});
      if (g == "rho") refs.push_back({g, bsm_rho(in)});
      if (g == "theta") refs.push_back({g, bsm_theta(in)});
    }
  }
  const auto differenced = difference_greeks(spec_, refs);
  refs.insert(refs.end(), differenced.begin(), differenced.end());
  return refs;
}

}  // namespace mcsim::option
