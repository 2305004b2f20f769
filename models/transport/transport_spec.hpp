// The particle-transport job as read from `model:` (type: transport): materials
// with one-group or multigroup macroscopic cross sections, and the geometry that
// places them. (The transport kernels that run it are still to come.)
#pragma once
#include <string>
#include <vector>

#include "io/block.hpp"

namespace mcsim::transport {

// Macroscopic cross sections (per cm) of G energy groups, fastest first.
struct Material {
  std::string name;
  int groups = 1;
  std::vector<double> total, capture, fission, nu, chi;  // per group
  std::vector<double> scatter;                           // G x G, row g to column g'
  double mean_cosine = 0;  // of scattering: linearly anisotropic, p(mu) = (1 + 3 mean mu) / 2
  double absorption(int g) const { return capture[static_cast<std::size_t>(g)] + fission[static_cast<std::size_t>(g)]; }
  double scatter_out(int g) const;  // from group g to every group
  bool fissile() const;
};

enum class Shape { Infinite, Slab, Sphere };
enum class Boundary { Vacuum, Reflective };

struct Geometry {
  Shape shape = Shape::Infinite;
  // Slab: the region boundaries, left to right; sphere: the region radii, inside out.
  std::vector<double> surfaces;
  Boundary left = Boundary::Vacuum, right = Boundary::Vacuum;  // a sphere's outer surface is `right`
  std::size_t regions() const;
};

struct TransportSpec {
  std::vector<Material> materials;
  Geometry geometry;
  std::vector<int> region_material;  // per region, an index into materials
  int groups = 1;
};

// Reads `materials`, `geometry` and `regions`, checks them (cross sections that
// do not add up, negative values, a spectrum that is not one, a region naming no
// material, ...), every error at its key and line. False after an error.
bool parse_materials_and_geometry(io::Block& model, TransportSpec& out);

}  // namespace mcsim::transport
