// The option-pricing model: its parameters as read from `model:`, the analytic
// references, and the path kernel for each precision.
#pragma once
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/market/local_vol.hpp"
#include "models/option/analytic.hpp"
#include "models/option/lsm.hpp"
#include "models/market/market.hpp"
#include "models/model.hpp"

namespace mcsim::option {

struct Asset {
  std::string name;
  double spot = 0, volatility = 0, dividend = 0;
  double v0 = 0, kappa = 0, theta = 0, xi = 0, rho = 0;  // under heston, each asset's own
};

// The choices of an option job, as enums once read; each names list holds the
// config's words in the enum's order (after None, where there is one).
enum class Process { Gbm, Heston, LocalVol, Cev };
enum class Instrument { European, Digital, Asian, Barrier, Lookback, Basket, American, Bermudan, ForwardStart, Cliquet, Autocallable };
enum class Average { None, Arithmetic, Geometric };
enum class StrikeType { None, Fixed, Floating };
enum class KnockKind { None, DownOut, UpOut, DownIn, UpIn };
enum class BasketKind { None, Average, Max, Min, Exchange, Spread };
const std::vector<std::string>& process_names();
const std::vector<std::string>& instrument_names();
const std::vector<std::string>& average_names();
const std::vector<std::string>& strike_type_names();
const std::vector<std::string>& knock_names();
const std::vector<std::string>& basket_names();
// An enum's config word ("" for None).
template <class E>
std::string name_of(E e, const std::vector<std::string>& names, int first) {
  const int i = static_cast<int>(e) - first;
  return i < 0 ? std::string() : names.at(static_cast<std::size_t>(i));
}
inline std::string name_of(Process p) { return name_of(p, process_names(), 0); }
inline std::string name_of(Instrument i) { return name_of(i, instrument_names(), 0); }
inline std::string name_of(Average a) { return name_of(a, average_names(), 1); }
inline std::string name_of(StrikeType t) { return name_of(t, strike_type_names(), 1); }
inline std::string name_of(KnockKind k) { return name_of(k, knock_names(), 1); }
inline std::string name_of(BasketKind b) { return name_of(b, basket_names(), 1); }

struct OptionSpec {
  // process: gbm (volatility), heston (v0, kappa, theta, xi, rho; scheme qe | euler),
  // local_vol (Dupire's from market.vol_surface) or cev (sigma, beta)
  Process process = Process::Gbm;
  // With market curves or a volatility term structure, rate, dividend and
  // volatility are the flat inputs to maturity that give the same forward, discount
  // and total variance (exact for a European's closed form).
  double spot = 0, rate = 0, dividend = 0, volatility = 0;
  market::Market market;     // curves (flat at rate and dividend when not given), dividends, a surface
  market::VolTerm vol_term;  // gbm: sigma(t)
  double cev_sigma = 0, cev_beta = 1;
  // gbm or heston with process.jumps: Merton's and Bates's models.
  bool jumping = false;
  Jumps jumps;
  std::shared_ptr<const market::LocalVolGrid> local_vol;  // local_vol: Dupire's grid on the path's steps
  // Several correlated assets (a basket) replace spot, volatility and dividend (and
  // under heston v0, kappa, theta, xi and rho: each asset has its own).
  std::vector<Asset> assets;
  std::vector<std::vector<double>> correlation;
  std::vector<double> cholesky;  // row-major factor of `correlation`
  double v0 = 0, kappa = 0, theta = 0, xi = 0, rho = 0;
  bool qe = true;
  // process.short_rate: a Hull-White rate fitted to the discount curve, its Brownian
  // correlated with the stock's (gbm: Black-Scholes-Hull-White, heston: Heston-Hull-White).
  bool hull_white = false;
  double hw_a = 1, hw_sigma = 0, hw_correlation = 0;
  // instrument
  Instrument instrument = Instrument::European;
  bool call = true;
  double strike = 0, maturity = 0, cash = 1;
  std::uint64_t steps = 1;          // path steps: the fixings of an Asian, the monitoring dates
  std::vector<double> times;        // fixing times (years) when given, else equal steps
  Average average = Average::None;              // asian
  StrikeType strike_type = StrikeType::None;    // lookback
  KnockKind knock = KnockKind::None;            // barrier, or an Asian's optional knock
  double barrier = 0, rebate = 0;   // rebate paid at expiry
  bool continuous = false;          // monitoring of barrier and extremes
  double moneyness = 1, start = 0;  // forward start: strike = moneyness x S(start)
  // cliquet: each period's return within [local_floor, local_cap], their sum within
  // [global_floor, global_cap] (infinite: none); the periods end at `times` or `steps` equal ones
  double local_floor = -1, local_cap = INFINITY, global_floor = -INFINITY, global_cap = INFINITY;
  // autocallable, observed at `times` (the last at maturity), levels as fractions of
  // the spot: called at autocall_barrier, coupon paid at coupon_barrier (with the
  // missed ones under memory), a put struck at the spot if below knock_in at maturity
  // initial_spot (the trade's initial fixing, a contract term that a spot bump leaves)
  double coupon = 0, coupon_barrier = 1, autocall_barrier = 1, knock_in = 0, initial_spot = 0;
  bool memory = false;
  BasketKind basket = BasketKind::None;
  std::vector<double> weights;      // basket: one per asset
  // american: exercise at each of `steps` dates; bermudan: at `steps` = exercise_dates
  std::uint64_t regression_paths = 0;  // Longstaff-Schwartz's fit, separate from pricing
  bool antithetic = false;
  bool control_variate = false;     // geometric Asian for an arithmetic one, else the European
  bool sobol = false;               // scrambled Sobol points through the Brownian bridge
  std::vector<std::string> greeks;  // delta, gamma, vega, rho, dividend_rho, theta
  bool bump_greeks = false;         // greek_method: bump, even where the path scores them
  bool path_dependent() const {
    return instrument == Instrument::Asian || instrument == Instrument::Barrier || instrument == Instrument::Lookback;
  }
  bool multi_asset() const { return !assets.empty(); }
  // A basket walked step by step (BasketExercisePath): early exercise, or Heston assets.
  bool basket_steps() const { return multi_asset() && (early_exercise() || heston()); }
  // A basket's exercise dates: the last step of every `steps / dates` (a European's: maturity alone).
  std::uint64_t exercise_dates = 1;
  bool early_exercise() const { return instrument == Instrument::American || instrument == Instrument::Bermudan; }
  bool heston() const { return process == Process::Heston; }
  // GBM without jumps (the closed forms, controls, Sobol paths and path Greeks are its).
  bool gbm() const { return process == Process::Gbm && !jumping; }
  // A GBM diffusion, with or without jumps: its volatility and step table.
  bool gbm_diffusion() const { return process == Process::Gbm; }
  // A local volatility: Dupire's or CEV's.
  bool local() const { return process == Process::LocalVol || process == Process::Cev; }
  // Market data beyond flat rates, or a volatility that changes with time.
  bool term_structure() const { return !market.flat() || !vol_term.is_flat(); }
  // Walked step by step (StepPath): path-dependent payoffs, Heston and local-volatility
  // paths, and GBM paths from Sobol points.
  // Forward starts and cliquets: payoffs on the returns between dates.
  bool periodic() const { return instrument == Instrument::ForwardStart || instrument == Instrument::Cliquet; }
  // Walked by HybridPath: a Hull-White rate beside the stock, or an autocallable.
  bool hybrid() const { return hull_white || instrument == Instrument::Autocallable; }
  // A cash dividend moves the spot by an amount, which only a walked path can pay.
  bool stepped() const {
    return !hybrid() && (path_dependent() || periodic() || heston() || local() || jumping || sobol || market.has_cash());
  }
};

// A stepped path's per-step data (StepPath::step_data, local_vol), built once.
struct StepTables {
  TableData steps, local_vol;
  TableData hybrid;  // HybridPath::step_data
  // The steps a path walks where they are not its fixings: a hybrid's grid, or the
  // fixings with the cash dividends' ex-dates among them (0: the fixings).
  std::uint64_t path_steps = 0;
  // Market inputs a stepped payoff scores on its path (market_inputs.hpp's
  // PathBuckets): StepPath::bucket_data, bucket_rows, bucket_discount, and each slot's Greek.
  TableData bucket_data, bucket_rows;
  std::vector<double> bucket_discount;
  std::vector<std::string> bucket_greeks;
};

class OptionModel : public Model {
 public:
  explicit OptionModel(OptionSpec spec);
  std::vector<std::string> outputs() const override;
  Summary summarise(const std::vector<double>& total) const override;
  std::vector<GreekBump> greek_bumps() const override;
  std::vector<Reference> references() const override;
  PathKernel kernel(const KernelSetup& setup) const override;
  bool chunk_replicates() const override { return spec_.sobol; }
  std::string describe() const override;
  EstimateInfo describe_estimate(const std::string& name) const override;
  std::uint64_t steps_per_path() const override {
    if (spec_.basket_steps()) return spec_.steps * spec_.assets.size();  // an asset's step a normal (or two)
    if (spec_.multi_asset()) return spec_.assets.size();  // one normal per asset
    if (tables_.path_steps) return tables_.path_steps;
    const bool stepped = spec_.stepped() || spec_.early_exercise();
    return stepped ? (spec_.times.empty() ? spec_.steps : spec_.times.size()) : 1;
  }
  const OptionSpec& spec() const { return spec_; }
  // A walked basket's exercise rule from `seed` (fit_walked_basket), fitted once and
  // kept for the job's later kernels of that seed.
  const ExerciseRule& walked_rule(std::uint64_t seed) const;

 private:
  std::vector<std::string> path_greeks() const;
  // A European or digital on term structures: the kernel of its flat equivalents.
  bool flat_path() const;
  std::vector<std::string> path_greek_outputs() const;
  std::vector<std::string> path_outputs() const;
  std::pair<const OptionSpec*, const StepTables*> held_grid(const KernelSetup& setup) const;
  OptionSpec spec_;
  StepTables tables_;
  struct Fits {
    std::mutex mutex;
    std::map<std::uint64_t, ExerciseRule> rules;  // by seed
  };
  std::shared_ptr<Fits> fits_ = std::make_shared<Fits>();
  struct HeldGrid {  // a bumped rerun's spec on its base job's grid, and its tables
    std::mutex mutex;
    std::optional<OptionSpec> spec;
    std::optional<StepTables> tables;
  };
  std::shared_ptr<HeldGrid> held_ = std::make_shared<HeldGrid>();
};

std::unique_ptr<Model> parse_option_model(io::Block& model);
// The model: block's keys (mcsim schema).
const std::vector<io::KeySchema>& option_keys();

}  // namespace mcsim::option
