#include "models/var/analytic.hpp"

#include <cmath>
#include <stdexcept>

#include "models/option/analytic.hpp"  // normal_pdf
#include "rng/sobol.hpp"             // inverse_normal

namespace mcsim::var {

namespace {

constexpr double kPi = 3.141592653589793;

// The regularized incomplete beta I_x(a, b) by its continued fraction (modified
// Lentz), on the side where it converges fast.
double incomplete_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incomplete_beta(1 - x, b, a);
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                                b * std::log1p(-x)) / a;
  constexpr double kTiny = 1e-300;
  double f = 1, c = 1, d = 0;
  for (int i = 0; i <= 400; ++i) {
    const int m = i / 2;
    double numerator;
    if (i == 0) numerator = 1;
    else if (i % 2 == 0) numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    else numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
    c = 1 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    const double step = c * d;
    f *= step;
    if (std::fabs(step - 1) < 1e-15) return front * (f - 1);
  }
  throw std::runtime_error("incomplete beta: no convergence");
}

double student_t_density(double x, double dof) {
  return std::exp(std::lgamma((dof + 1) / 2) - std::lgamma(dof / 2) - 0.5 * std::log(dof * kPi) -
                  (dof + 1) / 2 * std::log1p(x * x / dof));
}

}  // namespace

double student_t_cdf(double x, double dof) {
  const double tail = 0.5 * incomplete_beta(dof / (dof + x * x), dof / 2, 0.5);  // P(T > |x|)
  return x >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double dof) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("student_t_quantile: p must be in (0, 1)");
  if (p > 0.5) return -student_t_quantile(1 - p, dof);
  // Bracket, bisect, then polish by Newton on the lower tail.
  double lo = -1, hi = 0;
  while (student_t_cdf(lo, dof) > p) hi = lo, lo *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-10 * (1 + std::fabs(lo)); ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, dof) > p ? hi : lo) = mid;
  }
  double x = 0.5 * (lo + hi);
  for (int i = 0; i < 3; ++i) x -= (student_t_cdf(x, dof) - p) / student_t_density(x, dof);
  return x;
}

TailRisk normal_tail(double mean, double sd, double alpha) {
  const double z = rng::inverse_normal(alpha);
  return {mean + sd * z, mean + sd * option::normal_pdf(z) / (1 - alpha)};
}

TailRisk student_t_tail(double mean, double sd, double dof, double alpha) {
  if (!(dof > 2)) throw std::invalid_argument("student_t_tail: a unit-variance t needs dof > 2");
  const double scale = std::sqrt((dof - 2) / dof);  // a t of dof has variance dof / (dof - 2)
  const double t = student_t_quantile(alpha, dof);
  // E[T | T > t] = f(t) (dof + t^2) / ((dof - 1) (1 - alpha)).
  const double tail_mean = student_t_density(t, dof) * (dof + t * t) / ((dof - 1) * (1 - alpha));
  return {mean + sd * scale * t, mean + sd * scale * tail_mean};
}

}  // namespace mcsim::var
