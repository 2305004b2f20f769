#include "app/run/transport/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace mcsim {

namespace {

// A bin of a CSG tally as its table names it: a cell's or material's name, or a
// lattice element's or mesh bin's indices i, j, k (j = 0 the lowest row).
struct BinPlace {
  std::string name;
  int i = 0, j = 0, k = 0;
};
std::vector<BinPlace> bin_places(const transport::TransportSpec& s, const transport::geometry::CsgTallySpec& t) {
  using transport::geometry::TallyFilter;
  std::vector<BinPlace> out;
  const auto& csg = *s.geometry.csg;
  if (t.filter == TallyFilter::Cell) {
    for (std::size_t c = 0; c < csg.spec().cells.size(); ++c) out.push_back({csg.spec().cells[c].name, static_cast<int>(c)});
  } else if (t.filter == TallyFilter::Material) {
    for (std::size_t m = 0; m < s.materials.size(); ++m) out.push_back({s.materials[m].name, static_cast<int>(m)});
  } else {
    const auto shape = t.filter == TallyFilter::Lattice ? csg.spec().lattices[static_cast<std::size_t>(t.lattice)].shape : t.shape;
    for (int k = 0; k < shape[2]; ++k)
      for (int j = 0; j < shape[1]; ++j)
        for (int i = 0; i < shape[0]; ++i) out.push_back({"", i, j, k});
  }
  return out;
}

// Each CSG tally as a table: per bin and group the flux (track length) and the
// absorption, fission and nu-fission rates per source particle. A lattice or mesh
// tally also gets NAME_power: each bin's fission rate over all groups, normalised
// to a mean of 1 over the bins that fission at a thousandth of the largest rate or
// more (pin powers; the others read 0), its error from the batches' own normalised
// values.
void csg_tables(const transport::TransportSpec& s, const transport::TransportView<double>& v, const Batches& b,
                io::ScenarioResult* out) {
  using transport::geometry::kTallyScores;
  using transport::geometry::TallyFilter;
  const int G = s.groups;
  const char* scores[kTallyScores] = {"flux", "absorption", "fission", "nu_fission"};
  for (std::size_t n = 0; n < s.tallies.csg.size(); ++n) {
    const auto& t = s.tallies.csg[n];
    const std::vector<BinPlace> places = bin_places(s, t);
    const int first = v.csg_tallies.first_slot[n];
    const bool named = t.filter == TallyFilter::Cell || t.filter == TallyFilter::Material;
    std::vector<std::string> columns = named ? std::vector<std::string>{"index", "group"} : std::vector<std::string>{"i", "j", "k", "group"};
    std::vector<std::string> units(columns.size(), "");
    for (const char* score : scores) {
      columns.insert(columns.end(), {score, std::string(score) + "_std_error"});
      const char* unit = score == scores[0] ? "cm per source particle" : "per source particle";
      units.insert(units.end(), {unit, unit});
    }
    io::Table table{t.name, columns, {}, units, {}};
    for (std::size_t bin = 0; bin < places.size(); ++bin)
      for (int g = 0; g < G; ++g) {
        const BinPlace& p = places[bin];
        if (named) table.data.insert(table.data.end(), {static_cast<double>(p.i), static_cast<double>(g)});
        else table.data.insert(table.data.end(), {static_cast<double>(p.i), static_cast<double>(p.j), static_cast<double>(p.k), static_cast<double>(g)});
        if (named) table.row_names.push_back(p.name);
        for (int score = 0; score < kTallyScores; ++score) {
          const auto e = b.of("", first + (static_cast<int>(bin) * G + g) * kTallyScores + score);
          table.data.insert(table.data.end(), {e.value, e.std_error});
        }
      }
    out->tables.push_back(std::move(table));
    if (named) continue;

    // Normalised fission rates: each bin's over its groups, in the whole run and in each batch.
    std::vector<std::vector<int>> sets(places.size());
    for (std::size_t bin = 0; bin < places.size(); ++bin)
      for (int g = 0; g < G; ++g) sets[bin].push_back(first + (static_cast<int>(bin) * G + g) * kTallyScores + transport::geometry::kFission);
    // The bins that count: a thousandth of the largest rate or more (a fission
    // chamber's traces of fissile matter are no fuel pin).
    const auto normalise = [](std::vector<double> f) {
      double sum = 0, most = 0;
      int counted = 0;
      for (const double x : f) most = std::max(most, x);
      for (const double x : f)
        if (x > 0 && x >= 1e-3 * most) sum += x, ++counted;
      for (double& x : f) x = counted && x > 0 && x >= 1e-3 * most ? x * counted / sum : 0.0;
      return f;
    };
    const std::vector<std::vector<double>> per_batch = b.batch_means(sets);
    std::vector<double> whole(places.size(), 0.0);
    for (std::size_t k = 0; k < per_batch.size(); ++k)
      for (std::size_t bin = 0; bin < places.size(); ++bin) whole[bin] += per_batch[k][bin] * b.batch_sizes()[k] / b.total();
    const std::vector<double> power = normalise(whole);
    std::vector<double> ss(places.size(), 0.0);
    for (std::size_t k = 0; k < per_batch.size(); ++k) {
      const std::vector<double> p = normalise(per_batch[k]);
      for (std::size_t bin = 0; bin < places.size(); ++bin) ss[bin] += b.batch_sizes()[k] * (p[bin] - power[bin]) * (p[bin] - power[bin]);
    }
    io::Table map{t.name + "_power", {"i", "j", "k", "power", "power_std_error"}, {}, {"", "", "", "", ""}, {}};
    for (std::size_t bin = 0; bin < places.size(); ++bin)
      map.data.insert(map.data.end(), {static_cast<double>(places[bin].i), static_cast<double>(places[bin].j), static_cast<double>(places[bin].k),
                                       power[bin], batch_error(ss[bin], b.total(), b.count())});
    out->tables.push_back(std::move(map));
  }
}

}  // namespace

// The tallies a job asked for, and the flux mesh as a table.
void tally_estimates(const transport::TransportModel& model, const transport::TransportView<double>& v, const Batches& b,
                     io::ScenarioResult* out, bool with_table) {
  namespace slot = transport::slot;
  const transport::TransportSpec& spec = model.spec();
  const transport::Tallies& t = spec.tallies;
  const std::pair<bool, std::pair<const char*, int>> scalars[] = {
      {t.transmission, {"transmission", slot::Transmission}}, {t.reflection, {"reflection", slot::Reflection}},
      {t.absorption, {"absorption", slot::Absorption}},       {t.leakage, {"leakage", slot::Leakage}},
      {t.collisions, {"collisions", slot::Collisions}}};
  for (const auto& [wanted, named] : scalars)
    if (wanted) out->estimates.push_back(b.of(named.first, named.second));
  if (spec.geometry.shape == transport::Shape::Csg) {
    if (with_table) csg_tables(spec, v, b, out);
    return;
  }
  if (!t.flux_bins) return;
  const int G = spec.groups, bins = t.flux_bins;
  out->estimates.push_back(b.of_sum("flux", slot::Scalars, slot::Scalars + G * bins));
  out->estimates.push_back(b.of_sum("flux_collision", slot::Scalars + G * bins, slot::Scalars + 2 * G * bins));
  if (!with_table) return;  // a batch's estimates, for paired differences
  // Per bin: the flux is its track length (or collision score) over its volume.
  std::vector<double> rows;
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < bins; ++i) {
      double lo = 0, hi = 0, volume = 1;
      if (spec.geometry.shape != transport::Shape::Infinite) {
        lo = v.mesh_low + v.mesh_width * i, hi = v.mesh_low + v.mesh_width * (i + 1);
        volume = v.sphere ? 4.0 / 3.0 * M_PI * (hi * hi * hi - lo * lo * lo) : hi - lo;
      }
      const auto tr = b.of("", slot::Scalars + g * bins + i, 1 / volume);
      const auto co = b.of("", slot::Scalars + G * bins + g * bins + i, 1 / volume);
      rows.insert(rows.end(), {lo, hi, static_cast<double>(g), tr.value, tr.std_error, co.value, co.std_error,
                               model.flux_reference(lo, hi, g)});
    }
  // Bins in depth (slab) or radius (sphere); the flux per unit volume.
  const bool infinite = spec.geometry.shape == transport::Shape::Infinite;
  const std::string edge = infinite ? "" : v.sphere ? "cm (radius)" : "cm (depth)";
  const std::string flux = infinite ? "cm per source particle" : "per cm^2 per source particle";
  out->tables.push_back({"flux", {"low", "high", "group", "track", "track_std_error", "collision", "collision_std_error", "reference"}, rows,
                         {edge, edge, "", flux, flux, flux, flux, flux}});
}

// The minimum-variance combination of k's estimators (weights C^-1 1 / 1' C^-1 1,
// C their covariance over the generations), on the largest subset whose covariance
// is positive definite; implicit capture makes the absorption and collision
// estimators one.
reduce::Estimate combined_k(const std::vector<std::array<double, 3>>& k, std::vector<double>* weights) {
  const std::size_t n = k.size();
  double mean[3] = {0, 0, 0}, c[3][3] = {};
  for (const auto& g : k)
    for (int i = 0; i < 3; ++i) mean[i] += g[static_cast<std::size_t>(i)] / static_cast<double>(n);
  // An estimator with no spread is exact (an infinite medium's absorption estimator).
  for (int i = 0; i < 3; ++i) {
    bool flat = true;
    for (const auto& g : k) flat = flat && g[static_cast<std::size_t>(i)] == k.front()[static_cast<std::size_t>(i)];
    if (flat) {
      weights->assign(3, 0.0);
      (*weights)[static_cast<std::size_t>(i)] = 1;
      return reduce::normal_estimate("k_eff", k.front()[static_cast<std::size_t>(i)], 0, n);
    }
  }
  for (const auto& g : k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        c[i][j] += (g[static_cast<std::size_t>(i)] - mean[i]) * (g[static_cast<std::size_t>(j)] - mean[j]) / static_cast<double>(n - 1);
  for (const std::vector<int>& subset : {std::vector<int>{0, 1, 2}, {0, 2}, {1, 2}, {0, 1}, {0}}) {
    const std::size_t m = subset.size();
    // Solve C_s x = 1 by Gaussian elimination; give up on a pivot that vanishes.
    std::vector<double> a(m * (m + 1));
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < m; ++j) a[i * (m + 1) + j] = c[subset[i]][subset[j]];
      a[i * (m + 1) + m] = 1;
    }
    bool ok = true;
    for (std::size_t p = 0; p < m && ok; ++p) {
      const double pivot = a[p * (m + 1) + p];
      if (!(pivot > 1e-9 * c[subset[p]][subset[p]]) || !(c[subset[p]][subset[p]] > 0)) { ok = m == 1 && pivot >= 0; break; }
      for (std::size_t r = p + 1; r < m; ++r) {
        const double f = a[r * (m + 1) + p] / pivot;
        for (std::size_t j = p; j <= m; ++j) a[r * (m + 1) + j] -= f * a[p * (m + 1) + j];
      }
    }
    if (!ok) continue;
    std::vector<double> x(m);
    for (std::size_t r = m; r-- > 0;) {
      double s = a[r * (m + 1) + m];
      for (std::size_t j = r + 1; j < m; ++j) s -= a[r * (m + 1) + j] * x[j];
      x[r] = a[r * (m + 1) + r] > 0 ? s / a[r * (m + 1) + r] : 1;
    }
    double sum = 0;
    for (double v : x) sum += v;
    if (!(sum > 0)) continue;
    weights->assign(3, 0.0);
    double value = 0;
    for (std::size_t i = 0; i < m; ++i) (*weights)[static_cast<std::size_t>(subset[i])] = x[i] / sum, value += x[i] / sum * mean[subset[i]];
    const double var = m == 1 ? c[subset[0]][subset[0]] : 1 / sum;
    return reduce::normal_estimate("k_eff", value, std::sqrt(var / static_cast<double>(n)), n);
  }
  return reduce::normal_estimate("k_eff", mean[0], NAN, n);
}

KErrors k_errors(const std::vector<double>& k) {
  const std::uint64_t n = k.size(), B = std::min(n, kGenerationBatches);
  KErrors out;
  if (n < 2) return out;
  double mean = 0, ss = 0, batch_ss = 0;
  for (double x : k) mean += x / static_cast<double>(n);
  for (double x : k) ss += (x - mean) * (x - mean);
  out.naive = std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n));
  out.batches = B, out.generations_per_batch = n;
  for (std::uint64_t b = 0; b < B; ++b) {
    const auto [first, last] = reduce::batch_rows(b, B, n);
    double m = 0;
    for (std::uint64_t g = first; g < last; ++g) m += k[g];
    const double size = static_cast<double>(last - first);
    batch_ss += size * (m / size - mean) * (m / size - mean);
    out.generations_per_batch = std::min(out.generations_per_batch, last - first);
  }
  out.batch = batch_error(batch_ss, static_cast<double>(n), B);
  return out;
}

}  // namespace mcsim
