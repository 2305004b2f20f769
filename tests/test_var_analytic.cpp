// The closed forms of portfolio risk: Student-t distribution and quantile against
// published tables, and VaR / ES of linear losses against integration.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/var/analytic.hpp"

using namespace mcsim;

TEST_CASE("Student-t quantiles match published tables", "[var][analytic]") {
  // Two-sided tables' upper quantiles (e.g. Abramowitz-Stegun table 26.10).
  CHECK(var::student_t_quantile(0.975, 10) == Approx(2.228138852).epsilon(1e-9));
  CHECK(var::student_t_quantile(0.99, 5) == Approx(3.364929997).epsilon(1e-9));
  CHECK(var::student_t_quantile(0.95, 3) == Approx(2.353363435).epsilon(1e-9));
  CHECK(var::student_t_quantile(0.999, 4) == Approx(7.173182200).epsilon(1e-8));
  CHECK(var::student_t_quantile(0.75, 1) == Approx(1.0).epsilon(1e-12));  // Cauchy: tan(pi/4)
  CHECK(var::student_t_quantile(0.01, 5) == Approx(-3.364929997).epsilon(1e-9));
  // Many degrees of freedom: the normal quantile.
  CHECK(var::student_t_quantile(0.99, 1e7) == Approx(2.326347874).epsilon(1e-6));
  for (double p : {1e-6, 0.02, 0.3, 0.5, 0.8, 0.999999})
    for (double dof : {2.5, 4.0, 30.0}) {
      INFO(p << " " << dof);
      CHECK(var::student_t_cdf(var::student_t_quantile(p, dof), dof) == Approx(p).epsilon(1e-12));
    }
  // The two-degree-of-freedom t has a closed form: F(x) = 1/2 + x / (2 sqrt(2 + x^2)).
  CHECK(var::student_t_cdf(1.7, 2) == Approx(0.5 + 1.7 / (2 * std::sqrt(2 + 1.7 * 1.7))).epsilon(1e-13));
}

namespace {
// E[X | X > q] for a density by Simpson's rule on [q, q + 4000] (a t of 4 degrees
// of freedom leaves about 1e-9 of it beyond), as a check.
template <class Density>
double tail_mean(Density f, double q, double alpha) {
  const int n = 4000000;
  const double h = 4000.0 / n;
  double s = 0;
  for (int i = 0; i <= n; ++i) {
    const double x = q + i * h, w = i == 0 || i == n ? 1 : i % 2 ? 4 : 2;
    s += w * x * f(x);
  }
  return s * h / 3 / (1 - alpha);
}
}  // namespace

TEST_CASE("VaR and ES of linear losses: the normal and the unit-variance Student-t", "[var][analytic]") {
  const auto n = var::normal_tail(1.5, 2.0, 0.99);
  CHECK(n.var == Approx(1.5 + 2.0 * 2.326347874).epsilon(1e-9));
  CHECK(n.es == Approx(1.5 + 2.0 * 2.665214220).epsilon(1e-8));  // phi(z) / 0.01
  const double dof = 4, alpha = 0.975;
  const auto t = var::student_t_tail(0.0, 1.0, dof, alpha);
  const double scale = std::sqrt((dof - 2) / dof);
  CHECK(t.var == Approx(scale * var::student_t_quantile(alpha, dof)).epsilon(1e-12));
  const double norm = std::tgamma((dof + 1) / 2) / (std::sqrt(dof * M_PI) * std::tgamma(dof / 2));
  const auto density = [&](double x) { return norm * std::pow(1 + x * x / dof, -(dof + 1) / 2); };
  CHECK(t.es == Approx(scale * tail_mean(density, var::student_t_quantile(alpha, dof), alpha)).epsilon(1e-8));
  // Heavier tails: at 99.9% the t's ES exceeds the normal's of the same variance.
  CHECK(var::student_t_tail(0, 1, 4, 0.999).es > var::normal_tail(0, 1, 0.999).es);
}
