// Transport specs for tests from text: materials and geometry read as a job's
// model block reads them, and the pieces of a CSG model by name.
#pragma once
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "io/block.hpp"
#include "io/diagnostics.hpp"
#include "models/transport/geometry/csg_geometry.hpp"
#include "models/transport/transport_spec.hpp"

// `materials`, `geometry` and `regions` of a model block; it must read cleanly.
inline mcsim::transport::TransportSpec materials_spec(const std::string& text) {
  mcsim::io::Diagnostics diag("t.yaml");
  mcsim::io::Block model(YAML::Load(text), "model", diag);
  mcsim::transport::TransportSpec s;
  mcsim::transport::parse_materials_and_geometry(model, s);
  INFO(diag.report());
  REQUIRE(diag.empty());
  return s;
}

inline mcsim::transport::geometry::SurfaceSpec csg_surface(
    const std::string& name, mcsim::transport::geometry::SurfaceKind kind, std::initializer_list<double> c,
    mcsim::transport::geometry::SurfaceBoundary b = mcsim::transport::geometry::SurfaceBoundary::Transmission,
    const std::string& partner = "") {
  mcsim::transport::geometry::SurfaceSpec s;
  s.name = name, s.kind = kind, s.boundary = b, s.periodic_partner = partner;
  std::copy(c.begin(), c.end(), s.c.begin());
  return s;
}

inline mcsim::transport::geometry::CellSpec csg_cell(const std::string& name, const std::string& universe,
                                                    const std::string& region, mcsim::transport::geometry::Fill kind,
                                                    const std::string& fill) {
  mcsim::transport::geometry::CellSpec c;
  c.name = name, c.universe = universe, c.region = region, c.fill_kind = kind, c.fill = fill;
  return c;
}
