// The reference for American and Bermudan options: a Cox-Ross-Rubinstein tree.
#include <algorithm>
#include <cmath>
#include <vector>

#include "models/option/analytic.hpp"

namespace mcsim::option {

double binomial_price(const BsmInput& in, int steps, bool american, int exercise_dates) {
  const int every = american && exercise_dates > 0 ? steps / exercise_dates : 1;
  const double dt = in.maturity / steps;
  const double up = std::exp(in.volatility * std::sqrt(dt)), down = 1 / up;
  const double grow = std::exp((in.rate - in.dividend) * dt), df = std::exp(-in.rate * dt);
  const double p = (grow - down) / (up - down);
  const double w = in.call ? 1.0 : -1.0;
  std::vector<double> v(static_cast<std::size_t>(steps) + 1);
  for (int j = 0; j <= steps; ++j)
    v[j] = std::max(0.0, w * (in.spot * std::pow(up, 2 * j - steps) - in.strike));
  for (int n = steps - 1; n >= 0; --n)
    for (int j = 0; j <= n; ++j) {
      const double cont = df * (p * v[j + 1] + (1 - p) * v[j]);
      const bool may_exercise = american && n > 0 && n % every == 0;
      v[j] = may_exercise ? std::max(cont, w * (in.spot * std::pow(up, 2 * j - n) - in.strike)) : cont;
    }
  return v[0];
}

}  // namespace mcsim::option
