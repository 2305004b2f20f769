#include "models/transport/geometry/csg_config.hpp"

#include <fmt/format.h>

namespace mcsim::transport::geometry {

namespace {

// OpenMC's surface names, in SurfaceKind's order, and their coefficients.
const std::vector<std::string> kKinds{"x-plane",    "y-plane",    "z-plane", "plane",  "x-cylinder",
                                      "y-cylinder", "z-cylinder", "sphere",  "quadric"};
const char* const kCoefficients[] = {"x0",       "y0",       "z0",          "a b c d (a x + b y + c z = d)",
                                     "y0 z0 r",  "x0 z0 r",  "x0 y0 r",     "x0 y0 z0 r",
                                     "a b c d e f g h j k (a x^2 + b y^2 + c z^2 + d xy + e yz + f xz + g x + h y + j z + k)"};
const int kCounts[] = {1, 1, 1, 4, 3, 3, 3, 4, 10};

SurfaceSpec read_surface(io::Block& b) {
  SurfaceSpec s;
  s.name = b.text("name", std::nullopt);
  s.kind = b.choice_of<SurfaceKind>("type", kKinds, std::nullopt);
  const auto k = static_cast<std::size_t>(s.kind);
  b.schema_note("coefficients", "-", "by type: planes x0, y0, z0 or a b c d; cylinders y0 z0 r, x0 z0 r, x0 y0 r; "
                                     "sphere x0 y0 z0 r; quadric a b c d e f g h j k");
  const std::vector<double> c = b.reals("coefficients");
  if (b.valid() && c.size() != static_cast<std::size_t>(kCounts[k]))
    b.error("coefficients", fmt::format("a {} takes {} coefficient{}: {}", kKinds[k], kCounts[k], kCounts[k] > 1 ? "s" : "",
                                        kCoefficients[k]));
  std::copy_n(c.begin(), std::min<std::size_t>(c.size(), kSurfaceCoefficients), s.c.begin());
  const bool radius = s.kind >= SurfaceKind::XCylinder && s.kind <= SurfaceKind::Sphere;
  if (b.valid() && radius && !(c.back() > 0)) b.error("coefficients", fmt::format("a radius must be positive, not {}", c.back()));
  if (b.valid() && s.kind == SurfaceKind::Plane && c[0] == 0 && c[1] == 0 && c[2] == 0)
    b.error("coefficients", "a plane's a, b and c cannot all be 0");
  s.boundary = b.choice_of<SurfaceBoundary>("boundary", {"transmission", "vacuum", "reflective", "periodic"},
                                            SurfaceBoundary::Transmission);
  if (s.boundary == SurfaceBoundary::Periodic) s.periodic_partner = b.text("periodic_surface", std::nullopt);
  b.finish();
  return s;
}

CellSpec read_cell(io::Block& b) {
  CellSpec c;
  c.name = b.text("name", std::nullopt);
  c.universe = b.text("universe", std::string("root"));
  c.region = b.text("region", std::string(""));
  const char* fills[] = {"material", "fill", "lattice"};
  int given = 0;
  for (int f = 0; f < 3; ++f)
    if (b.has(fills[f])) {
      ++given;
      c.fill_kind = static_cast<Fill>(f);
      c.fill = b.text(fills[f], std::nullopt);
    }
  if (given != 1)
    b.error("", "a cell takes exactly one of material (a material's name), fill (a universe's) or lattice (a lattice's)");
  if (b.has("translation")) {
    const std::vector<double> t = b.reals("translation");
    if (b.valid() && t.size() != 3) b.error("translation", "takes three numbers: x y z");
    if (c.fill_kind != Fill::Universe) b.error("translation", "moves a filled universe: give it with fill");
    std::copy_n(t.begin(), std::min<std::size_t>(t.size(), 3), c.translation.begin());
  }
  b.finish();
  return c;
}

// A lattice's universes: rows of names (2-D), or layers of rows (3-D), rows from
// the top down, as OpenMC writes them.
void read_lattice_universes(io::Block& b, LatticeSpec& l, int dimensions) {
  const YAML::Node n = b.raw("universes");
  const auto names = [&](const YAML::Node& row, std::vector<std::string>& out) {
    if (!row.IsSequence()) return false;
    for (const auto& v : row) {
      if (!v.IsScalar()) return false;
      out.push_back(v.Scalar());
    }
    return true;
  };
  const auto bad = [&] {
    b.error("universes", dimensions == 2 ? "expected rows of universe names, the top row first: [[a, b], [c, d]]"
                                         : "expected layers of rows of universe names, the lowest layer first");
  };
  if (!n.IsSequence() || n.size() == 0) return bad();
  std::vector<YAML::Node> layers;
  if (dimensions == 2) layers.push_back(n);
  else
    for (const auto& layer : n) layers.push_back(layer);
  l.shape = {0, 0, static_cast<int>(layers.size())};
  for (const YAML::Node& layer : layers) {
    if (!layer.IsSequence() || layer.size() == 0) return bad();
    if (l.shape[1] == 0) l.shape[1] = static_cast<int>(layer.size());
    if (static_cast<int>(layer.size()) != l.shape[1])
      return b.error("universes", fmt::format("every layer needs {} rows, as the first has", l.shape[1]));
    for (const auto& row : layer) {
      std::vector<std::string> names_of_row;
      if (!names(row, names_of_row) || names_of_row.empty()) return bad();
      if (l.shape[0] == 0) l.shape[0] = static_cast<int>(names_of_row.size());
      if (static_cast<int>(names_of_row.size()) != l.shape[0])
        return b.error("universes", fmt::format("every row needs {} universes, as the first has", l.shape[0]));
      l.universes.insert(l.universes.end(), names_of_row.begin(), names_of_row.end());
    }
  }
}

LatticeSpec read_lattice(io::Block& b) {
  LatticeSpec l;
  l.name = b.text("name", std::nullopt);
  const std::vector<double> pitch = b.reals("pitch", io::Range::positive());
  const std::vector<double> low = b.reals("lower_left");
  const int d = static_cast<int>(pitch.size());
  if (b.valid() && d != 2 && d != 3) b.error("pitch", "takes two numbers (a 2-D lattice, infinite in z) or three");
  if (b.valid() && low.size() != pitch.size()) b.error("lower_left", fmt::format("takes {} numbers, as pitch does", d));
  if (!b.valid()) return b.finish(), l;
  std::copy(pitch.begin(), pitch.end(), l.pitch.begin());
  std::copy(low.begin(), low.end(), l.lower_left.begin());
  read_lattice_universes(b, l, d);
  if (d == 2) l.shape[2] = 1;
  l.outer = b.text("outer", std::string(""));
  b.finish();
  return l;
}

}  // namespace

CsgSpec read_csg(io::Block& g) {
  CsgSpec s;
  for (io::Block& b : g.children("surfaces")) s.surfaces.push_back(read_surface(b));
  for (io::Block& b : g.children("cells")) s.cells.push_back(read_cell(b));
  for (io::Block& b : g.children("lattices")) s.lattices.push_back(read_lattice(b));
  if (g.valid() && s.cells.empty()) g.error("cells", "a csg geometry needs at least one cell");
  return s;
}

}  // namespace mcsim::transport::geometry
