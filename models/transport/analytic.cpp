#include "models/transport/analytic.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mcsim::transport {

double uncollided_transmission(double total, double thickness) { return std::exp(-total * thickness); }

double uncollided_beam_flux(const std::vector<double>& planes, const std::vector<double>& totals, double source,
                            double mu, double lo, double hi) {
  double depth = 0, integral = 0;  // optical depth at the region's left end (or the source)
  for (std::size_t r = 0; r + 1 < planes.size(); ++r) {
    const double a = std::max(planes[r], source), b = planes[r + 1], t = totals[r];
    if (b <= a) continue;
    // The part of [lo, hi] in this region: the integral of exp(-(depth + t (x - a)) / mu) / mu.
    const double x0 = std::max(a, lo), x1 = std::min(b, hi);
    if (x1 > x0) {
      const double at = depth + t * (x0 - a);
      integral += t > 0 ? (std::exp(-at / mu) - std::exp(-(at + t * (x1 - x0)) / mu)) / t
                        : std::exp(-at / mu) * (x1 - x0) / mu;
    }
    depth += t * (b - a);
  }
  return integral / (hi - lo);
}

double infinite_medium_flux(double source, double absorption) { return source / absorption; }

std::vector<double> infinite_medium_spectrum(const Material& m, const std::vector<double>& births) {
  // The flux solves (total - scatter^T) phi = births.
  const int G = m.groups;
  const auto at = [&](int g, int h) { return m.scatter[static_cast<std::size_t>(g * G + h)]; };
  // A = total - scatter^T, solved by Gaussian elimination (G is small).
  std::vector<double> a(static_cast<std::size_t>(G * G));
  for (int i = 0; i < G; ++i)
    for (int j = 0; j < G; ++j) a[static_cast<std::size_t>(i * G + j)] = (i == j ? m.total[static_cast<std::size_t>(i)] : 0.0) - at(j, i);
  const auto solve = [&](std::vector<double> b) {
    std::vector<double> lu = a;
    for (int c = 0; c < G; ++c) {
      int pivot = c;
      for (int r = c + 1; r < G; ++r)
        if (std::fabs(lu[static_cast<std::size_t>(r * G + c)]) > std::fabs(lu[static_cast<std::size_t>(pivot * G + c)])) pivot = r;
      if (lu[static_cast<std::size_t>(pivot * G + c)] == 0) throw std::invalid_argument("infinite medium: a group with no way out (no absorption)");
      for (int j = 0; j < G; ++j) std::swap(lu[static_cast<std::size_t>(c * G + j)], lu[static_cast<std::size_t>(pivot * G + j)]);
      std::swap(b[static_cast<std::size_t>(c)], b[static_cast<std::size_t>(pivot)]);
      for (int r = c + 1; r < G; ++r) {
        const double f = lu[static_cast<std::size_t>(r * G + c)] / lu[static_cast<std::size_t>(c * G + c)];
        for (int j = c; j < G; ++j) lu[static_cast<std::size_t>(r * G + j)] -= f * lu[static_cast<std::size_t>(c * G + j)];
        b[static_cast<std::size_t>(r)] -= f * b[static_cast<std::size_t>(c)];
      }
    }
    std::vector<double> x(static_cast<std::size_t>(G));
    for (int r = G - 1; r >= 0; --r) {
      double v = b[static_cast<std::size_t>(r)];
      for (int j = r + 1; j < G; ++j) v -= lu[static_cast<std::size_t>(r * G + j)] * x[static_cast<std::size_t>(j)];
      x[static_cast<std::size_t>(r)] = v / lu[static_cast<std::size_t>(r * G + r)];
    }
    return x;
  };
  return solve(births);
}

double k_infinity(const Material& m) {
  // Every neutron is born with spectrum chi, and k is the neutrons its flux breeds.
  const std::vector<double> phi = infinite_medium_spectrum(m, m.chi);
  const int G = m.groups;
  double born = 0;
  for (int g = 0; g < G; ++g)
    born += m.nu[static_cast<std::size_t>(g)] * m.fission[static_cast<std::size_t>(g)] * phi[static_cast<std::size_t>(g)];
  return born;
}

}  // namespace mcsim::transport
