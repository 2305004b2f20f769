// Which Greeks an option job's path scores in its pricing pass, what its kernel
// tallies for them, which the job bumps and reruns, and their units.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/option/basket_kernel.hpp"
#include "models/option/hybrid.hpp"
#include "models/option/market_inputs.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

// The Greeks a path scores itself, in the pass that prices it: a European's or
// digital's (EuropeanPath; on term structures its flat equivalents', and each market
// input's from them), a stepped GBM or Heston payoff's without a control or Sobol
// points (StepPath with Greeks; an average's market inputs too), an American's or Bermudan's with its
// exercise dates held (AmericanPath with Greeks), a basket's per asset and pair of
// assets (BasketPath with Greeks), a hybrid's or autocallable's delta and gamma
// (HybridPath with Greeks), a local volatility's delta, gamma, rho and dividend rho
// (StepPath with Greeks, sigma(t, S) held). Theta, the gamma of payoffs whose path starts at
// the spot (lookbacks, continuous barriers), and every Greek of other paths or
// under `greek_method: bump` come by bump and revalue.
std::vector<std::string> OptionModel::path_greeks() const {
  const OptionSpec& s = spec_;
  std::vector<std::string> out;
  // Heston's scores divide by the log spot's own deviation, which |rho| = 1 leaves at 0.
  const bool heston = s.heston() && !s.jumping && std::fabs(s.rho) < 1;
  if (s.basket_steps()) {  // basket_exercise_path.hpp
    if (s.bump_greeks || !exercise_greeks_on_path(s)) return out;
    for (const auto& g : s.greeks)
      if (g != "theta" && g != "buckets") out.push_back(g);
    return out;
  }
  if (s.hybrid()) {  // delta and gamma by the first step's likelihood ratio (hybrid_path.hpp)
    if (s.bump_greeks || !hybrid_greeks_on_path(s)) return out;
    for (const auto& g : s.greeks)
      if (g == "delta" || g == "gamma") out.push_back(g);
    return out;
  }
  if (s.local() && !s.jumping) {  // pathwise, sigma(t, S) held (step_path.hpp); payoffs that jump bump
    if (s.bump_greeks || s.instrument == Instrument::Digital || s.knock != KnockKind::None) return out;
    // The rate's tangent is the process's: curves given in model.market do not move with it.
    const bool rates = s.market.flat() && !s.market.has_discount && !s.market.has_dividend_yield;
    for (const auto& g : s.greeks)
      // Dupire's gamma bumps: its linear cells' kinks leave the first step's likelihood ratio biased.
      if (g == "delta" || (g == "gamma" && s.instrument != Instrument::Lookback && s.process == Process::Cev) ||
          ((g == "rho" || g == "dividend_rho") && rates) || (g == "buckets" && !tables_.bucket_greeks.empty()))
        out.push_back(g);
    return out;
  }
  if (s.bump_greeks || !(s.gbm() || heston) || s.sobol || s.market.has_cash()) return out;
  MarketInput parallel;
  if (s.early_exercise() || s.multi_asset()) {
    if (s.multi_asset() && !basket_greeks_on_path(s)) return out;
    for (const auto& g : s.greeks)  // flat inputs' Greeks: a curve's or term structure's bump
      if (g != "theta" && g != "buckets" && !parallel_input(s, g, &parallel)) out.push_back(g);
    return out;
  }
  const bool knocked = s.knock != KnockKind::None;
  if (s.stepped() && (s.control_variate || (s.instrument == Instrument::Digital && knocked && s.continuous))) return out;
  // A European or digital on term structures scores its flat equivalents' Greeks, from
  // which each input's follows (summarise); a stepped path scores its buckets
  // (market_inputs.hpp's path_buckets) where they fit its kernel's slots, else bumps them.
  const bool no_gamma = s.stepped() && (s.instrument == Instrument::Lookback || (knocked && s.continuous));
  // Under a volatility term structure a stepped path's pathwise scores take each step's
  // length and volatility tangent from its table (StepPath::kGreekRows); the likelihood
  // ratio (digitals, discrete barriers) and the Brownian bridge (continuous monitoring)
  // take the one flat sigma, so there vega and the rates' Greeks bump.
  const bool no_vol = s.stepped() && !s.vol_term.is_flat() &&
                      (s.instrument == Instrument::Digital || knocked || s.continuous);
  // Heston's likelihood ratio (digitals, discrete barriers) weighs the spot only.
  const bool spot_only = heston && (s.instrument == Instrument::Digital || knocked);
  for (const auto& g : s.greeks)
    if (g != "theta" && !(no_gamma && g == "gamma") &&
        !(spot_only && g != "delta" && g != "gamma") && !(no_vol && (g == "rho" || g == "dividend_rho" || g == "vega")) &&
        !(s.stepped() && g == "buckets" && tables_.bucket_greeks.empty()))
      out.push_back(g);
  return out;
}

bool OptionModel::flat_path() const {
  const OptionSpec& s = spec_;
  return s.term_structure() && !s.stepped() && !s.hybrid() && !s.early_exercise() && !s.multi_asset();
}

// What a Greek-scoring path tallies after the price, in its order: a basket's per
// asset (delta_<asset>, ...) and per pair of assets (correlation_<a>_<b>).
std::vector<std::string> OptionModel::path_greek_outputs() const {
  if (spec_.hybrid()) return {"delta", "gamma"};
  if (!spec_.multi_asset()) {
    std::vector<std::string> out{"delta", "gamma", "vega", "rho", "dividend_rho"};
    if (!tables_.bucket_greeks.empty())  // StepPath's market-input slots, by number
      for (int b = 0; b < path_bucket_slots(spec_); ++b) out.push_back("bucket_" + std::to_string(b));
    return out;
  }
  const auto& assets = spec_.assets;
  std::vector<std::string> out;
  for (const char* g : {"delta", "gamma", "vega"})
    for (const Asset& a : assets) out.push_back(std::string(g) + "_" + a.name);
  out.push_back("rho");
  for (const Asset& a : assets) out.push_back("dividend_rho_" + a.name);
  for (std::size_t a = 0; a < assets.size(); ++a)
    for (std::size_t b = a + 1; b < assets.size(); ++b) out.push_back(correlation_greek(spec_, a, b));
  return out;
}

std::vector<GreekBump> OptionModel::greek_bumps() const {
  using S = GreekBump::Scheme;
  const OptionSpec& p = spec_;
  std::vector<GreekBump> out;
  const auto in_path = path_greeks();
  // Each asset of a basket has its own delta, gamma and vega: delta_<name>, ...
  std::vector<std::pair<std::string, const Asset*>> assets{{"model.process.", nullptr}};
  if (p.multi_asset()) {
    assets.clear();
    for (std::size_t a = 0; a < p.assets.size(); ++a)
      assets.push_back({"model.process.assets." + std::to_string(a) + ".", &p.assets[a]});
  }
  for (const auto& g : p.greeks) {
    if (std::find(in_path.begin(), in_path.end(), g) != in_path.end()) continue;
    MarketInput parallel;
    if (g == "buckets")
      for (const MarketInput& b : bucket_inputs(p)) out.push_back(input_bump(p, b));
    if (parallel_input(p, g, &parallel)) {  // a curve's or term structure's every node
      out.push_back(input_bump(p, parallel));
      continue;
    }
    // Steps small against the curvature, large against float rounding.
    for (const auto& [at, asset] : assets) {
      const std::string name = asset ? g + "_" + asset->name : g;
      const double spot = asset ? asset->spot : p.spot, vol = asset ? asset->volatility : p.volatility;
      if (g == "delta") out.push_back({name, at + "spot", spot, 0.01 * spot, S::Central});
      if (g == "gamma") out.push_back({name, at + "spot", spot, 0.01 * spot, S::Second});
      if ((g == "delta" || g == "gamma") && p.local_vol) out.back().holds_fit = true;
      if (g == "vega" && !p.heston()) out.push_back({name, at + "volatility", vol, 0.01, S::Central});
      if (g == "vega" && p.heston()) {  // the initial volatility sqrt(v0), in the config's v0
        GreekBump bump{name, at + "v0", std::sqrt(asset ? asset->v0 : p.v0), 0.01, S::Central};
        bump.text = [](double root) { return fmt::format("{:.17g}", root * root); };
        out.push_back(bump);
      }
    }
    if (g == "rho") out.push_back({g, "model.process.rate", p.rate, 0.001, S::Central});
    if (g == "dividend_rho")
      for (const auto& [at, asset] : assets)
        out.push_back({asset ? g + "_" + asset->name : g, at + "dividend", asset ? asset->dividend : p.dividend, 0.001, S::Central});
    if ((g == "rho" || g == "dividend_rho") && p.local_vol) out.back().holds_fit = true;
    if (g == "correlation")  // each pair's entry, and its mirror, of the whole matrix
      for (std::size_t a = 0; a < p.assets.size(); ++a)
        for (std::size_t b = a + 1; b < p.assets.size(); ++b) {
          GreekBump bump{correlation_greek(p, a, b), "model.process.correlation",
                         p.correlation[a][b], 0.01, S::Central};
          bump.text = [c = p.correlation, a, b](double x) {
            auto m = c;
            m[a][b] = m[b][a] = x;
            std::string rows;
            for (const auto& row : m) {
              std::string r;
              for (double v : row) r += (r.empty() ? "" : ", ") + fmt::format("{:.17g}", v);
              rows += (rows.empty() ? "[" : ", [") + r + "]";
            }
            return "[" + rows + "]";
          };
          out.push_back(bump);
        }
    if (g == "theta") out.push_back({g, "model.instrument.maturity", p.maturity, std::min(1.0 / 365, p.maturity / 10), S::Decay});
  }
  return out;
}

// Greeks per unit of what they move: spot, volatility (1.00 = 100%), the rate
// (1.00 = 100%), and theta per year of time passing; a basket's per asset.
EstimateInfo OptionModel::describe_estimate(const std::string& name) const {
  const auto is = [&name](const char* greek) { return name.rfind(greek, 0) == 0; };
  if (is("delta")) return {"paths", "per unit of spot"};
  if (is("gamma")) return {"paths", "per unit of spot squared"};
  if (is("vega")) return {"paths", spec_.heston() ? "per unit of initial volatility sqrt(v0)" : "per unit of volatility"};
  if (is("rho")) return {"paths", "per unit of rate"};
  if (is("dividend_rho")) return {"paths", "per unit of dividend yield"};
  if (is("theta")) return {"paths", "per year"};
  if (is("correlation")) return {"paths", "per unit of correlation"};
  return {"paths", ""};
}

}  // namespace mcsim::option
