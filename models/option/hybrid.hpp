// A stock beside a Hull-White short rate, and autocallables (HybridPath): their
// config keys, the path's step grid and per-step table, and the kernel.
#pragma once
#include <cstdint>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/option/hybrid_path.hpp"
#include "models/option/option_model.hpp"
#include "models/rates/hull_white.hpp"

namespace mcsim::option {

// model.process.short_rate: { a, sigma, correlation } on gbm or heston.
void parse_short_rate(io::Block& process, OptionSpec& s);
// An autocallable's observations, coupon, barriers and memory.
void parse_autocallable(io::Block& inst, OptionSpec& s);
// The errors of a hybrid job's combination of process, instrument and variance reduction.
void check_hybrid(io::Block& model, io::Block& inst, const OptionSpec& s);
const std::vector<io::KeySchema>& hybrid_keys();

// The short rate of a hybrid job: fitted to the discount curve, with no volatility
// (deterministic rates) without process.short_rate.
rates::HullWhite hull_white_of(const OptionSpec& s);
// The path's step ends: each interval between observations (a European's one: its
// maturity) cut into equal steps of at most maturity / steps.
std::vector<double> hybrid_step_times(const OptionSpec& s);
// HybridPath's per-step table on those steps.
TableData hybrid_table(const OptionSpec& s, const std::vector<double>& times);
// Whether its paths can score delta and gamma (HybridPath with Greeks): the first
// step's log spot has a deviation of its own, apart from the rates' normals.
bool hybrid_greeks_on_path(const OptionSpec& s);
// With Greeks, the scores' baseline is the price on paths of `seed`'s regression
// streams, walked in double on the host.
template <class Real, int Copies, bool Heston, bool Greeks>
HybridPath<Real, Copies, Heston, Greeks> make_hybrid_path(const OptionSpec& s, const StepTables& t, std::uint64_t seed);

}  // namespace mcsim::option
