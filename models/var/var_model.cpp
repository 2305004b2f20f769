#include "models/var/var_model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "models/var/delta_var.hpp"
#include "models/var/exact_tail.hpp"

namespace mcsim::var {

std::string level_name(double level) { return fmt::format("{:g}", level); }

VarModel::VarModel(VarSpec spec) : spec_(std::move(spec)) {
  const LossMoments m = spec_.historical() ? historical_loss_moments(spec_) : loss_moments(spec_, true);
  mean_ = m.mean;
  sd_ = m.sd;
}

std::vector<std::string> VarModel::outputs() const {
  std::vector<std::string> out;
  for (double a : spec_.confidence) {
    out.push_back("var_" + level_name(a));
    out.push_back("es_" + level_name(a));
  }
  out.push_back("pnl_mean");
  out.push_back("pnl_sd");
  const std::vector<ShareGroup> groups = share_groups(spec_);
  for (double a : spec_.confidence)
    for (const char* figure : {"var_", "es_"}) {
      for (const Position& p : spec_.portfolio) out.push_back(figure + level_name(a) + "." + p.name);
      for (const ShareGroup& g : groups) out.push_back(figure + level_name(a) + "." + g.name);
    }
  if (spec_.standalone)
    for (double a : spec_.confidence)
      for (const char* figure : {"standalone_var_", "standalone_es_"})
        for (const ShareGroup& g : groups) out.push_back(figure + level_name(a) + "." + g.name);
  return out;
}

std::vector<Reference> VarModel::references() const {
  std::vector<Reference> out;
  if (spec_.assets.size() != 1 || spec_.historical()) return out;  // the closed form is of GBM shocks
  try {
    for (double a : spec_.confidence) {
      const TailRisk t = exact_single_asset_tail(spec_, a);
      out.push_back({"var_" + level_name(a), t.var});
      if (std::isfinite(t.es)) out.push_back({"es_" + level_name(a), t.es});
      const std::vector<TailRisk> parts = exact_single_asset_contributions(spec_, a);
      for (std::size_t i = 0; i < parts.size(); ++i) {
        out.push_back({"var_" + level_name(a) + "." + spec_.portfolio[i].name, parts[i].var});
        if (std::isfinite(parts[i].es)) out.push_back({"es_" + level_name(a) + "." + spec_.portfolio[i].name, parts[i].es});
      }
    }
  } catch (const std::invalid_argument&) {
    return {};  // not monotone in the spot: no closed form
  }
  return out;
}

// VaR, ES, the P&L and contributions are in the book's money, from scenarios.
EstimateInfo VarModel::describe_estimate(const std::string&) const { return {"scenarios", ""}; }

std::string VarModel::describe() const {
  std::size_t options = 0, on_rates = 0;
  for (const Position& p : spec_.portfolio) {
    options += is_option(p.instrument) ? 1 : 0;
    on_rates += is_rate(p.instrument) ? 1 : 0;
  }
  const std::string shocks =
      spec_.historical()
          ? fmt::format("historical moves of {} windows from {} to {} ({}){}", spec_.scenarios(), spec_.window.first,
                        spec_.window.second, spec_.history_file,
                        spec_.age_weighted() ? fmt::format(", age-weighted (decay {:g})", spec_.age_decay) : "")
          : fmt::format("{} shocks{}", spec_.student_t ? fmt::format("Student-t ({:g} dof)", spec_.dof) : std::string("normal"),
                        spec_.history_file.empty() ? ""
                                                   : fmt::format(", covariance from {} to {} ({})", spec_.window.first,
                                                                 spec_.window.second, spec_.history_file));
  return fmt::format("portfolio risk: {} positions ({} options{}) on {} assets, {}-day horizon, {}", spec_.portfolio.size(),
                     options, on_rates ? fmt::format(", {} on rates", on_rates) : "", spec_.assets.size(),
                     spec_.horizon_days, shocks);
}

std::vector<std::pair<std::string, double>> VarModel::diagnostics() const {
  std::vector<std::pair<std::string, double>> out;
  if (spec_.historical()) return out;  // the approximations are of the model's shocks
  for (double a : spec_.confidence) {
    const TailRisk dn = delta_normal(spec_, a), dg = delta_gamma_normal(spec_, a);
    out.emplace_back("delta_normal_var_" + level_name(a), dn.var);
    out.emplace_back("delta_normal_es_" + level_name(a), dn.es);
    out.emplace_back("delta_gamma_normal_var_" + level_name(a), dg.var);
    out.emplace_back("delta_gamma_normal_es_" + level_name(a), dg.es);
  }
  if (spec_.student_t) {
    int unbounded = 0;
    for (const Position& p : spec_.portfolio)
      unbounded += p.quantity < 0 && unbounded_value(p.instrument) ? 1 : 0;
    out.emplace_back("es_unbounded_positions", unbounded);
  }
  return out;
}

RiskKernel VarModel::risk_kernel(Precision precision, std::uint64_t seed) const {
  RiskKernel k;
  k.precision = precision;
  k.seed = seed;
  k.id = new_kernel_id();
  k.in_float = portfolio_arrays<float>(spec_);
  k.in_double = portfolio_arrays<double>(spec_);
  // The unit of exact sums follows the loss's spread, or the portfolio's size when
  // the approximation sees no risk.
  double scale = sd_;
  if (!(scale > 0)) {
    for (const Position& p : spec_.portfolio) scale += std::fabs(p.quantity) * spec_.assets[static_cast<std::size_t>(p.asset)].spot;
    scale *= 1e-3;
  }
  k.unit = reduce::FixedUnit::of_scale(scale);
  k.square_unit = reduce::FixedUnit::of_scale(scale * scale);
  return k;
}

std::unique_ptr<Model> parse_var_model(io::Block& model) {
  VarSpec s;
  if (!parse_var_spec(model, s)) return nullptr;
  return std::make_unique<VarModel>(std::move(s));
}

}  // namespace mcsim::var
