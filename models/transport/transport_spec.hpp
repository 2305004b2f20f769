// The particle-transport job as read from `model:` (type: transport): materials
// with one-group or multigroup macroscopic cross sections, the geometry that
// places them, the source, the tallies and the eigenvalue generations.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "models/transport/geometry/csg_geometry.hpp"

namespace mcsim::transport {

// Macroscopic cross sections (per cm) of G energy groups, fastest first.
struct Material {
  std::string name;
  int groups = 1;
  std::vector<double> total, capture, fission, nu, chi;  // per group
  std::vector<double> scatter;                           // G x G, row g to column g'
  double mean_cosine = 0;  // of scattering: linearly anisotropic, p(mu) = (1 + 3 mean mu) / 2
  double absorption(int g) const { return capture[static_cast<std::size_t>(g)] + fission[static_cast<std::size_t>(g)]; }
  double nu_fission(int g) const { return nu[static_cast<std::size_t>(g)] * fission[static_cast<std::size_t>(g)]; }
  double chi_cumulative(int g) const;  // chi of groups 0..g
  double scatter_out(int g) const;  // from group g to every group
  bool fissile() const;
};
// One entry of the model's `materials:` list, inline or from a library, its errors
// reported on `b` (material_config.cpp).
Material read_material(io::Block& b);

enum class Shape { Infinite, Slab, Sphere, Csg };
enum class Boundary { Vacuum, Reflective };

struct Geometry {
  Shape shape = Shape::Infinite;
  // Slab: the region boundaries, left to right; sphere: the region radii, inside out.
  std::vector<double> surfaces;
  Boundary left = Boundary::Vacuum, right = Boundary::Vacuum;  // a sphere's outer surface is `right`
  // Csg: the model, and the box that holds it (z from -+infinity to 0 for a 2-D
  // model: low z = high z = 0), which the geometry check, the default source and
  // the fission source's entropy mesh span. Its regions are the materials.
  std::shared_ptr<const geometry::Csg> csg;
  std::array<double, 3> low{}, high{};
  std::size_t regions() const;
};

// Where histories start in fixed-source mode: a beam (a point and a direction
// cosine) or isotropic emission from a point or uniformly from a region; in a CSG
// model from a point, a box or a cell, optionally where the material fissions.
struct Source {
  enum class Kind { Beam, Isotropic } kind = Kind::Beam;
  double position = 0;   // slab: x; sphere: r (a sphere's point source sits at its centre)
  double direction = 1;  // beam: the cosine with the x axis (slab) or the radius (sphere)
  int region = -1;       // isotropic: the region it fills, or -1 for the point
  int group = 0;         // the energy group it emits in
  // CSG: a point (low), or a box [low, high], or the cell `cell` within the box.
  bool box = false, fissionable_only = false;
  int cell = -1;
  std::array<double, 3> low{}, high{};
};

struct Tallies {
  bool transmission = false, reflection = false, absorption = false, leakage = false, collisions = false;
  int flux_bins = 0;  // the scalar flux on this many equal bins (track-length and collision estimators)
  std::vector<geometry::CsgTallySpec> csg;  // a CSG model's, by cell, material, lattice element or mesh
};

struct TransportSpec {
  bool eigenvalue = false;  // mode: eigenvalue (else fixed_source)
  std::vector<Material> materials;
  Geometry geometry;
  std::vector<int> region_material;  // per region, an index into materials
  int groups = 1;
  Source source;
  Tallies tallies;
  std::uint64_t inactive = 0, active = 0;  // eigenvalue generations
  bool implicit_capture = false;           // survival weights, Russian roulette below the cutoff
  double weight_cutoff = 0.25;
};

// Reads `materials`, `geometry` and `regions`, checks them (cross sections that
// do not add up, negative values, a spectrum that is not one, a region naming no
// material, ...), every error at its key and line. False after an error.
bool parse_materials_and_geometry(io::Block& model, TransportSpec& out);

// The whole block: mode, materials and geometry, source, tallies, eigenvalue
// generations and implicit capture. False after an error.
bool parse_transport_spec(io::Block& model, TransportSpec& out);

}  // namespace mcsim::transport
