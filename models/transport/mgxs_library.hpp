// A material's multigroup cross sections from an HDF5 library in OpenMC's MGXS
// layout (mgxs.h5: the attribute energy_groups; per data set NAME its attributes
// representation and order, and per temperature NAME/<T>K/ the datasets
// total, absorption, fission, nu-fission, chi and scatter_data/{g_min, g_max,
// scatter_matrix}, the scattering matrix flattened by incoming group, outgoing
// groups g_min..g_max (from 1), then Legendre order; fission, nu-fission and chi
// where the set is fissionable). The format its users already have; isotropic
// (angle-independent) data only.
#pragma once
#include <string>
#include <vector>

namespace mcsim::transport {

struct LibraryMaterial {
  int groups = 0;
  std::string temperature;                          // the <T>K read
  std::vector<double> total, absorption, fission, nu_fission, chi;  // per group
  std::vector<double> scatter, scatter_p1;          // G x G from g to h: P0, and P1 (zeros past order 0)
};

// Reads data set `name` at `temperature` ("" when the set has exactly one).
// Throws std::runtime_error naming the file and the HDF5 path of what is missing or
// wrong (a temperature not there lists those that are).
LibraryMaterial read_library_material(const std::string& path, const std::string& name, const std::string& temperature);

}  // namespace mcsim::transport
