// A transport job's model: block: the geometry, source, tallies and run keys
// (materials: material_config.cpp; CSG geometry: geometry/csg_config.cpp), the check
// that histories end, and every key's declaration.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "io/schema.hpp"
#include "models/transport/geometry/csg_config.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport {

std::size_t Geometry::regions() const {
  if (shape == Shape::Infinite) return 1;
  if (shape == Shape::Csg) return csg ? static_cast<std::size_t>(csg->materials()) : 0;
  return shape == Shape::Slab ? surfaces.size() - 1 : surfaces.size();
}

namespace {

using io::Range;

void read_geometry(io::Block& g, const std::vector<std::string>& materials, Geometry& geo) {
  const std::string shape = g.choice("type", {"infinite", "slab", "sphere", "csg"}, std::nullopt);
  geo.shape = shape == "slab" ? Shape::Slab : shape == "sphere" ? Shape::Sphere : shape == "csg" ? Shape::Csg : Shape::Infinite;
  if (geo.shape == Shape::Csg) return geometry::read_csg_geometry(g, materials, geo);
  const auto boundary = [&](const std::string& key) {
    return g.choice(key, {"vacuum", "reflective"}, std::string("vacuum")) == "reflective" ? Boundary::Reflective
                                                                                          : Boundary::Vacuum;
  };
  if (geo.shape == Shape::Slab) {
    geo.surfaces = g.reals("boundaries");
    if (g.valid() && geo.surfaces.size() < 2) g.error("boundaries", "needs at least two planes (one region)");
    for (std::size_t i = 1; i < geo.surfaces.size(); ++i)
      if (!(geo.surfaces[i] > geo.surfaces[i - 1]))
        g.error("boundaries", fmt::format("must increase: {} follows {}", geo.surfaces[i], geo.surfaces[i - 1]));
    geo.left = boundary("left");
    geo.right = boundary("right");
  } else if (geo.shape == Shape::Sphere) {
    geo.surfaces = g.reals("radii", Range::positive());
    if (g.valid() && geo.surfaces.empty()) g.error("radii", "needs at least one radius");
    for (std::size_t i = 1; i < geo.surfaces.size(); ++i)
      if (!(geo.surfaces[i] > geo.surfaces[i - 1]))
        g.error("radii", fmt::format("must increase outwards: {} follows {}", geo.surfaces[i], geo.surfaces[i - 1]));
    geo.right = boundary("outer");
  }
  g.finish();
}

// The span the source may sit in: a slab's planes, or a sphere's outer radius.
std::pair<double, double> extent(const Geometry& g) {
  if (g.surfaces.empty()) return {-INFINITY, INFINITY};  // its error is reported already
  if (g.shape == Shape::Slab) return {g.surfaces.front(), g.surfaces.back()};
  if (g.shape == Shape::Sphere) return {0.0, g.surfaces.back()};
  return {-INFINITY, INFINITY};
}

void read_source(io::Block& b, TransportSpec& s) {
  if (s.geometry.shape == Shape::Csg) return geometry::read_csg_source(b, s);
  Source& src = s.source;
  src.kind = b.choice("type", {"beam", "isotropic"}, std::nullopt) == "beam" ? Source::Kind::Beam
                                                                           : Source::Kind::Isotropic;
  b.schema_note("group", "0", "a group, 0 = the fastest");
  b.schema_note("region", "", "a region, 0 = the innermost or leftmost");
  b.schema_note("position", "0");  // a beam's: the slab's left face; a slab's point source: required
  src.group = static_cast<int>(b.count("group", 0, 0, static_cast<std::uint64_t>(std::max(0, s.groups - 1))));
  const auto [lo, hi] = extent(s.geometry);
  if (src.kind == Source::Kind::Beam) {
    src.position = b.real("position", lo > -INFINITY ? std::optional<double>(lo) : std::optional<double>(0.0));
    src.direction = b.real("direction", 1.0, io::Range{-1, 1});
    if (b.valid() && src.direction == 0) b.error("direction", "a beam along a plane never crosses the slab");
  } else if (b.has("region")) {
    const auto r = b.count("region", std::nullopt, 0, s.geometry.regions() - 1);
    src.region = static_cast<int>(r);
  } else {
    src.position = b.real("position", s.geometry.shape == Shape::Slab ? std::nullopt : std::optional<double>(0.0));
    if (s.geometry.shape == Shape::Sphere && src.position != 0)
      b.error("position", "a sphere's point source sits at its centre (0); use region for a shell");
  }
  if (b.valid() && !(src.position >= lo && src.position <= hi))
    b.error("position", fmt::format("{} lies outside the geometry [{}, {}]", src.position, lo, hi));
  b.finish();
}

void read_tallies(io::Block& model, TransportSpec& s) {
  Tallies& t = s.tallies;
  if (s.geometry.shape == Shape::Csg) {  // names of scalars, and blocks of filtered tallies
    std::vector<io::Block> filtered;
    for (const std::string& name : model.choices("tallies", {"absorption", "leakage", "collisions"}, &filtered)) {
      if (name == "absorption") t.absorption = true;
      if (name == "leakage") t.leakage = true;
      if (name == "collisions") t.collisions = true;
    }
    for (io::Block& b : filtered) {
      geometry::CsgTallySpec one = geometry::read_csg_tally(b, s.geometry);
      for (const auto& earlier : t.csg)
        if (earlier.name == one.name) b.error("name", fmt::format("tally '{}' is named twice", one.name));
      t.csg.push_back(std::move(one));
    }
    return;
  }
  // A list of names, and { flux: { bins: N } }.
  std::vector<io::Block> detailed;
  for (const std::string& name :
       model.choices("tallies", {"transmission", "reflection", "absorption", "leakage", "collisions", "flux"}, &detailed)) {
    if (name == "transmission") t.transmission = true;
    if (name == "reflection") t.reflection = true;
    if (name == "absorption") t.absorption = true;
    if (name == "leakage") t.leakage = true;
    if (name == "collisions") t.collisions = true;
    if (name == "flux") t.flux_bins = s.geometry.shape == Shape::Infinite ? 1 : 100;
  }
  for (io::Block& d : detailed) {
    io::Block f = d.child("flux", true);
    t.flux_bins = static_cast<int>(f.count("bins", 100, 1, 100000));
    f.finish();
    d.finish();
  }
  if ((t.transmission || t.reflection) && s.geometry.shape != Shape::Slab)
    model.error("tallies", "transmission and reflection are a slab's; a sphere has leakage");
  if (t.flux_bins > 1 && s.geometry.shape == Shape::Infinite)
    model.error("tallies", "a flux mesh needs a slab or a sphere to span; an infinite medium's flux is one bin");
}

}  // namespace

namespace {
// In a closed geometry (no vacuum boundary) a history ends only when it is
// absorbed: refuse one whose neutrons reach a group from which no region absorbs,
// directly or after scattering to other groups, or that absorbs so little that a
// history would take millions of collisions. Regions touch one another, so any
// region's material counts.
void check_histories_end(io::Block& model, const TransportSpec& s) {
  const Geometry& geo = s.geometry;
  bool leaks = (geo.shape == Shape::Slab && (geo.left == Boundary::Vacuum || geo.right == Boundary::Vacuum)) ||
               (geo.shape == Shape::Sphere && geo.right == Boundary::Vacuum);
  if (geo.csg)
    for (const auto& surface : geo.csg->spec().surfaces) leaks = leaks || surface.boundary == geometry::SurfaceBoundary::Vacuum;
  if (leaks || s.region_material.empty()) return;
  const int G = s.groups;
  std::vector<char> born(static_cast<std::size_t>(G), 0), ends(born), reached(born);
  if (!s.eigenvalue) born[static_cast<std::size_t>(std::clamp(s.source.group, 0, G - 1))] = 1;
  double best = 0;  // the largest chance that a collision absorbs
  for (const int r : s.region_material) {
    const Material& m = s.materials[static_cast<std::size_t>(r)];
    for (int g = 0; g < G; ++g) {
      const auto i = static_cast<std::size_t>(g);
      if (s.eigenvalue && m.fissile() && m.chi[i] > 0) born[i] = 1;
      if (m.absorption(g) > 0) ends[i] = 1, best = std::max(best, m.absorption(g) / m.total[i]);
    }
  }
  const auto scatters = [&](int g, int h) {
    for (const int r : s.region_material)
      if (s.materials[static_cast<std::size_t>(r)].scatter[static_cast<std::size_t>(g * G + h)] > 0) return true;
    return false;
  };
  // Groups reached from birth, and groups from which an absorbing one is reached.
  for (bool grew = true; grew;) {
    grew = false;
    for (int g = 0; g < G; ++g)
      for (int h = 0; h < G; ++h) {
        const auto a = static_cast<std::size_t>(g), b = static_cast<std::size_t>(h);
        if ((born[a] || reached[a]) && !reached[b] && (a == b || scatters(g, h))) reached[b] = 1, grew = true;
        if (ends[b] && !ends[a] && scatters(g, h)) ends[a] = 1, grew = true;
      }
  }
  for (int g = 0; g < G; ++g)
    if (reached[static_cast<std::size_t>(g)] && !ends[static_cast<std::size_t>(g)])
      return model.error("geometry", fmt::format("histories in group {} can never end: no boundary is vacuum, and no "
                                                 "region absorbs in that group or in any it scatters to; make a "
                                                 "boundary vacuum or give a material capture", g));
  if (best < 1e-6)
    model.error("geometry", fmt::format("with no vacuum boundary a history ends only when absorbed, and a collision "
                                        "absorbs with a chance of at most {:.3g}: a history would take about {:.3g} "
                                        "collisions; make a boundary vacuum or give a material more capture",
                                        best, 1 / best));
}
}  // namespace

bool parse_transport_spec(io::Block& model, TransportSpec& s) {
  s.eigenvalue = model.choice("mode", {"fixed_source", "eigenvalue"}, std::nullopt) == "eigenvalue";
  parse_materials_and_geometry(model, s);
  if (model.has("source")) {
    io::Block src = model.child("source", true);
    read_source(src, s);
  } else if (!s.eigenvalue && model.valid()) {
    model.error("", "missing required block 'source' (fixed_source mode)");
  } else if (s.geometry.shape == Shape::Csg) {
    // The first generation's default source: wherever a material fissions within the bounds.
    s.source.kind = Source::Kind::Isotropic;
    s.source.box = s.source.fissionable_only = true;
    s.source.low = s.geometry.low, s.source.high = s.geometry.high;
  } else {
    // The first generation's default source: isotropic over the first fissile region.
    s.source.kind = Source::Kind::Isotropic;
    for (std::size_t r = 0; r < s.region_material.size() && s.source.region < 0; ++r)
      if (s.materials[static_cast<std::size_t>(s.region_material[r])].fissile()) s.source.region = static_cast<int>(r);
  }
  read_tallies(model, s);
  if (model.has("eigenvalue") || s.eigenvalue) {
    io::Block e = model.child("eigenvalue", s.eigenvalue);
    if (!s.eigenvalue) e.error("", "eigenvalue generations belong to mode: eigenvalue");
    s.inactive = e.count("inactive", 50, 0, 100000);
    s.active = e.count("active", std::nullopt, 1, 100000);
    e.finish();
    bool fissile = false;
    for (const int m : s.region_material) fissile = fissile || s.materials[static_cast<std::size_t>(m)].fissile();
    if (s.eigenvalue && model.valid() && !s.region_material.empty() && !fissile)
      model.error("regions", "no region holds a fissile material (fission and nu > 0): there is no eigenvalue");
  }
  if (model.valid() && model.diagnostics().empty()) check_histories_end(model, s);
  s.implicit_capture = model.choice("capture", {"analog", "implicit"}, std::string("analog")) == "implicit";
  s.weight_cutoff = model.real("weight_cutoff", 0.25, io::Range{0, 1, true, true});
  return model.valid() && model.diagnostics().empty();
}

bool parse_materials_and_geometry(io::Block& model, TransportSpec& s) {
  std::vector<std::string> names;
  for (io::Block& b : model.children("materials")) {
    Material m = read_material(b);
    for (const std::string& earlier : names)
      if (earlier == m.name) b.error("name", "material '" + m.name + "' is defined twice");
    names.push_back(m.name);
    s.materials.push_back(std::move(m));
  }
  if (s.materials.empty() && model.valid()) model.error("materials", "needs at least one material");
  if (!s.materials.empty()) {
    s.groups = s.materials.front().groups;
    for (const Material& m : s.materials)
      if (m.groups != s.groups)
        model.error("materials", fmt::format("'{}' has {} groups, '{}' has {}: every material needs the same groups",
                                             m.name, m.groups, s.materials.front().name, s.groups));
  }
  io::Block g = model.child("geometry", true);
  read_geometry(g, names, s.geometry);
  if (s.geometry.shape == Shape::Csg) {  // its regions are the materials, which its cells name
    if (model.has("regions")) model.error("regions", "a csg geometry's cells name their materials; drop regions");
    s.region_material.resize(s.materials.size());
    std::iota(s.region_material.begin(), s.region_material.end(), 0);
    return model.valid() && g.valid() && model.diagnostics().empty();
  }

  // One material per region, by name.
  if (!model.has("regions")) model.error("", "missing required key 'regions' (one material per region)");
  model.schema_note("regions", "", "the materials' names");
  const std::vector<std::string> regions = names.empty() ? std::vector<std::string>{} : model.choices("regions", names);
  if (model.valid() && g.valid() && regions.size() != s.geometry.regions())
    model.error("regions", fmt::format("names {} materials for the geometry's {} regions", regions.size(),
                                       s.geometry.regions()));
  for (const std::string& r : regions)
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == r) s.region_material.push_back(static_cast<int>(i));
  if (model.valid() && s.region_material.size() != regions.size())
    model.error("regions", "names a material that is not defined");
  return model.valid() && g.valid() && model.diagnostics().empty();
}


// The keys of a transport job's model: block.
// Each key once: its type, default, range or choices and meaning as its reader
// above describes them (a test loads every job the tests do and fails on a key
// read that is missing here or described otherwise).
const std::vector<io::KeySchema>& transport_keys() {
  static const std::vector<io::KeySchema> keys{
      {"model.mode", "one of", "", "fixed_source, eigenvalue",
       "transport: a fixed source, or the k eigenvalue by power iteration"},
      {"model.materials", "list of blocks", "-", "",
       "transport: the materials, each with macroscopic cross sections per cm"},
      {"model.materials[].name", "text", "", "",
       "transport: the material's name, which regions refer to"},
      {"model.materials[].total", "list of numbers or number", "(depends on other keys)", ">= 0",
       "transport: the total cross section (one per group)"},
      {"model.materials[].scatter", "matrix or number", "0", ">= 0",
       "transport: the scatter cross section (one group) or matrix [from][to]"},
      {"model.materials[].fission", "list of numbers or number", "(depends on other keys)", ">= 0",
       "transport: the fission cross section (one per group)"},
      {"model.materials[].nu", "list of numbers or number", "(depends on other keys)", ">= 0",
       "transport: neutrons per fission (one per group)"},
      {"model.materials[].chi", "list of numbers", "-", ">= 0",
       "transport: the fission spectrum over the groups (sums to 1)"},
      {"model.materials[].mean_cosine", "number", "0", "in [-0.333333, 0.333333]",
       "transport: the mean cosine of linearly anisotropic scattering (0: isotropic)"},
      {"model.materials[].capture", "list of numbers or number", "what the total leaves", ">= 0",
       "transport: the capture cross section per group, which must add up with scattering and fission to the total"},
      {"model.materials[].library", "block", "", "",
       "transport: the cross sections from an HDF5 library in OpenMC's MGXS layout, instead of total, scatter, ..."},
      {"model.materials[].library.file", "text", "", "",
       "transport: the library (mgxs.h5), taken from the config's folder when relative"},
      {"model.materials[].library.set", "text", "the material's name", "",
       "transport: the library's data set for this material"},
      {"model.materials[].library.temperature", "text", "the data set's only one", "",
       "transport: the data set's temperature, e.g. 294K"},
      {"model.materials[].library.correction", "one of", "none", "none, transport",
       "transport: transport: each group's P1 out-scatter taken from its total and in-group scattering"},
      {"model.materials[].loaded_from", "text", "-", "",
       "written by mcsim: the library, data set and temperature a material's inline cross sections came from"},
      {"model.geometry", "block", "", "",
       "transport: the shape and its surfaces"},
      {"model.geometry.type", "one of", "", "infinite, slab, sphere, csg",
       "transport: an infinite medium, a slab of layers, concentric spheres, or constructive solid geometry"},
      {"model.geometry.bounds", "block", "", "",
       "transport: csg: the box that holds the model (the geometry check, default sources and the entropy mesh span it)"},
      {"model.geometry.bounds.lower_left", "list of numbers", "-", "",
       "transport: csg: the box's least x y (z) in cm; two numbers for a 2-D model"},
      {"model.geometry.bounds.upper_right", "list of numbers", "-", "",
       "transport: csg: the box's greatest x y (z) in cm"},
      {"model.geometry.check_points", "whole number", "100000", ">= 0, <= 4294967296",
       "transport: csg: points of the bounds sampled for overlapping cells and holes before the run (0: none)"},
      {"model.geometry.surfaces", "list of blocks", "-", "",
       "transport: csg: the surfaces, by name, in OpenMC's kinds"},
      {"model.geometry.surfaces[].name", "text", "", "",
       "transport: csg: the surface's name, which regions use"},
      {"model.geometry.surfaces[].type", "one of", "",
       "x-plane, y-plane, z-plane, plane, x-cylinder, y-cylinder, z-cylinder, sphere, quadric",
       "transport: csg: the kind of surface"},
      {"model.geometry.surfaces[].coefficients", "list of numbers", "-",
       "by type: planes x0, y0, z0 or a b c d; cylinders y0 z0 r, x0 z0 r, x0 y0 r; sphere x0 y0 z0 r; quadric a b c d e f g h j k",
       "transport: csg: the surface's coefficients in cm"},
      {"model.geometry.surfaces[].boundary", "one of", "transmission", "transmission, vacuum, reflective, periodic",
       "transport: csg: what a particle meets at the surface, where it bounds the root universe"},
      {"model.geometry.surfaces[].periodic_surface", "text", "", "",
       "transport: csg: a periodic plane's partner, where a particle reappears"},
      {"model.geometry.cells", "list of blocks", "-", "",
       "transport: csg: the cells, each a region filled with a material, a universe or a lattice"},
      {"model.geometry.cells[].name", "text", "", "",
       "transport: csg: the cell's name"},
      {"model.geometry.cells[].universe", "text", "root", "",
       "transport: csg: the universe the cell belongs to"},
      {"model.geometry.cells[].region", "text", "-", "",
       "transport: csg: half-spaces of surfaces (-name, +name) joined by space (and), | (or), ~ (not) and ( ); empty: everywhere"},
      {"model.geometry.cells[].material", "text", "", "",
       "transport: csg: the material that fills the cell"},
      {"model.geometry.cells[].fill", "text", "", "",
       "transport: csg: the universe that fills the cell"},
      {"model.geometry.cells[].lattice", "text", "", "",
       "transport: csg: the lattice that fills the cell"},
      {"model.geometry.cells[].translation", "list of numbers", "-", "",
       "transport: csg: where the filled universe's origin sits, x y z in cm"},
      {"model.geometry.lattices", "list of blocks", "-", "",
       "transport: csg: rectangular or hexagonal lattices of universes"},
      {"model.geometry.lattices[].name", "text", "", "",
       "transport: csg: the lattice's name"},
      {"model.geometry.lattices[].type", "one of", "rectangular", "rectangular, hexagonal",
       "transport: csg: boxes on a grid, or hexagons in rings (in layers along z for a 3-D one)"},
      {"model.geometry.lattices[].pitch", "list of numbers", "-", "> 0",
       "transport: csg: the elements' widths in cm: x y (a 2-D lattice) or x y z; hexagonal: the distance between "
       "neighbouring centres, and for a 3-D lattice its layers' height"},
      {"model.geometry.lattices[].center", "list of numbers", "-", "",
       "transport: csg: hexagonal: the centre element's centre, x y, or x y z (3-D: the middle of its layers)"},
      {"model.geometry.lattices[].orientation", "one of", "y", "y, x",
       "transport: csg: hexagonal: y, neighbours above and below each element (flat top and bottom); x, beside it"},
      {"model.geometry.lattices[].rings", "any", "-", "",
       "transport: csg: hexagonal: rings of universe names, the outermost first and the centre last, each from its "
       "top element (orientation y) or its east element (x) clockwise; ring r from the centre holds 6 r"},
      {"model.geometry.lattices[].layers", "any", "-", "",
       "transport: csg: hexagonal, 3-D (two pitches): a list of rings as `rings` takes them, a layer each, from "
       "the lowest z"},
      {"model.geometry.lattices[].lower_left", "list of numbers", "-", "",
       "transport: csg: the lattice's lower left corner"},
      {"model.geometry.lattices[].universes", "any", "-", "",
       "transport: csg: the elements' universe names, rows from the top (highest y) down, each from the lowest x; "
       "in 3-D a list of such layers from the lowest z"},
      {"model.geometry.lattices[].outer", "text", "-", "",
       "transport: csg: the universe outside the lattice's elements"},
      {"model.regions", "list, each one of", "", "the materials' names",
       "transport: one material per region, inside out or left to right"},
      {"model.tallies", "list, each one of", "-", "transmission, reflection, absorption, leakage, collisions, flux or absorption, leakage, collisions",
       "transport: what to score"},
      {"model.tallies[].name", "text", "", "",
       "transport: csg: the tally's name, which its table takes"},
      {"model.tallies[].filter", "one of", "", "cell, material, lattice, mesh",
       "transport: csg: the bins: each cell, material, lattice element (pin powers) or mesh bin"},
      {"model.tallies[].lattice", "text", "", "a lattice's name",
       "transport: csg: the lattice a lattice filter bins by"},
      {"model.tallies[].lower_left", "list of numbers", "-", "",
       "transport: csg: a mesh's least corner (default: the bounds')"},
      {"model.tallies[].upper_right", "list of numbers", "-", "",
       "transport: csg: a mesh's greatest corner (default: the bounds')"},
      {"model.tallies[].dimension", "list of numbers", "-", "in [1, 1e+06]",
       "transport: csg: a mesh's bins: nx ny (2-D) or nx ny nz"},
      {"model.eigenvalue", "block", "", "",
       "transport: the generations of an eigenvalue run"},
      {"model.eigenvalue.inactive", "whole number", "50", ">= 0, <= 100000",
       "transport: generations discarded while the fission source settles"},
      {"model.eigenvalue.active", "whole number", "", ">= 1, <= 100000",
       "transport: generations that k and the tallies average over"},
      {"model.capture", "one of", "analog", "analog, implicit",
       "transport: analog absorption, or implicit capture with Russian roulette"},
      {"model.weight_cutoff", "number", "0.25", "in (0, 1)",
       "transport: with implicit capture, the weight below which Russian roulette is played"},
      {"model.geometry.boundaries", "list of numbers", "-", "",
       "transport: a slab's planes in cm, increasing (one region between two)"},
      {"model.geometry.left", "one of", "vacuum", "vacuum, reflective",
       "transport: a slab's left boundary"},
      {"model.geometry.right", "one of", "vacuum", "vacuum, reflective",
       "transport: a slab's right boundary"},
      {"model.tallies[].flux", "block", "", "",
       "transport: the scalar flux on a mesh, by track length and by collisions"},
      {"model.tallies[].flux.bins", "whole number", "100", ">= 1, <= 100000",
       "transport: equal mesh bins over the geometry"},
      {"model.geometry.radii", "list of numbers", "-", "> 0",
       "transport: the spheres' radii in cm, increasing outwards"},
      {"model.geometry.outer", "one of", "vacuum", "vacuum, reflective",
       "transport: the outer sphere's boundary"},
      {"model.source", "block", "", "",
       "transport: where fixed-source particles start"},
      {"model.source.type", "one of", "", "beam, isotropic or point, box, cell",
       "transport: a beam at a point, or isotropic at a point or in a region; csg: isotropic at a point, in a box or in a cell"},
      {"model.source.cell", "text", "", "a cell's name",
       "transport: csg: a cell source's cell, drawn within the bounds"},
      {"model.source.lower_left", "list of numbers", "-", "",
       "transport: csg: a box source's least corner (default: the bounds')"},
      {"model.source.upper_right", "list of numbers", "-", "",
       "transport: csg: a box source's greatest corner (default: the bounds')"},
      {"model.source.fissionable_only", "one of", "false", "false, true",
       "transport: csg: keep only places where the material fissions (drawn again elsewhere)"},
      {"model.source.group", "whole number", "0", "a group, 0 = the fastest",
       "transport: the energy group particles start in"},
      {"model.source.region", "whole number", "", "a region, 0 = the innermost or leftmost",
       "transport: an isotropic source spread uniformly over this region"},
      {"model.source.position", "number or list of numbers", "(depends on other keys)", "",
       "transport: the source point in cm (a beam starts at a slab's left face; a slab's point source needs it); csg: x y (z)"},
      {"model.source.direction", "number", "1", "in [-1, 1]",
       "transport: a beam's direction cosine to the x axis"},
  };
  return keys;
}

}  // namespace mcsim::transport
