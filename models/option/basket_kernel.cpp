// A basket's path kernel from its spec: the plain one, the geometric control's, or
// the one of its size that scores its Greeks.
#include "models/option/basket_kernel.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcsim::option {

namespace {

BasketPayoff basket_payoff(BasketKind b) {
  switch (b) {
    case BasketKind::Average: return BasketPayoff::Average;
    case BasketKind::Max: return BasketPayoff::Max;
    case BasketKind::Min: return BasketPayoff::Min;
    default: return BasketPayoff::Spread;  // spread, and exchange: a spread struck at 0
  }
}

template <class Real, bool Control, int N = 0>
BasketPath<Real, Control, N> make_basket_path(const OptionSpec& s) {
  BasketPath<Real, Control, N> k{};
  const std::size_t n = s.assets.size();
  double total_weight = 0;
  for (double w : s.weights) total_weight += w;
  k.payoff = basket_payoff(s.basket);
  k.assets = static_cast<int>(n);
  const double root_t = std::sqrt(s.maturity);
  for (std::size_t a = 0; a < n; ++a) {
    const Asset& x = s.assets[a];
    k.log_forward[a] = static_cast<Real>(std::log(x.spot) +
                                         (s.rate - x.dividend - 0.5 * x.volatility * x.volatility) * s.maturity);
    k.weight[a] = static_cast<Real>(s.weights[a]);
    k.geometric_weight[a] = static_cast<Real>(s.weights[a] / total_weight);
    for (std::size_t b = 0; b <= a; ++b)
      k.factor[a][b] = static_cast<Real>(x.volatility * root_t * s.cholesky[a * n + b]);
  }
  k.total_weight = static_cast<Real>(total_weight);
  k.strike = static_cast<Real>(s.strike);
  k.sign = s.call ? Real(1) : Real(-1);
  k.discount = static_cast<Real>(std::exp(-s.rate * s.maturity));
  k.antithetic = s.antithetic;
  if constexpr (N != 0) {
    // A^-1 by forward substitution (A lower triangular, its pivots clear of zero:
    // basket_greeks_on_path), in double; the kernel takes its transpose.
    const auto factor = [&](std::size_t a, std::size_t b) { return s.assets[a].volatility * root_t * s.cholesky[a * n + b]; };
    std::vector<std::vector<double>> inverse(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i) {
      inverse[i][i] = 1 / factor(i, i);
      for (std::size_t j = 0; j < i; ++j) {
        double sum = 0;
        for (std::size_t m = j; m < i; ++m) sum += factor(i, m) * inverse[m][j];
        inverse[i][j] = -sum / factor(i, i);
      }
    }
    auto& g = k.greek;
    for (std::size_t a = 0; a < n; ++a) {
      const double vol = s.assets[a].volatility;
      g.inv_spot[a] = static_cast<Real>(1 / s.assets[a].spot);
      g.inv_vol[a] = static_cast<Real>(1 / vol);
      g.vol_t[a] = static_cast<Real>(vol * s.maturity);
      for (std::size_t b = 0; b < n; ++b) {
        g.score[a][b] = static_cast<Real>(b >= a ? inverse[b][a] : 0.0);
        g.covariance[a][b] = static_cast<Real>(vol * s.assets[b].volatility * s.maturity);
      }
    }
    g.maturity = static_cast<Real>(s.maturity);
  }
  return k;
}

// The Greek-scoring basket kernel of the job's size (2 .. kMaxPathGreekAssets assets).
template <class Real, int N = 2>
PathKernel basket_greek_kernel(const OptionSpec& s) {
  if constexpr (N > kMaxPathGreekAssets) {
    throw std::logic_error("no path-Greek kernel for a basket of " + std::to_string(s.assets.size()) + " assets");
  } else {
    if (s.assets.size() == static_cast<std::size_t>(N)) return PathKernel(make_basket_path<Real, false, N>(s));
    return basket_greek_kernel<Real, N + 1>(s);
  }
}

}  // namespace

bool basket_greeks_on_path(const OptionSpec& s) {
  const std::size_t n = s.assets.size();
  if (n < 2 || n > static_cast<std::size_t>(kMaxPathGreekAssets) || s.control_variate) return false;
  for (std::size_t a = 0; a < n; ++a)
    if (s.cholesky[a * n + a] < 1e-6 || s.assets[a].volatility <= 0) return false;
  return true;
}

PathKernel basket_kernel(const OptionSpec& s, Precision precision, bool greeks) {
  const bool f = precision == Precision::Float;
  if (greeks) return f ? basket_greek_kernel<float>(s) : basket_greek_kernel<double>(s);
  if (s.control_variate) return f ? PathKernel(make_basket_path<float, true>(s)) : PathKernel(make_basket_path<double, true>(s));
  return f ? PathKernel(make_basket_path<float, false>(s)) : PathKernel(make_basket_path<double, false>(s));
}

std::string correlation_greek(const OptionSpec& s, std::size_t a, std::size_t b) {
  return "correlation_" + s.assets[a].name + "_" + s.assets[b].name;
}

}  // namespace mcsim::option
