// A constructive-solid-geometry model as a config describes it, by names: surfaces
// with their boundary conditions, cells (a region over the surfaces' half-spaces,
// in OpenMC's syntax, and a fill), the universes the cells make up and rectangular
// or hexagonal lattices of universes. Built, it checks every name and cycle and flattens into
// the arrays CsgView reads on host or device; check_geometry samples points for
// overlaps and holes.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/transport/geometry/csg.hpp"

namespace mcsim::transport::geometry {

struct SurfaceSpec {
  std::string name;
  SurfaceKind kind = SurfaceKind::XPlane;
  std::array<double, kSurfaceCoefficients> c{};
  SurfaceBoundary boundary = SurfaceBoundary::Transmission;
  std::string periodic_partner;  // for Periodic: the plane a particle reappears on
};

struct CellSpec {
  std::string name;
  std::string universe = "root";  // the universe the cell belongs to
  std::string region;             // e.g. "-fuel | (+clad -water) ~(+a -b)"; empty: everywhere
  Fill fill_kind = Fill::Material;
  std::string fill;               // a material, universe or lattice name
  std::array<double, 3> translation{};
};

struct LatticeSpec {
  std::string name;
  LatticeKind kind = LatticeKind::Rectangular;
  std::array<double, 3> lower_left{}, pitch{};  // hexagonal: the centre (and lowest z), and the pitch first (and z)
  std::array<int, 3> shape{1, 1, 1};  // nx, ny, nz (nz = 1: infinite in z); hexagonal: 2n - 1, 2n - 1, layers
  // Rectangular: nx ny nz universe names, as OpenMC writes them: each z layer from
  // the lowest, its rows from the top (highest y) down, each row from the lowest x.
  // Hexagonal: in CsgView's order (axial i fastest), "" beyond the last ring.
  std::vector<std::string> universes;
  std::string outer;  // the universe outside the elements; empty: none (a point there is lost)
};

struct CsgSpec {
  std::vector<SurfaceSpec> surfaces;
  std::vector<CellSpec> cells;
  std::vector<LatticeSpec> lattices;
};

// The tallies a job asks for, by filter (a Lattice filter names its lattice, a
// Mesh filter its box and shape).
enum class TallyFilter : int { Cell, Material, Lattice, Mesh };
struct CsgTallySpec {
  std::string name;
  TallyFilter filter = TallyFilter::Material;
  int lattice = -1;
  std::array<double, 3> low{}, high{};
  std::array<int, 3> shape{1, 1, 1};  // nz = 1 with low z = high z: a 2-D mesh, unbounded in z
};

// One block of reals and one of ints, so a device copy is two transfers.
template <class Real>
struct CsgArrays {
  int surfaces = 0, cells = 0, universes = 0, lattices = 0, root = 0;
  int region_tokens = 0, universe_cells = 0, lattice_universes = 0;
  std::vector<Real> reals;
  std::vector<int> ints;
  CsgView<Real> view(const Real* r, const int* i) const;
  CsgView<Real> host_view() const { return view(reals.data(), ints.data()); }
};

class Csg {
 public:
  // Throws std::invalid_argument naming the surface, cell or lattice at fault.
  Csg(CsgSpec spec, const std::vector<std::string>& materials);
  const CsgSpec& spec() const { return spec_; }
  const std::vector<std::string>& universe_names() const { return universes_; }
  int materials() const { return materials_; }  // the job's, which cells name
  template <class Real>
  CsgArrays<Real> arrays() const;

 private:
  CsgSpec spec_;
  int materials_;
  std::vector<std::string> universes_;  // "root" first
  std::vector<int> surface_kind_, surface_boundary_, periodic_partner_, region_begin_, region_tokens_, fill_kind_, fill_, universe_begin_, universe_cells_;
  std::vector<int> lattice_kind_, lattice_shape_, lattice_begin_, lattice_universes_, lattice_outer_;
};

// A region string in postfix tokens over the named surfaces (see RegionOp).
// Throws std::invalid_argument naming the column of the fault.
std::vector<int> parse_region(const std::string& region, const std::vector<std::string>& surface_names);

// What sampling found: nothing, a point in no cell of some filled universe it
// reaches (a hole), or in several cells of one universe (an overlap), with the
// cells' names. A point in no cell of the root universe is outside the model: the
// box sampled may reach past it, and a history there is counted lost.
struct GeometryProblem {
  enum Kind { None, Hole, Overlap } kind = None;
  std::array<double, 3> point{};
  std::string universe;
  std::vector<std::string> cells;
  std::string message() const;
};
// `samples` points uniform in the box [low, high], a fixed sequence from `seed`.
GeometryProblem check_geometry(const Csg& csg, std::array<double, 3> low, std::array<double, 3> high,
                               std::uint64_t samples, std::uint64_t seed = 1);

}  // namespace mcsim::transport::geometry
