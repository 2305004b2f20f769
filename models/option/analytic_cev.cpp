// The constant elasticity of variance model's European price (Cox 1975, Schroder
// 1989): dS = (r - q) S dt + sigma S^beta dW, 0 < beta < 1, absorbed at zero. With
// F = S e^{(r-q)T}, the forward is a CEV process with a time-dependent scale, and
// the price is a pair of noncentral chi-square distribution functions.
#include <cmath>

#include "models/option/analytic.hpp"

namespace mcsim::option {

namespace {

// The regularised lower incomplete gamma function P(a, x): its series below a + 1,
// else one minus the continued fraction of Q (Lentz).
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 10000 && std::fabs(term) > 1e-17 * std::fabs(sum); ++n) sum += term *= x / (a + n);
    return sum * std::exp(log_front);
  }
  constexpr double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::fabs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_front) * h;
}

// P(X <= x) for X noncentral chi-square with k degrees of freedom and
// noncentrality lambda: the Poisson(lambda / 2) mixture of central ones, summed
// outward from the mixture's mode until the weights are negligible.
double noncentral_chi2_cdf(double x, double k, double lambda) {
  const double h = 0.5 * lambda;
  const long mode = static_cast<long>(std::floor(h));
  const auto weight = [&](long j) { return std::exp(-h + j * std::log(h > 0 ? h : 1) - std::lgamma(j + 1.0)); };
  double total = 0;
  for (long j = mode; j >= 0; --j) {
    const double w = h > 0 ? weight(j) : (j == 0 ? 1.0 : 0.0);
    total += w * gamma_p(0.5 * k + j, 0.5 * x);
    if (w < 1e-18 && j < mode) break;
  }
  for (long j = mode + 1; h > 0; ++j) {
    const double w = weight(j);
    total += w * gamma_p(0.5 * k + j, 0.5 * x);
    if (w < 1e-18) break;
  }
  return total;
}

}  // namespace

double cev_price(const CevInput& in) {
  if (in.beta >= 1) return bsm_price({in.spot, in.strike, in.rate, in.dividend, in.sigma, in.maturity, in.call});
  const double mu = in.rate - in.dividend, c = 1 - in.beta, t = in.maturity;
  const double forward = in.spot * std::exp(mu * t), discount = std::exp(-in.rate * t);
  // The forward's CEV scale: c^2 sigma^2 int_0^T e^{2 mu c (T - s)} ds.
  const double growth = 2 * mu * c * t;
  const double scale = c * c * in.sigma * in.sigma * (std::fabs(growth) < 1e-12 ? t : std::expm1(growth) / (2 * mu * c));
  const double k = std::pow(in.strike, 2 * c) / scale, f = std::pow(forward, 2 * c) / scale, dof = 1 / c;
  const double call = discount * (forward * (1 - noncentral_chi2_cdf(k, dof + 2, f)) - in.strike * noncentral_chi2_cdf(f, dof, k));
  return in.call ? call : call - discount * (forward - in.strike);
}

}  // namespace mcsim::option
