// The sampling and tracking maths of particle histories against exact laws and
// geometry.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "models/transport/physics.hpp"

using namespace mcsim::transport;

TEST_CASE("flight distances are exponential with mean one over the total", "[transport]") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const double total = 0.4;
  double sum = 0, beyond = 0;
  const int n = 400000;
  for (int i = 0; i < n; ++i) {
    const double d = flight_distance(exponential(1.0 - U(rng)), 1 / total);  // u in (0, 1]
    sum += d;
    beyond += d > 5.0 ? 1 : 0;
  }
  // Mean 2.5 (sd 2.5 / sqrt(n)); P(d > 5) = e^-2.
  CHECK(std::fabs(sum / n - 2.5) < 4 * 2.5 / std::sqrt(n));
  const double p = std::exp(-2.0);
  CHECK(std::fabs(beyond / n - p) < 4 * std::sqrt(p * (1 - p) / n));
  CHECK(flight_distance(exponential(1.0), 1 / total) == 0.0);
}

TEST_CASE("scattering cosines follow the linearly anisotropic law", "[transport]") {
  // The inverse is exact: F(mu(u)) = u, with F(mu) = (mu + 1) / 2 + 3 m (mu^2 - 1) / 4.
  for (double m : {-1.0 / 3, -0.2, -1e-9, 0.0, 1e-9, 0.1, 1.0 / 3})
    for (double u : {1e-9, 0.01, 0.25, 0.5, 0.8, 0.999999}) {
      INFO("mean " << m << ", u " << u);
      const double mu = scattering_cosine(u, m);
      CHECK(mu >= -1.0);
      CHECK(mu <= 1.0);
      CHECK((mu + 1) / 2 + 0.75 * m * (mu * mu - 1) == Approx(u).margin(1e-12));
    }
  CHECK(scattering_cosine(0.3, 0.0) == Approx(-0.4).epsilon(1e-15));
  // Sampled: the mean cosine is m, and E[mu^2] = 1/3 for every m.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const int n = 400000;
  double s1 = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double mu = scattering_cosine(U(rng), 0.25);
    s1 += mu, s2 += mu * mu;
  }
  CHECK(std::fabs(s1 / n - 0.25) < 4 * std::sqrt((1.0 / 3 - 0.0625) / n));
  CHECK(std::fabs(s2 / n - 1.0 / 3) < 4 * std::sqrt(4.0 / 45 / n));
}

TEST_CASE("turning by a scattering angle keeps isotropy and composes cosines", "[transport]") {
  CHECK(turned_cosine(1.0, 0.3, 0.7) == Approx(0.3));          // along the axis: the axis cosine is mu0
  CHECK(turned_cosine(0.0, 0.0, 1.0) == Approx(1.0));          // perpendicular, turned a right angle towards it
  CHECK(turned_cosine(0.5, 1.0, -1.0) == Approx(0.5));         // no turn
  // Isotropic directions stay isotropic after any turn: mean 0, E[mu^2] = 1/3.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const int n = 400000;
  double s1 = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double mu = turned_cosine(2 * U(rng) - 1, 0.6, std::cos(6.283185307179586 * U(rng)));
    s1 += mu, s2 += mu * mu;
  }
  CHECK(std::fabs(s1 / n) < 4 * std::sqrt(1.0 / 3 / n));
  CHECK(std::fabs(s2 / n - 1.0 / 3) < 4 * std::sqrt(4.0 / 45 / n));
}

TEST_CASE("distances to planes and spheres", "[transport]") {
  CHECK(distance_to_plane(1.0, 1 / 0.5, 3.0) == Approx(4.0));
  CHECK(std::isinf(distance_to_plane(1.0, 1 / -0.5, 3.0)));
  CHECK(std::isinf(distance_to_plane(1.0, 1 / 0.0, 3.0)));  // parallel
  CHECK(std::isinf(distance_to_plane(3.0, 1 / 0.0, 3.0)));  // parallel, on the plane
  // From the centre every direction is R away; from r = 3 in a sphere of 5, straight
  // out 2, straight in 8, sideways 4.
  CHECK(distance_out_of_sphere(0.0, 0.3, 5.0) == Approx(5.0));
  CHECK(distance_out_of_sphere(3.0, 1.0, 5.0) == Approx(2.0));
  CHECK(distance_out_of_sphere(3.0, -1.0, 5.0) == Approx(8.0));
  CHECK(distance_out_of_sphere(3.0, 0.0, 5.0) == Approx(4.0));
  // From r = 5 towards a sphere of 3: straight in 2; missing it sideways; moving out never.
  CHECK(distance_into_sphere(5.0, -1.0, 3.0) == Approx(2.0));
  CHECK(std::isinf(distance_into_sphere(5.0, -0.5, 3.0)));  // the line passes 4.33 from the centre
  CHECK(std::isinf(distance_into_sphere(5.0, 0.2, 3.0)));
  // A flight lands where the distance said: on the surface, with the exit cosine.
  for (double mu : {-0.9, -0.2, 0.0, 0.4, 1.0}) {
    double r = 3.0, m = mu;
    sphere_move(&r, &m, distance_out_of_sphere(3.0, mu, 5.0));
    CHECK(r == Approx(5.0));
    CHECK(m > 0.0);
  }
  double r = 5.0, m = -1.0;
  sphere_move(&r, &m, 2.0);
  CHECK(r == Approx(3.0));
  CHECK(m == Approx(-1.0));
  r = 4.0, m = -1.0;
  sphere_move(&r, &m, 6.0);  // through the centre and out the other side
  CHECK(r == Approx(2.0));
  CHECK(m == Approx(1.0));
}
