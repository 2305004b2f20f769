#include "models/transport/mgxs_library.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "io/hdf5.hpp"

namespace mcsim::transport {

namespace h5 = io::h5;

namespace {

// A per-group dataset of G values, named by its HDF5 path when it is not.
std::vector<double> per_group(hid_t at, const std::string& where, const std::string& name, int G) {
  if (!h5::exists(at, name)) throw std::runtime_error(where + "/" + name + ": missing");
  std::size_t rows = 0, cols = 0;
  std::vector<double> v = h5::read_dataset(at, name, &rows, &cols);
  if (cols != 0 || rows != static_cast<std::size_t>(G))
    throw std::runtime_error(fmt::format("{}/{}: {} values where the library's {} groups need {}{}", where, name, v.size(),
                                         G, G, cols ? " (a matrix: angle- or group-dependent data is not supported)" : ""));
  for (double x : v)
    if (!std::isfinite(x) || x < 0) throw std::runtime_error(fmt::format("{}/{}: a value of {} (must be >= 0)", where, name, x));
  return v;
}

}  // namespace

LibraryMaterial read_library_material(const std::string& path, const std::string& name, const std::string& temperature) {
  return h5::read_named(path, path, [&](const std::string& p) {
    const h5::Handle file = h5::open_file(p);
    LibraryMaterial m;
    if (!h5::exists_attr(file, "energy_groups")) throw std::runtime_error("no attribute energy_groups: not an MGXS library");
    const std::uint64_t groups = h5::read_attr_uint(file, "energy_groups");
    if (groups < 1 || groups > 1000) throw std::runtime_error(fmt::format("energy_groups is {} (1 to 1000)", groups));
    m.groups = static_cast<int>(groups);
    const int G = m.groups;
    if (name.empty() || name.find('/') != std::string::npos || !h5::exists(file, name)) {
      std::string sets;
      for (const std::string& c : h5::children(file)) sets += (sets.empty() ? "" : ", ") + c;
      throw std::runtime_error(fmt::format("no data set '{}' (it holds {})", name, sets.empty() ? "none" : sets));
    }
    const h5::Handle set = h5::open_group(file, name);
    if (h5::exists_attr(set, "representation") && h5::read_attr_string(set, "representation") != "isotropic")
      throw std::runtime_error("/" + name + ": representation '" + h5::read_attr_string(set, "representation") +
                               "': only isotropic data is supported");
    std::vector<std::string> temperatures;
    for (const std::string& c : h5::children(set))
      if (c.size() > 1 && c.back() == 'K' && c != "kTs") temperatures.push_back(c);
    std::string listed;
    for (const std::string& t : temperatures) listed += (listed.empty() ? "" : ", ") + t;
    if (temperature.empty() && temperatures.size() != 1)
      throw std::runtime_error(fmt::format("/{} holds {} temperatures ({}): name one", name, temperatures.size(), listed));
    m.temperature = temperature.empty() ? temperatures.front() : temperature;
    if (!h5::exists(set, m.temperature))
      throw std::runtime_error(fmt::format("/{} has no temperature {} (it has {})", name, m.temperature, listed));
    const std::string where = "/" + name + "/" + m.temperature;
    const h5::Handle at = h5::open_group(set, m.temperature);
    m.total = per_group(at, where, "total", G);
    m.absorption = per_group(at, where, "absorption", G);
    // Fissionable where it has nu-fission (the attribute is a number or, from h5py, a bool).
    const bool fissionable = h5::exists(at, "nu-fission");
    m.fission = fissionable ? per_group(at, where, "fission", G) : std::vector<double>(static_cast<std::size_t>(G), 0.0);
    m.nu_fission = fissionable ? per_group(at, where, "nu-fission", G) : m.fission;
    m.chi = fissionable ? per_group(at, where, "chi", G) : m.fission;
    if (h5::exists(at, "multiplicity_matrix") || h5::exists(at, "scatter_data/multiplicity_matrix"))
      throw std::runtime_error(where + ": a multiplicity matrix ((n,xn) scattering) is not supported");
    // The scattering matrix, flattened by incoming group, outgoing range, order.
    const std::string sd = where + "/scatter_data";
    if (!h5::exists(at, "scatter_data")) throw std::runtime_error(sd + ": missing");
    const h5::Handle s = h5::open_group(at, "scatter_data");
    const std::uint64_t order = h5::exists_attr(set, "order") ? h5::read_attr_uint(set, "order") : 0;
    if (order > 32) throw std::runtime_error(fmt::format("/{}: order {} (at most 32)", name, order));
    const std::vector<double> lo = per_group(s, sd, "g_min", G), hi = per_group(s, sd, "g_max", G);
    std::size_t n = 0;
    const std::vector<double> flat = h5::read_dataset(s, "scatter_matrix", &n, nullptr);
    m.scatter.assign(static_cast<std::size_t>(G * G), 0.0);
    m.scatter_p1.assign(static_cast<std::size_t>(G * G), 0.0);
    std::size_t at_value = 0;
    for (int g = 0; g < G; ++g) {
      const auto i = static_cast<std::size_t>(g);
      if (!(lo[i] >= 1 && hi[i] <= G && lo[i] <= hi[i] && lo[i] == std::floor(lo[i]) && hi[i] == std::floor(hi[i])))
        throw std::runtime_error(fmt::format("{}: group {} scatters to groups {} to {} (of 1 to {})", sd, g + 1, lo[i], hi[i], G));
      for (int h = static_cast<int>(lo[i]) - 1; h < static_cast<int>(hi[i]); ++h)
        for (std::uint64_t l = 0; l <= order; ++l, ++at_value) {
          if (at_value >= flat.size())
            throw std::runtime_error(fmt::format("{}/scatter_matrix: {} values, fewer than g_min, g_max and order {} need",
                                                 sd, flat.size(), order));
          if (l == 0) m.scatter[i * G + static_cast<std::size_t>(h)] = flat[at_value];
          if (l == 1) m.scatter_p1[i * G + static_cast<std::size_t>(h)] = flat[at_value];
        }
    }
    if (at_value != flat.size())
      throw std::runtime_error(fmt::format("{}/scatter_matrix: {} values, where g_min, g_max and order {} need {}", sd,
                                           flat.size(), order, at_value));
    for (double x : m.scatter)
      if (!std::isfinite(x) || x < 0) throw std::runtime_error(fmt::format("{}/scatter_matrix: a P0 value of {} (must be >= 0)", sd, x));
    return m;
  });
}

}  // namespace mcsim::transport
