// CSG transport jobs for tests: a mirrored square pin cell (a fuel cylinder in
// water) alone, or an n x n lattice of it; the pin in a vacuum sphere.
#pragma once
#include <string>

#include "transport_job.hpp"

// The pin's materials, one group: the fuel fissions, the water scatters forwards.
inline std::string pin_materials() {
  return "  materials:\n"
         "    - { name: fuel, total: 1.2, scatter: 0.4, fission: 0.3, nu: 2.5, capture: 0.5 }\n"
         "    - { name: water, total: 2.0, scatter: 1.9, capture: 0.1, mean_cosine: 0.3 }\n";
}

// n x n pins of pitch 1.26 (n = 1: the pin cell alone), centred on the origin,
// mirrored all round; 2-D (no z planes).
inline std::string pin_lattice_geometry(int n) {
  const std::string h = std::to_string(0.63 * n);
  std::string g = "  geometry:\n"
                  "    type: csg\n"
                  "    bounds: { lower_left: [-" + h + ", -" + h + "], upper_right: [" + h + ", " + h + "] }\n"
                  "    surfaces:\n"
                  "      - { name: pin, type: z-cylinder, coefficients: [0, 0, 0.54] }\n"
                  "      - { name: w, type: x-plane, coefficients: [-" + h + "], boundary: reflective }\n"
                  "      - { name: e, type: x-plane, coefficients: [" + h + "], boundary: reflective }\n"
                  "      - { name: s, type: y-plane, coefficients: [-" + h + "], boundary: reflective }\n"
                  "      - { name: n, type: y-plane, coefficients: [" + h + "], boundary: reflective }\n"
                  "    cells:\n"
                  "      - { name: fuel, universe: pin, region: -pin, material: fuel }\n"
                  "      - { name: water, universe: pin, region: +pin, material: water }\n";
  if (n == 1) return g + "      - { name: box, region: +w -e +s -n, fill: pin }\n";
  std::string rows;
  for (int j = 0; j < n; ++j) {
    rows += j ? ", [" : "[";
    for (int i = 0; i < n; ++i) rows += i ? ", pin" : "pin";
    rows += "]";
  }
  return g + "      - { name: box, region: +w -e +s -n, lattice: grid }\n"
             "    lattices:\n"
             "      - { name: grid, pitch: [1.26, 1.26], lower_left: [-" + h + ", -" + h + "], universes: [" + rows + "] }\n";
}

// A fixed source in 3-D: the pin's fuel as a cell source, the pin inside a vacuum
// sphere of radius 2, and `tallies`.
inline std::string pin_in_sphere_model(const std::string& tallies) {
  return "  mode: fixed_source\n" + pin_materials() +
         "  geometry:\n"
         "    type: csg\n"
         "    bounds: { lower_left: [-2, -2, -2], upper_right: [2, 2, 2] }\n"
         "    surfaces:\n"
         "      - { name: pin, type: z-cylinder, coefficients: [0, 0, 0.54] }\n"
         "      - { name: ball, type: sphere, coefficients: [0, 0, 0, 2], boundary: vacuum }\n"
         "    cells:\n"
         "      - { name: fuel, region: -pin -ball, material: fuel }\n"
         "      - { name: water, region: +pin -ball, material: water }\n"
         "  source: { type: cell, cell: fuel }\n"
         "  tallies: " + tallies + "\n";
}
