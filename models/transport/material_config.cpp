// A material of a transport job's `materials:` list: its cross sections inline or
// from an MGXS library, checked to balance (capture is what the total leaves).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "io/schema.hpp"
#include "models/transport/mgxs_library.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport {

double Material::scatter_out(int g) const {
  double s = 0;
  for (int h = 0; h < groups; ++h) s += scatter[static_cast<std::size_t>(g * groups + h)];
  return s;
}

double Material::chi_cumulative(int g) const {
  double c = 0;
  for (int h = 0; h <= g; ++h) c += chi[static_cast<std::size_t>(h)];
  return c;
}

bool Material::fissile() const {
  for (int g = 0; g < groups; ++g)
    if (fission[static_cast<std::size_t>(g)] > 0 && nu[static_cast<std::size_t>(g)] > 0) return true;
  return false;
}

namespace {

using io::Range;
// Cross sections typed to a few digits must add up to this relative precision.
constexpr double kBalanceTolerance = 1e-6;
const Range kNonNegative{0, 1e308, false, false};

// A per-group quantity: one number for one group, else a list of G.
std::vector<double> per_group(io::Block& b, const std::string& key, int groups, std::optional<double> fallback) {
  if (!b.has(key)) {
    if (!fallback) b.real(key, std::nullopt);  // reports the missing key
    return std::vector<double>(static_cast<std::size_t>(groups), fallback.value_or(0));
  }
  if (b.has_scalar(key)) {
    const double v = b.real(key, std::nullopt, kNonNegative);
    if (groups != 1) b.error(key, fmt::format("needs one value per group ({})", groups));
    return std::vector<double>(static_cast<std::size_t>(groups), v);
  }
  std::vector<double> v = b.reals(key, kNonNegative);
  if (b.valid() && static_cast<int>(v.size()) != groups)
    b.error(key, fmt::format("has {} values for {} groups", v.size(), groups));
  v.resize(static_cast<std::size_t>(groups), 0.0);
  return v;
}

// A material's cross sections from an MGXS library (models/transport/mgxs_library.hpp),
// put inline into the job's text (so a resume or a rerun reads what this run did)
// as the keys below read them, with `loaded_from` saying whence. A collision that is
// not an absorption scatters, to the groups in proportion to the library's P0 row
// (OpenMC's multigroup rule: libraries whose scattering does not fill total -
// absorption, such as C5G7's, mean it so); `correction: transport` first takes each
// group's P1 out-scatter from its total and its in-group scattering.
bool load_library(io::Block& b, const std::string& material) {
  io::Block lib = b.child("library", true);
  const std::string file = lib.text("file", std::nullopt);
  lib.schema_note("set", "the material's name");
  const std::string set = lib.text("set", material);
  lib.schema_note("temperature", "the data set's only one");
  const std::string temperature = lib.text("temperature", std::string(""));
  const bool correct = lib.choice("correction", {"none", "transport"}, std::string("none")) == "transport";
  lib.finish();
  for (const char* k : {"total", "scatter", "fission", "nu", "chi", "capture"})
    if (b.has(k)) b.error(k, "the cross sections come from the library; give them there or here, not both");
  if (!lib.valid() || !b.valid()) return false;
  LibraryMaterial x;
  try {
    x = read_library_material(b.data_path(file), set, temperature);
  } catch (const std::exception& e) {
    lib.error("file", e.what());
    return false;
  }
  const auto fail = [&lib](const char* key, const std::string& message) {
    lib.error(key, message);
    return false;
  };
  const int G = x.groups;
  const auto at = [G](int g, int h) { return static_cast<std::size_t>(g * G + h); };
  std::vector<double> nu(static_cast<std::size_t>(G), 0.0), capture(nu);
  for (int g = 0; g < G; ++g) {
    const auto i = static_cast<std::size_t>(g);
    if (correct) {
      double p1 = 0;
      for (int h = 0; h < G; ++h) p1 += x.scatter_p1[at(g, h)];
      x.total[i] -= p1, x.scatter[at(g, g)] -= p1;
      if (!(x.scatter[at(g, g)] >= 0) || !(x.total[i] > 0))
        return fail("correction", fmt::format("{}: group {}'s P1 out-scatter {} exceeds its in-group scattering", set, g + 1, p1));
    }
    double out = 0;
    for (int h = 0; h < G; ++h) out += x.scatter[at(g, h)];
    const double scatters = x.total[i] - x.absorption[i];
    if (scatters < -kBalanceTolerance * x.total[i] || (scatters > kBalanceTolerance * x.total[i] && !(out > 0)))
      return fail("file", fmt::format("{}: group {} has total {} and absorption {}, and no scattering to fill the rest",
                                      set, g + 1, x.total[i], x.absorption[i]));
    for (int h = 0; h < G; ++h) x.scatter[at(g, h)] = out > 0 ? x.scatter[at(g, h)] * std::max(0.0, scatters) / out : 0.0;
    capture[i] = x.absorption[i] - x.fission[i];
    if (capture[i] < -kBalanceTolerance * x.total[i])
      return fail("file", fmt::format("{}: group {}'s fission {} exceeds its absorption {}", set, g + 1, x.fission[i],
                                      x.absorption[i]));
    capture[i] = std::max(0.0, capture[i]);
    if (x.nu_fission[i] > 0 && !(x.fission[i] > 0))
      return fail("file", fmt::format("{}: group {} has nu-fission {} but no fission", set, g + 1, x.nu_fission[i]));
    nu[i] = x.fission[i] > 0 ? x.nu_fission[i] / x.fission[i] : 0.0;
  }
  YAML::Node rows(YAML::NodeType::Sequence);
  for (int g = 0; g < G; ++g)
    rows.push_back(io::number_sequence(std::vector<double>(x.scatter.begin() + static_cast<std::ptrdiff_t>(at(g, 0)),
                                                           x.scatter.begin() + static_cast<std::ptrdiff_t>(at(g, 0) + G))));
  b.remove("library");
  b.set("total", io::number_sequence(x.total));
  if (G == 1) b.set("scatter", YAML::Node(fmt::format("{:.17g}", x.scatter.front())));
  else b.set("scatter", rows);
  b.set("fission", io::number_sequence(x.fission));
  b.set("nu", io::number_sequence(nu));
  b.set("chi", io::number_sequence(x.chi));
  b.set("capture", io::number_sequence(capture));
  b.set("loaded_from", YAML::Node(fmt::format("{}: /{}/{}{}", file, set, x.temperature, correct ? ", transport-corrected" : "")));
  return true;
}

}  // namespace

Material read_material(io::Block& b) {
  Material m;
  m.name = b.text("name", std::nullopt);
  b.text("loaded_from", std::string(""));  // where a library's data came from, once put inline
  if (b.has("library") && !load_library(b, m.name)) {
    // Its error said why; a one-group material of nothing keeps the checks after it in bounds.
    m.total = m.capture = m.fission = m.nu = m.chi = m.scatter = {0.0};
    return m;
  }
  // The group count follows `total`: one number, or a list of G.
  m.groups = b.has("total") && !b.has_scalar("total") ? static_cast<int>(b.reals("total", kNonNegative).size()) : 1;
  if (m.groups < 1) m.groups = 1;
  const int G = m.groups;
  m.total = per_group(b, "total", G, std::nullopt);
  b.schema_note("scatter", "0");  // several groups: no scattering without a matrix
  if (G == 1) {
    m.scatter = {b.real("scatter", 0.0, kNonNegative)};
  } else if (b.has("scatter")) {
    const auto rows = b.matrix("scatter", kNonNegative);
    if (b.valid() && (rows.size() != static_cast<std::size_t>(G)))
      b.error("scatter", fmt::format("needs {} rows (from each group) of {} values (to each group)", G, G));
    m.scatter.assign(static_cast<std::size_t>(G * G), 0.0);
    for (std::size_t g = 0; g < rows.size() && g < static_cast<std::size_t>(G); ++g) {
      if (rows[g].size() != static_cast<std::size_t>(G))
        b.error("scatter", fmt::format("row {} has {} values for {} groups", g, rows[g].size(), G));
      for (std::size_t h = 0; h < rows[g].size() && h < static_cast<std::size_t>(G); ++h) m.scatter[g * G + h] = rows[g][h];
    }
  } else {
    m.scatter.assign(static_cast<std::size_t>(G * G), 0.0);
  }
  m.fission = per_group(b, "fission", G, 0.0);
  m.nu = per_group(b, "nu", G, 0.0);
  m.chi = per_group(b, "chi", G, G == 1 ? 1.0 : 0.0);  // one group: every neutron is born in it
  m.mean_cosine = b.real("mean_cosine", 0.0, Range{-1.0 / 3, 1.0 / 3});
  b.schema_note("capture", "what the total leaves");
  const bool capture_given = b.has("capture");
  m.capture = per_group(b, "capture", G, 0.0);
  b.finish();
  if (!b.valid()) return m;

  for (int g = 0; g < G; ++g) {
    const auto i = static_cast<std::size_t>(g);
    if (!(m.total[i] > 0)) b.error("total", fmt::format("group {}: must be > 0", g));
    if (m.fission[i] > 0 && !(m.nu[i] > 0)) b.error("nu", fmt::format("group {}: a fission cross section needs nu > 0", g));
    const double rest = m.total[i] - m.scatter_out(g) - m.fission[i];
    if (!capture_given) {
      // Capture is what the total leaves over.
      if (rest < -kBalanceTolerance * m.total[i])
        b.error("total", fmt::format("group {}: scatter {} plus fission {} exceed the total {}", g, m.scatter_out(g),
                                     m.fission[i], m.total[i]));
      m.capture[i] = std::max(0.0, rest);
    } else if (std::fabs(rest - m.capture[i]) > kBalanceTolerance * m.total[i]) {
      b.error("total", fmt::format("group {}: scatter {} plus absorption {} (capture {} + fission {}) is {}, not the total {}",
                                   g, m.scatter_out(g), m.absorption(g), m.capture[i], m.fission[i],
                                   m.scatter_out(g) + m.absorption(g), m.total[i]));
    }
  }
  if (m.fissile()) {
    const double sum = std::accumulate(m.chi.begin(), m.chi.end(), 0.0);
    if (std::fabs(sum - 1) > kBalanceTolerance) b.error("chi", fmt::format("the fission spectrum sums to {}, not 1", sum));
  }
  return m;
}

}  // namespace mcsim::transport
