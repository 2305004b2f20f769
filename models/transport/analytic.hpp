// Closed forms the transport model is checked against (validation/ and tests).
#pragma once
#include <vector>

#include "models/transport/transport_spec.hpp"

namespace mcsim::transport {

// The fraction of a normally incident beam that crosses a purely absorbing slab
// of thickness x uncollided: exp(-total x).
double uncollided_transmission(double total, double thickness);

// A beam entering at `source` with direction cosine mu > 0 through a slab of pure
// absorbers (planes[r], planes[r + 1]) of total cross section totals[r]: the scalar
// flux exp(-tau(x) / mu) / mu per source particle, tau the optical depth from the
// source, averaged over [lo, hi].
double uncollided_beam_flux(const std::vector<double>& planes, const std::vector<double>& totals, double source,
                            double mu, double lo, double hi);

// Infinite medium, one group: the scalar flux of a uniform isotropic source S per
// cm^3 per s is S / absorption, and k_inf = nu fission / absorption.
double infinite_medium_flux(double source, double absorption);

// Infinite medium, any groups: the flux per group of neutrons born with the
// spectrum `births` (per group, per unit volume and time).
std::vector<double> infinite_medium_spectrum(const Material& m, const std::vector<double>& births);

// Infinite medium, any groups: k_inf = (nu fission)^T (total - scatter^T)^-1 chi
// (every neutron is born with spectrum chi, so the operator has rank one).
double k_infinity(const Material& m);

// The one-group bare slab of Sood, Forster and Parsons (LA-13511, problem PUa-1-0-SL):
// nu = 3.24, fission 0.081600, capture 0.019584, scatter 0.225216, total 0.32640
// per cm, isotropic scattering, critical (k = 1) at this half-thickness in cm.
constexpr double kPuaCriticalHalfThickness = 1.853722;

}  // namespace mcsim::transport
