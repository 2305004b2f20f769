#include "models/transport/slab_history.hpp"

#include <stdexcept>

namespace mcsim::transport {

template <class Real>
SlabArrays<Real> slab_arrays(const TransportSpec& s) {
  if (s.geometry.shape != Shape::Slab) throw std::invalid_argument("slab_arrays: the geometry is not a slab");
  SlabArrays<Real> a;
  a.regions = static_cast<int>(s.geometry.regions());
  a.groups = s.groups;
  a.reflect_left = s.geometry.left == Boundary::Reflective;
  a.reflect_right = s.geometry.right == Boundary::Reflective;
  for (double p : s.geometry.surfaces) a.planes.push_back(static_cast<Real>(p));
  for (int m : s.region_material) {
    const Material& mat = s.materials[static_cast<std::size_t>(m)];
    a.mean_cosine.push_back(static_cast<Real>(mat.mean_cosine));
    for (int g = 0; g < mat.groups; ++g) {
      a.total.push_back(static_cast<Real>(mat.total[static_cast<std::size_t>(g)]));
      const double out = mat.scatter_out(g);
      a.scatter_out.push_back(static_cast<Real>(out));
      double sum = 0;
      for (int h = 0; h < mat.groups; ++h) {
        sum += mat.scatter[static_cast<std::size_t>(g * mat.groups + h)];
        a.cumulative.push_back(static_cast<Real>(out > 0 ? sum / out : 1.0));
      }
    }
  }
  return a;
}

template SlabArrays<float> slab_arrays<float>(const TransportSpec&);
template SlabArrays<double> slab_arrays<double>(const TransportSpec&);

}  // namespace mcsim::transport
