// Small transport jobs for tests: a run block and a model block around the
// materials, geometry and the rest of `model`.
#pragma once
#include <string>

inline std::string transport_job(const std::string& model, const std::string& run = "paths: 200_000, chunk_paths: 4096") {
  return "run: { name: t, seed: 7, " + run + " }\nmodel:\n  type: transport\n" + model;
}

// The one-group critical slab PUa-1-0-SL of LA-13511: k = 1 at half-thickness 1.853722 cm.
inline std::string pua_slab_model(const std::string& extra = "") {
  return "  mode: eigenvalue\n"
         "  materials: [{ name: PUa, total: 0.32640, scatter: 0.225216, fission: 0.081600, nu: 3.24 }]\n"
         "  geometry: { type: slab, boundaries: [-1.853722, 1.853722] }\n"
         "  regions: [PUa]\n"
         "  eigenvalue: { inactive: 20, active: 100 }\n" + extra;
}

// The speed benchmark's slab: 10 mean free paths, scattering ratio 0.9, a normal
// beam, a 100-bin flux mesh.
inline std::string beam_slab_model(const std::string& extra = "") {
  return "  mode: fixed_source\n"
         "  materials: [{ name: m, total: 1.0, scatter: 0.9 }]\n"
         "  geometry: { type: slab, boundaries: [0, 10] }\n"
         "  regions: [m]\n"
         "  source: { type: beam, position: 0, direction: 1 }\n"
         "  tallies: [transmission, reflection, absorption, leakage, collisions, { flux: { bins: 100 } }]\n" + extra;
}
