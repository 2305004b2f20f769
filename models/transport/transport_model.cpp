#include "models/transport/transport_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "models/transport/analytic.hpp"

namespace mcsim::transport {

std::vector<std::string> TransportModel::outputs() const {
  std::vector<std::string> out;
  if (spec_.eigenvalue) out = {"k_eff", "k_collision", "k_absorption", "k_track"};
  const Tallies& t = spec_.tallies;
  if (t.transmission) out.push_back("transmission");
  if (t.reflection) out.push_back("reflection");
  if (t.absorption) out.push_back("absorption");
  if (t.leakage) out.push_back("leakage");
  if (t.collisions) out.push_back("collisions");
  if (t.flux_bins) out.insert(out.end(), {"flux", "flux_collision"});
  return out;
}

std::vector<Reference> TransportModel::references() const {
  std::vector<Reference> refs;
  const auto wanted = outputs();
  const auto add = [&](const std::string& name, double value) {
    for (const auto& w : wanted)
      if (w == name) refs.push_back({name, value});
  };
  const Source& src = spec_.source;
  const Geometry& geo = spec_.geometry;
  const auto& mats = spec_.materials;

  // One material everywhere, and no way out: an infinite medium.
  std::vector<int> used = spec_.region_material;  // a CSG model's: the materials its cells name
  bool closed = geo.shape == Shape::Infinite ||
                (geo.right == Boundary::Reflective && (geo.shape == Shape::Sphere || geo.left == Boundary::Reflective));
  if (geo.csg) {
    used.clear();
    for (const auto& cell : geo.csg->spec().cells)
      for (std::size_t m = 0; m < mats.size(); ++m)
        if (cell.fill_kind == geometry::Fill::Material && cell.fill == mats[m].name) used.push_back(static_cast<int>(m));
    closed = true;
    for (const auto& surface : geo.csg->spec().surfaces) closed = closed && surface.boundary != geometry::SurfaceBoundary::Vacuum;
  }
  bool one_material = !used.empty();
  for (const int m : used) one_material = one_material && m == used.front();
  if (one_material && closed) {
    const Material& m = mats[static_cast<std::size_t>(used.front())];
    if (spec_.eigenvalue) {
      const double k = k_infinity(m);
      for (const char* name : {"k_eff", "k_collision", "k_absorption", "k_track"}) add(name, k);
    } else {
      std::vector<double> births(static_cast<std::size_t>(m.groups), 0.0);
      births[static_cast<std::size_t>(src.group)] = 1;
      const std::vector<double> phi = infinite_medium_spectrum(m, births);
      double flux = 0, collisions = 0;
      for (int g = 0; g < m.groups; ++g)
        flux += phi[static_cast<std::size_t>(g)], collisions += m.total[static_cast<std::size_t>(g)] * phi[static_cast<std::size_t>(g)];
      add("flux", flux);
      add("flux_collision", flux);
      add("collisions", collisions);
    }
  }

  // A beam through pure absorbers: what crosses, crosses uncollided.
  if (absorber_beam()) {
    double depth = 0;  // optical depth from the source to the right plane along x
    for (std::size_t r = 0; r + 1 < geo.surfaces.size(); ++r) {
      const double lo = std::max(geo.surfaces[r], src.position), hi = geo.surfaces[r + 1];
      const Material& m = mats[static_cast<std::size_t>(spec_.region_material[r])];
      if (hi > lo) depth += m.total[static_cast<std::size_t>(src.group)] * (hi - lo);
    }
    const double t = uncollided_transmission(1.0, depth / src.direction);
    add("transmission", t);
    if (geo.right == Boundary::Vacuum) add("absorption", 1 - t);
  }
  return refs;
}

bool TransportModel::absorber_beam() const {
  bool absorbers = true;
  for (const int m : spec_.region_material)
    for (int g = 0; g < spec_.groups; ++g) absorbers = absorbers && spec_.materials[static_cast<std::size_t>(m)].scatter_out(g) == 0;
  const Source& src = spec_.source;
  return !spec_.eigenvalue && absorbers && spec_.geometry.shape == Shape::Slab && src.kind == Source::Kind::Beam &&
         src.direction > 0;
}

double TransportModel::flux_reference(double lo, double hi, int group) const {
  if (!absorber_beam()) return NAN;
  const Source& src = spec_.source;
  if (group != src.group) return 0;  // nothing scatters into another group
  std::vector<double> totals;
  for (const int m : spec_.region_material) totals.push_back(spec_.materials[static_cast<std::size_t>(m)].total[static_cast<std::size_t>(group)]);
  return uncollided_beam_flux(spec_.geometry.surfaces, totals, src.position, src.direction, lo, hi);
}

// k_eff's error is from its generations' spread; k's estimators and the tallies
// count histories, and the tallies are per source particle.
EstimateInfo TransportModel::describe_estimate(const std::string& name) const {
  if (name == "k_eff") return {"generations", ""};
  if (name.rfind("k_", 0) == 0) return {"histories", ""};
  if (name == "flux" || name == "flux_collision") return {"histories", "cm per source particle"};
  return {"histories", "per source particle"};
}

std::string TransportModel::describe() const {
  const Geometry& g = spec_.geometry;
  const char* shape = g.shape == Shape::Slab ? "slab" : g.shape == Shape::Sphere ? "sphere" : "infinite medium";
  const char* mode = spec_.eigenvalue ? "eigenvalue" : "fixed source";
  std::string what = g.csg ? fmt::format("transport {}, csg of {} cells and {} lattice(s), {} material(s), {} group(s)", mode,
                                         g.csg->spec().cells.size(), g.csg->spec().lattices.size(), spec_.materials.size(), spec_.groups)
                           : fmt::format("transport {}, {} {} region(s), {} group(s)", mode, shape, g.regions(), spec_.groups);
  if (spec_.eigenvalue) what += fmt::format(", {} inactive + {} active generations", spec_.inactive, spec_.active);
  if (spec_.implicit_capture) what += ", implicit capture";
  return what;
}

TransportKernel TransportModel::transport_kernel(Precision precision, std::uint64_t seed) const {
  TransportKernel k;
  k.precision = precision;
  k.seed = seed;
  k.id = new_kernel_id();
  k.in_float = transport_arrays<float>(spec_);
  k.in_double = transport_arrays<double>(spec_);
  return k;
}

std::unique_ptr<Model> parse_transport_model(io::Block& model) {
  TransportSpec s;
  if (!parse_transport_spec(model, s)) return nullptr;
  return std::make_unique<TransportModel>(std::move(s));
}

}  // namespace mcsim::transport
