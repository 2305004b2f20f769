#include "models/transport/geometry/csg_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>

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

// A hexagonal lattice's rings of universe names (one layer's: `n`, read from
// `key`), the outermost first, each from its top element (orientation y) or its
// east element (x) clockwise, as OpenMC lists them; placed at their axial indices
// (CsgView) in layer `layer` of `layers`. The first layer sets the ring count.
void read_hex_rings(io::Block& b, LatticeSpec& l, const YAML::Node& n, const std::string& key, int layer, int layers) {
  const std::string where = layers > 1 ? fmt::format("layer {} of {}: ", layer + 1, layers) : "";
  const auto bad = [&] {
    b.error(key, where + "expected rings of universe names, the outermost first and the centre last: [[a, b, c, d, e, f], [g]]");
  };
  if (!n.IsSequence() || n.size() == 0) return bad();
  const int rings = static_cast<int>(n.size()), side = 2 * rings - 1, centre = rings - 1;
  if (layer > 0 && side != l.shape[0])
    return b.error(key, fmt::format("{}{} rings, where the first layer has {}", where, rings, (l.shape[0] + 1) / 2));
  // Every ring's size before the square is allocated: it grows as the rings squared.
  for (int m = 0; m < rings; ++m) {
    const int r = rings - 1 - m, want = r == 0 ? 1 : 6 * r;
    const YAML::Node ring = n[static_cast<std::size_t>(m)];
    if (!ring.IsSequence()) return bad();
    if (static_cast<int>(ring.size()) != want)
      return b.error(key, fmt::format("{}ring {} of {} (counted from the outside) holds {} universes, not {}", where, m + 1,
                                      rings, want, ring.size()));
  }
  if (layer == 0) {
    l.shape = {side, side, layers};
    l.universes.assign(static_cast<std::size_t>(side) * side * static_cast<std::size_t>(layers), "");
  }
  const std::size_t base = static_cast<std::size_t>(layer) * side * side;
  // Axial steps around a ring, one per side of it, from its first element.
  static const int steps_y[6][2] = {{1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 0}};
  static const int steps_x[6][2] = {{0, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 0}, {1, -1}};
  const auto& steps = l.kind == LatticeKind::HexY ? steps_y : steps_x;
  for (int m = 0; m < rings; ++m) {
    const int r = rings - 1 - m, want = r == 0 ? 1 : 6 * r;
    const YAML::Node ring = n[static_cast<std::size_t>(m)];
    int a = l.kind == LatticeKind::HexY ? 0 : r, c = l.kind == LatticeKind::HexY ? r : 0;
    for (int e = 0; e < want; ++e) {
      if (!ring[static_cast<std::size_t>(e)].IsScalar()) return bad();
      l.universes[base + static_cast<std::size_t>(c + centre) * side + (a + centre)] = ring[static_cast<std::size_t>(e)].Scalar();
      if (r > 0) a += steps[e / r][0], c += steps[e / r][1];
    }
  }
}

// A hexagonal lattice: its centre, the distance between neighbouring centres, the
// orientation and the rings; in 3-D (a second pitch: the layers' height) the
// centre's z is the middle of its layers, listed from the lowest.
void read_hex_lattice(io::Block& b, LatticeSpec& l) {
  l.kind = b.choice_of<LatticeKind>("orientation", {"y", "x"}, LatticeKind::HexY, 1);
  const std::vector<double> pitch = b.reals("pitch", io::Range::positive());
  const std::vector<double> centre = b.reals("center");
  const bool layered = pitch.size() == 2;
  if (b.valid() && pitch.size() != 1 && !layered)
    b.error("pitch", "takes one number for a hexagonal lattice (the distance between neighbouring centres), or two in 3-D "
                     "(and its layers' height)");
  if (b.valid() && centre.size() != (layered ? 3u : 2u))
    b.error("center", layered ? "takes three numbers for a 3-D hexagonal lattice, x y z (z: the middle of its layers)"
                              : "takes two numbers, x y (a hexagonal lattice of one pitch is infinite in z)");
  if (b.valid() && b.has(layered ? "rings" : "layers"))
    b.error(layered ? "rings" : "layers", layered ? "is for a 2-D hexagonal lattice; a 3-D one (two pitches) lists `layers`"
                                                  : "is for a 3-D hexagonal lattice, whose pitch has two numbers");
  if (!b.valid()) return;
  if (!layered) {
    l.pitch = {pitch[0], pitch[0], 0};
    l.lower_left = {centre[0], centre[1], 0};
    return read_hex_rings(b, l, b.raw("rings"), "rings", 0, 1);
  }
  const YAML::Node layers = b.raw("layers");
  if (!layers.IsSequence() || layers.size() == 0)
    return b.error("layers", "expected a list of layers from the lowest, each rings of universe names as `rings` takes them");
  const int n = static_cast<int>(layers.size());
  // Every layer's ring count before the layers' squares are allocated (their size is
  // layers x rings^2): a long list of small layers under one large one is refused here.
  for (int k = 1; k < n; ++k)
    if (layers[static_cast<std::size_t>(k)].IsSequence() && layers[static_cast<std::size_t>(k)].size() != layers[0].size())
      return b.error("layers", fmt::format("layer {} of {}: {} rings, where the first layer has {}", k + 1, n,
                                           layers[static_cast<std::size_t>(k)].size(), layers[0].size()));
  l.pitch = {pitch[0], pitch[0], pitch[1]};
  l.lower_left = {centre[0], centre[1], centre[2] - 0.5 * n * pitch[1]};
  for (int k = 0; k < n && b.valid(); ++k) read_hex_rings(b, l, layers[static_cast<std::size_t>(k)], "layers", k, n);
}

LatticeSpec read_lattice(io::Block& b) {
  LatticeSpec l;
  l.name = b.text("name", std::nullopt);
  if (b.choice("type", {"rectangular", "hexagonal"}, std::string("rectangular")) == "hexagonal") {
    read_hex_lattice(b, l);
    l.outer = b.text("outer", std::string(""));
    b.finish();
    return l;
  }
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

// 2 or 3 numbers: a point of a 2-D model (z = 0) or a 3-D one.
std::array<double, 3> read_point(io::Block& b, const std::string& key, std::optional<std::array<double, 3>> fallback = {}) {
  const bool given = b.has(key);
  const std::vector<double> v = b.reals(key);
  if (!given && fallback) return *fallback;
  if (b.valid() && v.size() != 2 && v.size() != 3) b.error(key, "takes x y (a 2-D model, z = 0) or x y z");
  std::array<double, 3> p{};
  std::copy_n(v.begin(), std::min<std::size_t>(v.size(), 3), p.begin());
  return p;
}

// A box [lower_left, upper_right], each side of positive width (a 2-D box's z is 0 to 0).
void read_box(io::Block& b, std::array<double, 3>& low, std::array<double, 3>& high,
              std::optional<std::array<double, 3>> low_fallback = {}, std::optional<std::array<double, 3>> high_fallback = {}) {
  low = read_point(b, "lower_left", low_fallback);
  high = read_point(b, "upper_right", high_fallback);
  for (int a = 0; a < 3 && b.valid(); ++a)
    if (!(high[static_cast<std::size_t>(a)] > low[static_cast<std::size_t>(a)]) && !(a == 2 && high[2] == 0 && low[2] == 0))
      b.error("upper_right", fmt::format("must lie above lower_left along {}: {} is not above {}", "xyz"[a],
                                         high[static_cast<std::size_t>(a)], low[static_cast<std::size_t>(a)]));
}

// A model's error names its surface, cell or lattice: reported at that item's line
// when the config has it, else at the geometry block.
void csg_error(io::Block& g, const CsgSpec& spec, const std::string& message) {
  static const std::regex named("(surface|cell|lattice) '([^']*)'");
  std::smatch m;
  if (std::regex_search(message, m, named)) {
    const std::string kind = m[1], name = m[2];
    const auto at = [&](const auto& items, const char* key) {
      for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name) return g.error_where(g.where_of(key, static_cast<int>(i)), message), true;
      return false;
    };
    if ((kind == "surface" && at(spec.surfaces, "surfaces")) || (kind == "cell" && at(spec.cells, "cells")) ||
        (kind == "lattice" && at(spec.lattices, "lattices")))
      return;
  }
  g.error("", message);
}


// The index of the model's item (a cell, a lattice) that `key` names; -1 after an
// error, or without a model (its own error is reported already).
template <class Item>
int index_named(io::Block& b, const std::string& key, const std::vector<Item>* items, const char* what) {
  b.schema_note(key, "", fmt::format("a {}'s name", what));
  const std::string name = b.text(key, std::nullopt);
  if (!items) return -1;
  for (std::size_t i = 0; i < items->size(); ++i)
    if ((*items)[i].name == name) return static_cast<int>(i);
  if (b.valid()) b.error(key, fmt::format("no {} is named '{}'", what, name));
  return -1;
}

constexpr double kMaxMeshBins = 1e6;

}  // namespace

CsgSpec read_csg(io::Block& g) {
  CsgSpec s;
  for (io::Block& b : g.children("surfaces")) s.surfaces.push_back(read_surface(b));
  for (io::Block& b : g.children("cells")) s.cells.push_back(read_cell(b));
  for (io::Block& b : g.children("lattices")) s.lattices.push_back(read_lattice(b));
  if (g.valid() && s.cells.empty()) g.error("cells", "a csg geometry needs at least one cell");
  return s;
}

// A CSG model: its surfaces, cells and lattices, the box that holds it, and the
// check that samples that box for overlaps and holes before any history runs.
void read_csg_geometry(io::Block& g, const std::vector<std::string>& materials, Geometry& geo) {
  CsgSpec spec = read_csg(g);
  io::Block bounds = g.child("bounds", true);
  read_box(bounds, geo.low, geo.high);
  bounds.finish();
  const std::uint64_t samples = g.count("check_points", 100000, 0, std::uint64_t{1} << 32);
  g.finish();
  if (!g.valid() || !bounds.valid() || !g.diagnostics().empty()) return;
  try {
    auto csg = std::make_shared<const Csg>(spec, materials);
    const GeometryProblem problem = check_geometry(*csg, geo.low, geo.high, samples);
    if (problem.kind != GeometryProblem::None)
      return g.error("check_points", "the geometry check sampled " + problem.message());
    geo.csg = std::move(csg);
  } catch (const std::invalid_argument& e) {
    csg_error(g, spec, e.what());
  }
}

// A CSG model's source: a point, a box or a cell (drawn within the bounds),
// isotropic, optionally only where the material fissions.
void read_csg_source(io::Block& b, TransportSpec& s) {
  Source& src = s.source;
  const Geometry& geo = s.geometry;
  src.kind = Source::Kind::Isotropic;
  const std::string type = b.choice("type", {"point", "box", "cell"}, std::nullopt);
  b.schema_note("group", "0", "a group, 0 = the fastest");
  src.group = static_cast<int>(b.count("group", 0, 0, static_cast<std::uint64_t>(std::max(0, s.groups - 1))));
  if (type == "point") {
    src.low = src.high = read_point(b, "position");
    for (std::size_t a = 0; a < 3 && b.valid(); ++a)
      if (src.low[a] < geo.low[a] || src.low[a] > geo.high[a])
        b.error("position", fmt::format("({}, {}, {}) lies outside the geometry's bounds", src.low[0], src.low[1], src.low[2]));
  } else if (type == "box") {
    src.box = true;
    read_box(b, src.low, src.high, geo.low, geo.high);
  } else if (type == "cell") {
    src.box = true, src.low = geo.low, src.high = geo.high;
    src.cell = index_named(b, "cell", geo.csg ? &geo.csg->spec().cells : nullptr, "cell");
  }
  src.fissionable_only = b.choice("fissionable_only", {"false", "true"}, std::string("false")) == "true";
  if (src.fissionable_only && type == "point") b.error("fissionable_only", "draws places again; a point source has one");
  b.finish();
}


// A CSG model's tally: { name, filter: cell | material | lattice | mesh }, a
// lattice filter naming its lattice, a mesh filter its box and dimension.
CsgTallySpec read_csg_tally(io::Block& b, const Geometry& geo) {
  CsgTallySpec t;
  t.name = b.text("name", std::nullopt);
  t.filter = b.choice_of<TallyFilter>("filter", {"cell", "material", "lattice", "mesh"}, std::nullopt);
  if (t.filter == TallyFilter::Lattice) {
    t.lattice = index_named(b, "lattice", geo.csg ? &geo.csg->spec().lattices : nullptr, "lattice");
  } else if (t.filter == TallyFilter::Mesh) {
    read_box(b, t.low, t.high, geo.low, geo.high);
    const std::vector<double> d = b.reals("dimension", io::Range{1, 1e6});
    if (b.valid() && d.size() != 2 && d.size() != 3) b.error("dimension", "takes nx ny (a 2-D mesh) or nx ny nz");
    for (std::size_t a = 0; a < d.size() && a < 3; ++a) {
      if (d[a] != std::floor(d[a])) b.error("dimension", fmt::format("{} is not a whole number of bins", d[a]));
      t.shape[a] = static_cast<int>(d[a]);
    }
    if (b.valid() && d.size() == 2) t.low[2] = t.high[2] = 0;  // unbounded in z
    if (b.valid() && d.size() == 3 && !(t.high[2] > t.low[2])) b.error("dimension", "a 3-D mesh needs a box of some depth in z");
    // Each bin is 4 slots a group in every row of tallies: a bound, so a mistyped
    // dimension is an error and not an allocation of terabytes.
    double bins = 1;
    for (const double n : d) bins *= n;
    if (b.valid() && bins > kMaxMeshBins)
      b.error("dimension", fmt::format("{:.0f} bins; a mesh holds at most {:.0f}", bins, kMaxMeshBins));
  }
  b.finish();
  return t;
}

}  // namespace mcsim::transport::geometry
