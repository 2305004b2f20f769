// Gauss-Legendre quadrature on panels: the numerical integrals behind the
// references that have no closed form (Heston, two-asset payoffs).
#pragma once

namespace mcsim::option {

// 16-point Gauss-Legendre nodes and weights on [-1, 1] (positive half).
constexpr double kGaussNodes[8] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274, 0.6178762444026438,
                                   0.7554044083550030, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499};
constexpr double kGaussWeights[8] = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025, 0.1495959888165767,
                                     0.1246289712555339, 0.0951585116824928, 0.0622535239386479, 0.0271524594117541};

// The integral of f over [lo, hi] in `panels` equal panels; f may return any type
// with + and scaling by double (a number, or an array-like of them via `add`).
template <class F, class Add>
void integrate_panels(double lo, double hi, int panels, F&& f, Add&& add) {
  const double width = (hi - lo) / panels, half = width / 2;
  for (int p = 0; p < panels; ++p) {
    const double mid = lo + (p + 0.5) * width;
    for (int j = 0; j < 8; ++j)
      for (double s : {-1.0, 1.0}) add(half * kGaussWeights[j], f(mid + s * half * kGaussNodes[j]));
  }
}

template <class F>
double integrate(double lo, double hi, int panels, F&& f) {
  double sum = 0;
  integrate_panels(lo, hi, panels, f, [&](double w, double v) { sum += w * v; });
  return sum;
}

}  // namespace mcsim::option
