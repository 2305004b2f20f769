// Europeans and digitals on a spot paying cash dividends: the spot just after an
// ex-date is max(S e^{X} - D, 0), X normal, so the price is an integral over X of
// the price from there; after the last dividend, Black's formula.
#include <cmath>
#include <stdexcept>

#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"

namespace mcsim::option {

namespace {
// Normal draws beyond 8.5 sd weigh below 1e-16.
constexpr double kReach = 8.5;
constexpr int kPanels = 12;

// Black's formula, undiscounted, on forward f > 0 and total standard deviation sd.
double black(double f, double strike, double sd, double w, bool digital, double cash) {
  if (!(sd > 0)) {  // no variance left: the forward is the spot at expiry
    const double paid = w * (f - strike);
    return digital ? (paid > 0 ? cash : 0.0) : (paid > 0 ? paid : 0.0);
  }
  const double d1 = std::log(f / strike) / sd + 0.5 * sd, d2 = d1 - sd;
  return digital ? cash * normal_cdf(w * d2) : w * (f * normal_cdf(w * d1) - strike * normal_cdf(w * d2));
}

double value_from(double spot, double strike, bool call, const CashLeg* leg, const CashLeg* last, bool digital,
                  double cash) {
  const double w = call ? 1 : -1, sd = std::sqrt(leg->variance);
  if (leg == last) {
    // D paid at expiry: max(S - D, 0) - K > 0 iff S > K + D, so a call or either
    // digital is struck at K + D; the put pays (K + D - S)^+ - (D - S)^+.
    const double forward = spot * std::exp(leg->growth), d = leg->cash;
    if (!(forward > 0)) return leg->discount * (call ? 0.0 : digital ? cash : strike);
    double v = black(forward, strike + d, sd, w, digital, cash);
    if (!call && !digital && d > 0) v -= black(forward, d, sd, w, false, cash);
    return leg->discount * v;
  }
  const double drift = leg->growth - 0.5 * leg->variance;
  const double mean = integrate(-kReach, kReach, kPanels, [&](double z) {
    const double after = spot * std::exp(drift + sd * z) - leg->cash;
    return normal_pdf(z) * value_from(after > 0 ? after : 0.0, strike, call, leg + 1, last, digital, cash);
  });
  return leg->discount * mean;
}
}  // namespace

double cash_dividend_price(double spot, double strike, bool call, const std::vector<CashLeg>& legs, bool digital,
                           double cash) {
  if (legs.empty() || legs.size() > kCashDividendsMost + 1)
    throw std::invalid_argument("cash_dividend_price: 1 to kCashDividendsMost + 1 legs");
  return value_from(spot, strike, call, legs.data(), &legs.back(), digital, cash);
}

}  // namespace mcsim::option
