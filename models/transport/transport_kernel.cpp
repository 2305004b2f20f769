#include "models/transport/transport_kernel.hpp"

#include <cmath>

namespace mcsim::transport {

template <class Real>
TransportArrays<Real> transport_arrays(const TransportSpec& s) {
  using View = TransportView<Real>;
  TransportArrays<Real> a;
  a.layers = layer_arrays<Real>(s);
  View& v = a.base;
  const Geometry& geo = s.geometry;
  v.sphere = geo.shape == Shape::Sphere;

  const Source& src = s.source;
  v.source_group = src.group;
  v.source_pos = static_cast<Real>(src.position);
  v.source_mu = static_cast<Real>(src.direction);
  v.source_kind = src.kind == Source::Kind::Beam ? View::Beam : src.region < 0 || geo.shape == Shape::Infinite ? View::Point : View::Volume;
  if (v.source_kind == View::Volume) {
    const auto r = static_cast<std::size_t>(src.region);
    v.source_low = static_cast<Real>(v.sphere ? (r == 0 ? 0.0 : geo.surfaces[r - 1]) : geo.surfaces[r]);
    v.source_high = static_cast<Real>(v.sphere ? geo.surfaces[r] : geo.surfaces[r + 1]);
  }

  v.bins = s.tallies.flux_bins;
  if (v.bins > 0 && geo.shape != Shape::Infinite) {
    const double low = v.sphere ? 0.0 : geo.surfaces.front(), high = geo.surfaces.back();
    v.mesh_low = static_cast<Real>(low);
    v.mesh_width = static_cast<Real>((high - low) / v.bins);
    v.mesh_inv_width = static_cast<Real>(v.bins / (high - low));
  }

  v.csg = geo.shape == Shape::Csg;
  if (v.csg) {
    a.model = geo.csg->arrays<Real>();
    a.tallies = geometry::csg_tally_arrays<Real>(s.tallies.csg, s, *geo.csg, slot::Scalars);
    v.csg_slots = a.tallies.slots - slot::Scalars;
    auto& c = v.csg_source;
    using CsgSource = geometry::CsgSource<Real>;
    c.kind = src.cell >= 0 ? CsgSource::Cell : src.box ? CsgSource::Box : CsgSource::Point;
    c.low = {static_cast<Real>(src.low[0]), static_cast<Real>(src.low[1]), static_cast<Real>(src.low[2])};
    c.high = {static_cast<Real>(src.high[0]), static_cast<Real>(src.high[1]), static_cast<Real>(src.high[2])};
    c.group = src.group, c.cell = src.cell, c.fissionable_only = src.fissionable_only, c.groups = s.groups;
  }

  v.eigenvalue = s.eigenvalue;
  for (const int m : s.region_material) {
    const Material& mat = s.materials[static_cast<std::size_t>(m)];
    for (int g = 0; g < mat.groups; ++g) {
      a.nu_fission.push_back(static_cast<Real>(mat.nu_fission(g)));
      a.absorption.push_back(static_cast<Real>(mat.absorption(g)));
      a.chi_cumulative.push_back(static_cast<Real>(mat.chi_cumulative(g)));
    }
  }
  return a;
}

template TransportArrays<float> transport_arrays<float>(const TransportSpec&);
template TransportArrays<double> transport_arrays<double>(const TransportSpec&);

}  // namespace mcsim::transport
