// Heston (1993) and Bates (1996) European prices: P_j = 1/2 + 1/pi int_0^inf
// Re[e^{-iu ln K} f_j(u) / (iu)] du, with f_2 the characteristic function of ln S_T
// and f_1(u) = f_2(u - i) / f_2(-i). Bates's jumps are independent of the diffusion,
// so their characteristic function multiplies Heston's.
#include <cmath>
#include <array>
#include <complex>

#include "models/option/analytic.hpp"
#include "models/option/quadrature.hpp"

namespace mcsim::option {

namespace {

using cd = std::complex<double>;

cd log_spot_cf(cd u, const HestonInput& in, const Jumps& jumps) {
  const cd i(0, 1);
  const double k = in.kappa, x2 = in.xi * in.xi;
  const cd b = k - in.rho * in.xi * i * u;
  const cd d = std::sqrt(b * b + x2 * (i * u + u * u));
  const cd g = (b - d) / (b + d);
  const cd e = std::exp(-d * in.maturity);
  const cd c = (in.rate - in.dividend) * i * u * in.maturity +
               k * in.theta / x2 * ((b - d) * in.maturity - 2.0 * std::log((1.0 - g * e) / (1.0 - g)));
  const cd dd = (b - d) / x2 * (1.0 - e) / (1.0 - g * e);
  // The jumps' exponent: lambda T (E[e^{iuJ}] - 1 - iu (E[e^J] - 1)); zero without jumps.
  const double lt = jumps.intensity * in.maturity;
  const cd jump = lt * (std::exp(i * u * jumps.mean - 0.5 * jumps.vol * jumps.vol * u * u) - 1.0 -
                        i * u * jumps.compensator());
  return std::exp(c + jump + dd * in.v0 + i * u * std::log(in.spot));
}

}  // namespace

double heston_price(const HestonInput& in) { return bates_price(in, Jumps{}); }

double bates_price(const HestonInput& in, const Jumps& jumps) {
  const cd i(0, 1);
  const double ln_k = std::log(in.strike);
  const cd forward = log_spot_cf(-i, in, jumps);  // E[S_T]
  const auto integrand = [&](double u) {
    const cd a = std::exp(-i * u * ln_k) / (i * u);
    return std::array<double, 2>{(a * log_spot_cf(u - i, in, jumps) / forward).real(), (a * log_spot_cf(u, in, jumps)).real()};
  };
  // Panels of width 1 up to where the characteristic function has died out.
  double p1 = 0, p2 = 0;
  constexpr double kUpper = 400.0;
  integrate_panels(0.0, kUpper, static_cast<int>(kUpper), integrand, [&](double w, const std::array<double, 2>& f) {
    p1 += w * f[0];
    p2 += w * f[1];
  });
  p1 = 0.5 + p1 / M_PI;
  p2 = 0.5 + p2 / M_PI;
  const double sf = in.spot * std::exp(-in.dividend * in.maturity), kf = in.strike * std::exp(-in.rate * in.maturity);
  const double call = sf * p1 - kf * p2;
  return in.call ? call : call - sf + kf;  // put-call parity
}

}  // namespace mcsim::option
