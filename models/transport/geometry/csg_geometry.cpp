#include "models/transport/geometry/csg_geometry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>

namespace mcsim::transport::geometry {

namespace {

// A region as an error quotes it: a long one by its head.
std::string head_of(const std::string& region) { return region.size() > 80 ? region.substr(0, 77) + "..." : region; }

// Recursive descent over OpenMC's region syntax, emitting postfix:
//   union := intersection ('|' intersection)*
//   intersection := unary unary*          (juxtaposition)
//   unary := '~' unary | '(' union ')' | ('+' | '-') surface-name
class RegionParser {
 public:
  RegionParser(const std::string& text, const std::vector<std::string>& names) : s_(text), names_(names) {}
  std::vector<int> parse() {
    skip();
    if (at_end()) return {};
    union_();
    skip();
    if (!at_end()) fail(fmt::format("'{}' where an operator or the end was expected", s_[i_]));
    return out_;
  }

 private:
  void union_() {
    intersection();
    for (skip(); !at_end() && s_[i_] == '|'; skip()) {
      ++i_;
      intersection();
      out_.push_back(kOr);
    }
  }
  void intersection() {
    unary();
    for (skip(); !at_end() && s_[i_] != '|' && s_[i_] != ')'; skip()) {
      unary();
      out_.push_back(kAnd);
    }
  }
  void unary() {
    skip();
    if (at_end()) fail("the region ends where a half-space was expected");
    const char c = s_[i_];
    if (c == '~' || c == '(') {
      // The recursion's depth is the text's nesting: bounded here, before a hostile
      // region runs the stack out.
      if (++nesting_ > kMaxNesting) fail(fmt::format("nests deeper than {} parentheses and complements", kMaxNesting));
      ++i_;
      if (c == '~') {
        unary();
        out_.push_back(kNot);
      } else {
        union_();
        skip();
        if (at_end() || s_[i_] != ')') fail("a '(' is not closed");
        ++i_;
      }
      --nesting_;
    } else if (c == '+' || c == '-') {
      ++i_;
      const std::size_t start = i_;
      while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.')) ++i_;
      const std::string name = s_.substr(start, i_ - start);
      if (name.empty()) fail(fmt::format("'{}' is not followed by a surface name", c), start - 1);
      const auto it = std::find(names_.begin(), names_.end(), name);
      if (it == names_.end()) fail(fmt::format("no surface is named '{}'", name), start);
      out_.push_back(2 * static_cast<int>(it - names_.begin()) + (c == '+' ? 1 : 0));
    } else {
      fail(fmt::format("'{}' where a half-space (+name or -name), '~' or '(' was expected", c));
    }
  }
  void skip() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool at_end() const { return i_ >= s_.size(); }
  [[noreturn]] void fail(const std::string& what) const { fail(what, i_); }
  [[noreturn]] void fail(const std::string& what, std::size_t at) const {
    throw std::invalid_argument(fmt::format("{} (column {} of \"{}\")", what, at + 1, head_of(s_)));
  }
  const std::string& s_;
  const std::vector<std::string>& names_;
  static constexpr int kMaxNesting = 64;
  std::size_t i_ = 0;
  int nesting_ = 0;
  std::vector<int> out_;
};

// The evaluation stack's depth for a postfix region.
int region_depth(const std::vector<int>& tokens) {
  int depth = 0, most = 0;
  for (const int t : tokens) {
    depth += t >= 0 ? 1 : t == kNot ? 0 : -1;
    most = std::max(most, depth);
  }
  return most;
}

// Where the item named `name` is in v (surfaces, lattices), or -1.
template <class T>
int index_by_name(const std::vector<T>& v, const std::string& name) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::vector<int> parse_region(const std::string& region, const std::vector<std::string>& surface_names) {
  std::vector<int> tokens = RegionParser(region, surface_names).parse();
  if (region_depth(tokens) > kMaxRegionDepth)
    throw std::invalid_argument(fmt::format("\"{}\" nests deeper than {} operands", head_of(region), kMaxRegionDepth));
  return tokens;
}

Csg::Csg(CsgSpec spec, const std::vector<std::string>& materials)
    : spec_(std::move(spec)), materials_(static_cast<int>(materials.size())) {
  std::vector<std::string> surface_names;
  for (const SurfaceSpec& s : spec_.surfaces) {
    if (std::find(surface_names.begin(), surface_names.end(), s.name) != surface_names.end())
      throw std::invalid_argument(fmt::format("surface '{}' is named twice", s.name));
    surface_names.push_back(s.name);
  }
  for (const SurfaceSpec& s : spec_.surfaces) {
    surface_kind_.push_back(static_cast<int>(s.kind));
    surface_boundary_.push_back(static_cast<int>(s.boundary));
    periodic_partner_.push_back(-1);
    if (s.boundary != SurfaceBoundary::Periodic) continue;
    const int partner = index_by_name(spec_.surfaces, s.periodic_partner);
    if (partner < 0)
      throw std::invalid_argument(fmt::format("surface '{}' is periodic with '{}', which is not a surface", s.name, s.periodic_partner));
    const SurfaceSpec& other = spec_.surfaces[static_cast<std::size_t>(partner)];
    if (other.kind != s.kind || s.kind > SurfaceKind::ZPlane || other.c[0] == s.c[0])
      throw std::invalid_argument(fmt::format("periodic surfaces '{}' and '{}' must be distinct x-, y- or z-planes of one axis",
                                              s.name, s.periodic_partner));
    periodic_partner_.back() = partner;
  }
  // Universes: "root", then each other name in the order cells first give it.
  universes_.push_back("root");
  for (const CellSpec& c : spec_.cells)
    if (std::find(universes_.begin(), universes_.end(), c.universe) == universes_.end()) universes_.push_back(c.universe);
  const auto universe = [&](const std::string& name, const std::string& whose) {
    const auto it = std::find(universes_.begin(), universes_.end(), name);
    if (it == universes_.end()) throw std::invalid_argument(fmt::format("{}: no cell makes up a universe '{}'", whose, name));
    return static_cast<int>(it - universes_.begin());
  };
  std::vector<std::string> cell_names;
  region_begin_.push_back(0);
  for (const CellSpec& c : spec_.cells) {
    if (std::find(cell_names.begin(), cell_names.end(), c.name) != cell_names.end())
      throw std::invalid_argument(fmt::format("cell '{}' is named twice", c.name));
    cell_names.push_back(c.name);
    std::vector<int> tokens;
    try {
      tokens = parse_region(c.region, surface_names);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("region of cell '{}': {}", c.name, e.what()));
    }
    region_tokens_.insert(region_tokens_.end(), tokens.begin(), tokens.end());
    region_begin_.push_back(static_cast<int>(region_tokens_.size()));
    fill_kind_.push_back(static_cast<int>(c.fill_kind));
    const std::string whose = fmt::format("cell '{}'", c.name);
    if (c.fill_kind == Fill::Material) {
      const auto it = std::find(materials.begin(), materials.end(), c.fill);
      if (it == materials.end()) throw std::invalid_argument(fmt::format("{}: no material is named '{}'", whose, c.fill));
      fill_.push_back(static_cast<int>(it - materials.begin()));
    } else if (c.fill_kind == Fill::Universe) {
      fill_.push_back(universe(c.fill, whose));
    } else {
      const int l = index_by_name(spec_.lattices, c.fill);
      if (l < 0) throw std::invalid_argument(fmt::format("{}: no lattice is named '{}'", whose, c.fill));
      fill_.push_back(l);
    }
  }
  for (std::size_t u = 0; u < universes_.size(); ++u) {
    universe_begin_.push_back(static_cast<int>(universe_cells_.size()));
    for (std::size_t c = 0; c < spec_.cells.size(); ++c)
      if (spec_.cells[c].universe == universes_[u]) universe_cells_.push_back(static_cast<int>(c));
  }
  universe_begin_.push_back(static_cast<int>(universe_cells_.size()));
  if (universe_begin_[1] == 0) throw std::invalid_argument("no cell is in the root universe");
  for (const LatticeSpec& l : spec_.lattices) {
    const std::string whose = fmt::format("lattice '{}'", l.name);
    const bool hex = l.kind != LatticeKind::Rectangular;
    for (int a = 0; a < 3; ++a) {
      if (l.shape[static_cast<std::size_t>(a)] < 1) throw std::invalid_argument(whose + ": its shape must be at least 1 along each axis");
      if (!(l.pitch[static_cast<std::size_t>(a)] > 0) && !(a == 2 && l.shape[2] == 1) && !(hex && a == 1))
        throw std::invalid_argument(whose + ": its pitch must be positive");
    }
    const auto [nx, ny, nz] = l.shape;
    if (hex && (nx != ny || nx % 2 == 0))
      throw std::invalid_argument(whose + ": a hexagonal lattice's layers are 2n - 1 axial indices square");
    if (l.universes.size() != static_cast<std::size_t>(nx) * ny * nz)
      throw std::invalid_argument(fmt::format("{}: {} universes for a {} x {} x {} lattice", whose, l.universes.size(), nx, ny, nz));
    lattice_kind_.push_back(static_cast<int>(l.kind));
    for (int i = 0; i < 3; ++i) lattice_shape_.push_back(l.shape[static_cast<std::size_t>(i)]);
    lattice_begin_.push_back(static_cast<int>(lattice_universes_.size()));
    // Rectangular: written top row first, stored lowest row first. Hexagonal: stored
    // as given, -1 for the square's corners beyond the last ring.
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const std::size_t at = (static_cast<std::size_t>(k) * ny + (hex ? j : ny - 1 - j)) * nx + i;
          lattice_universes_.push_back(hex && l.universes[at].empty() ? -1 : universe(l.universes[at], whose));
        }
    lattice_outer_.push_back(l.outer.empty() ? -1 : universe(l.outer, whose));
  }
  // No universe may hold itself, and fills may nest kMaxLevels deep at most.
  const std::function<void(int, int)> descend = [&](int u, int depth) {
    if (depth > kMaxLevels)
      throw std::invalid_argument(fmt::format("universe '{}' is filled within itself, or fills nest deeper than {} levels",
                                              universes_[static_cast<std::size_t>(u)], kMaxLevels));
    for (int m = universe_begin_[static_cast<std::size_t>(u)]; m < universe_begin_[static_cast<std::size_t>(u) + 1]; ++m) {
      const auto c = static_cast<std::size_t>(universe_cells_[static_cast<std::size_t>(m)]);
      if (fill_kind_[c] == static_cast<int>(Fill::Universe)) descend(fill_[c], depth + 1);
      if (fill_kind_[c] != static_cast<int>(Fill::Lattice)) continue;
      const auto l = static_cast<std::size_t>(fill_[c]);
      const int n = lattice_shape_[3 * l] * lattice_shape_[3 * l + 1] * lattice_shape_[3 * l + 2];
      std::vector<int> seen;
      for (int e = 0; e < n; ++e) {
        const int v = lattice_universes_[static_cast<std::size_t>(lattice_begin_[l] + e)];
        if (v >= 0 && std::find(seen.begin(), seen.end(), v) == seen.end()) seen.push_back(v), descend(v, depth + 1);
      }
      if (lattice_outer_[l] >= 0) descend(lattice_outer_[l], depth + 1);
    }
  };
  descend(0, 1);
}

template <class Real>
CsgArrays<Real> Csg::arrays() const {
  CsgArrays<Real> a;
  a.surfaces = static_cast<int>(spec_.surfaces.size());
  a.cells = static_cast<int>(spec_.cells.size());
  a.universes = static_cast<int>(universes_.size());
  a.lattices = static_cast<int>(spec_.lattices.size());
  a.region_tokens = static_cast<int>(region_tokens_.size());
  a.universe_cells = static_cast<int>(universe_cells_.size());
  a.lattice_universes = static_cast<int>(lattice_universes_.size());
  for (const SurfaceSpec& s : spec_.surfaces)
    for (const double c : s.c) a.reals.push_back(static_cast<Real>(c));
  for (const CellSpec& c : spec_.cells)
    for (const double t : c.translation) a.reals.push_back(static_cast<Real>(t));
  for (const LatticeSpec& l : spec_.lattices)
    for (const double v : l.lower_left) a.reals.push_back(static_cast<Real>(v));
  for (const LatticeSpec& l : spec_.lattices)
    for (int i = 0; i < 3; ++i)
      a.reals.push_back(i == 2 && l.shape[2] == 1 ? static_cast<Real>(INFINITY) : static_cast<Real>(l.pitch[static_cast<std::size_t>(i)]));
  for (const auto* v : {&surface_kind_, &surface_boundary_, &periodic_partner_, &region_begin_, &region_tokens_, &fill_kind_, &fill_, &universe_begin_, &universe_cells_,
                        &lattice_kind_, &lattice_shape_, &lattice_begin_, &lattice_universes_, &lattice_outer_})
    a.ints.insert(a.ints.end(), v->begin(), v->end());
  return a;
}

template <class Real>
CsgView<Real> CsgArrays<Real>::view(const Real* r, const int* i) const {
  const Real* coefficients = r;
  const Real* translation = coefficients + static_cast<std::size_t>(surfaces) * kSurfaceCoefficients;
  const Real* lower_left = translation + 3 * static_cast<std::size_t>(cells);
  const Real* pitch = lower_left + 3 * static_cast<std::size_t>(lattices);
  const int* kind = i;
  const int* boundary = kind + surfaces;
  const int* partner = boundary + surfaces;
  const int* region_begin = partner + surfaces;
  const int* tokens = region_begin + cells + 1;
  const int* fill_kind = tokens + region_tokens;
  const int* fill = fill_kind + cells;
  const int* universe_begin = fill + cells;
  const int* members = universe_begin + universes + 1;
  const int* lattice_kind = members + universe_cells;
  const int* shape = lattice_kind + lattices;
  const int* lattice_begin = shape + 3 * lattices;
  const int* elements = lattice_begin + lattices;
  const int* outer = elements + lattice_universes;
  return {surfaces,  cells,         universes, lattices, root,        kind,           coefficients, boundary,
          partner,   region_begin,  tokens,    fill_kind, fill,     translation, universe_begin, members,
          lattice_kind, lower_left, pitch,        shape,     lattice_begin, elements, outer};
}

template CsgArrays<float> Csg::arrays<float>() const;
template CsgArrays<double> Csg::arrays<double>() const;
template struct CsgArrays<float>;
template struct CsgArrays<double>;

std::string GeometryProblem::message() const {
  if (kind == None) return "no overlap or hole found";
  std::string names;
  for (const std::string& c : cells) names += (names.empty() ? "'" : ", '") + c + "'";
  return kind == Hole ? fmt::format("the point ({}, {}, {}) is in no cell of universe '{}'", point[0], point[1], point[2], universe)
                      : fmt::format("the point ({}, {}, {}) is in cells {} of universe '{}' at once", point[0], point[1],
                                    point[2], names, universe);
}

GeometryProblem check_geometry(const Csg& csg, std::array<double, 3> low, std::array<double, 3> high,
                               std::uint64_t samples, std::uint64_t seed) {
  const CsgArrays<double> arrays = csg.arrays<double>();
  const CsgView<double> g = arrays.host_view();
  std::mt19937_64 engine(seed);
  const auto uniform = [&] { return static_cast<double>(engine() >> 11) * 0x1p-53; };  // the same on every platform
  const Vec3<double> u{1, 0, 0};
  std::vector<int> holding;  // the cells of a universe that hold the point
  for (std::uint64_t n = 0; n < samples; ++n) {
    Vec3<double> p{low[0] + (high[0] - low[0]) * uniform(), low[1] + (high[1] - low[1]) * uniform(),
                   low[2] + (high[2] - low[2]) * uniform()};
    const std::array<double, 3> point{p.x, p.y, p.z};
    // Down the levels as locate() goes, counting every cell of each universe that holds p.
    int universe = g.root;
    for (int level = 0; level < kMaxLevels; ++level) {
      holding.clear();
      for (int m = g.universe_begin[universe]; m < g.universe_begin[universe + 1]; ++m)
        if (in_cell(g, g.universe_cells[m], p, u)) holding.push_back(g.universe_cells[m]);
      const std::string& name = csg.universe_names()[static_cast<std::size_t>(universe)];
      if (holding.empty() && level == 0) break;  // outside the model (a sphere's box has corners)
      if (holding.empty()) return {GeometryProblem::Hole, point, name, {}};
      if (holding.size() > 1) {
        GeometryProblem problem{GeometryProblem::Overlap, point, name, {}};
        for (const int c : holding) problem.cells.push_back(csg.spec().cells[static_cast<std::size_t>(c)].name);
        return problem;
      }
      const int c = holding.front();
      if (static_cast<Fill>(g.fill_kind[c]) == Fill::Material) break;
      Level<double> down{universe, c, p, -1, 0, 0, 0, p};
      universe = enter_fill(g, down, &p);
      if (universe < 0)
        return {GeometryProblem::Hole, point,
                fmt::format("outside lattice '{}'", csg.spec().lattices[static_cast<std::size_t>(down.lattice)].name), {}};
    }
  }
  return {};
}

}  // namespace mcsim::transport::geometry
