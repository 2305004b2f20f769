// The market inputs a Greek may move beyond the flat ones: one pillar of the
// discount or dividend-yield curve, one node of a volatility term structure, one
// quote of an implied volatility surface, or all of a curve or term structure at
// once (a parallel shift: a curve's rho and dividend rho, a term structure's vega).
// `greeks: [buckets]` asks for each one: rho_<t> per discount pillar, dividend_rho_<t>
// per yield pillar, vega_<t> per volatility node (named by the time it ends),
// vega_<expiry>_<strike> per surface quote.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "models/model.hpp"
#include "models/option/option_model.hpp"

namespace mcsim::option {

constexpr std::size_t kEveryNode = static_cast<std::size_t>(-1);

struct MarketInput {
  enum class Kind { Discount, Yield, VolNode, SurfaceQuote };
  Kind kind;
  std::size_t index = kEveryNode;  // pillar, node or the quote's expiry row; kEveryNode: all
  std::size_t column = 0;          // the quote's strike
  std::string greek;               // its estimate's name
};

// The inputs of `buckets`, in the order their estimates are reported.
std::vector<MarketInput> bucket_inputs(const OptionSpec& s);
// The parallel shift a Greek means on this job's market data, if it means one: rho
// with a discount curve, dividend_rho with a yield curve, vega under a term structure.
bool parallel_input(const OptionSpec& s, const std::string& greek, MarketInput* out);

// The spec with the input moved by d (a rate's zero rates by d, a volatility by d),
// its flat equivalents to maturity recomputed.
OptionSpec moved(const OptionSpec& s, const MarketInput& in, double d);
// Bump and revalue of the input: the config key whose value moves, as text.
GreekBump input_bump(const OptionSpec& s, const MarketInput& in);

// A European's path scores the Greeks of its flat equivalents to maturity (rate,
// dividend, volatility: flat_equivalents); the input's Greek is the flat one's times
// this factor, d(flat input) / d(input). The flat Greek is the one of the input's kind.
double flat_factor(const OptionSpec& s, const MarketInput& in);
const char* flat_greek(const MarketInput& in);

// A stepped payoff's market inputs scored on its path (StepPath's Buckets): the
// inputs that move its steps (pillars, nodes and quotes past maturity's reach move
// none), up to path_bucket_slots of them, and their table: per step s (fixing times
// t_0 = 0, ..., t_n), the entries (slot, a, c) of the inputs it moves. GBM's log spot
// moves by a + c z (a curve's pillar: the change of its weight in -log P over the
// step; a volatility node: -dv / 2 and dv / (2 sqrt(var)) for dv, d var / d sigma_node
// over the step). A local volatility's step moves it by a (a pillar: its carry, the
// grid held) or by d sigma / d quote at the path's spot times the step's d x / d sigma
// (a surface quote: c numbers its row of cells in `rows`, as market::cell_rows lays
// out a grid's; c is -1 for a pillar).
struct PathBuckets {
  std::vector<MarketInput> inputs;  // by slot
  std::vector<double> table;        // StepPath::bucket_data
  std::vector<double> discount;     // by slot: d(-log D(T)) / d input
  std::vector<double> rows;         // StepPath::bucket_rows: a local volatility's quote tangents
};
// Whether the job's buckets are scored on its path; if so, out gets them.
bool path_buckets(const OptionSpec& s, PathBuckets* out);
// The slots its kernel has: GBM's kPathBuckets, a local volatility's kLocalPathBuckets.
int path_bucket_slots(const OptionSpec& s);

// The rate, dividend and volatility to maturity that give the market's forward,
// discount and total variance (exact for a European's closed form).
void flat_equivalents(OptionSpec& s);

}  // namespace mcsim::option
