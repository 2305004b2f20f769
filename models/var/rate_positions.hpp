// Bonds, caps, floors and swaptions in a risk book, on a short-rate factor: their
// cash flows and options as the rates family dates them (rate_products.hpp), and
// their legs at a time (rate_legs.hpp), from which today's value and every
// scenario's revaluation come.
#pragma once
#include <string>
#include <vector>

#include "models/rates/rate_products.hpp"
#include "models/var/var_spec.hpp"

namespace mcsim::var {

std::vector<rates::RateEvent> rate_events(const Position& p);
// kLegTerms reals a leg, valued `elapsed` years from today (before every option's expiry).
std::vector<double> rate_legs(const rates::HullWhite& m, const Position& p, double elapsed);
// One unit of the legs' value at state x.
double legs_value(const std::vector<double>& legs, double x);
// `quantity` units `elapsed` years from today at the factor's state x.
double rate_value(const rates::HullWhite& m, const Position& p, double elapsed, double x);
// The Hull-White model of position p's factor.
const rates::HullWhite& short_rate_of(const VarSpec& s, const Position& p);

}  // namespace mcsim::var
