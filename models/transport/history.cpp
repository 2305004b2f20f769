#include "models/transport/history.hpp"

#include <cmath>

namespace mcsim::transport {

template <class Real>
LayerArrays<Real> layer_arrays(const TransportSpec& s) {
  LayerArrays<Real> a;
  a.regions = static_cast<int>(s.geometry.regions());
  a.groups = s.groups;
  a.reflect_low = s.geometry.shape == Shape::Slab && s.geometry.left == Boundary::Reflective;
  a.reflect_high = s.geometry.right == Boundary::Reflective;
  a.implicit_capture = s.implicit_capture;
  a.cutoff = static_cast<Real>(s.weight_cutoff);
  a.survival = static_cast<Real>(2 * s.weight_cutoff);
  if (s.geometry.shape == Shape::Infinite) a.surfaces = {-Real(INFINITY), Real(INFINITY)};
  for (double p : s.geometry.surfaces) a.surfaces.push_back(static_cast<Real>(p));
  for (int m : s.region_material) {
    const Material& mat = s.materials[static_cast<std::size_t>(m)];
    a.mean_cosine.push_back(static_cast<Real>(mat.mean_cosine));
    for (int g = 0; g < mat.groups; ++g) {
      a.mean_free_path.push_back(static_cast<Real>(1.0 / mat.total[static_cast<std::size_t>(g)]));
      const double out = mat.scatter_out(g);
      a.scatter_probability.push_back(static_cast<Real>(out / mat.total[static_cast<std::size_t>(g)]));
      double sum = 0;
      for (int h = 0; h < mat.groups; ++h) {
        sum += mat.scatter[static_cast<std::size_t>(g * mat.groups + h)];
        a.cumulative.push_back(static_cast<Real>(out > 0 ? sum / out : 1.0));
      }
    }
  }
  return a;
}

template LayerArrays<float> layer_arrays<float>(const TransportSpec&);
template LayerArrays<double> layer_arrays<double>(const TransportSpec&);

}  // namespace mcsim::transport
