// The CPU's vectorisable exp/log/sincos against the double-precision library, and
// the CPU executor's vectorised batches against a plain group-by-group walk.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "app/exec/option/executor.hpp"
#include "io/config.hpp"
#include "job_text.hpp"
#include "models/option/heston_step.hpp"
#include "rng/hd.hpp"

using namespace mcsim;

namespace {
// Distance in units of float's spacing at the exact value.
double ulps(float got, double exact) {
  const double spacing = std::ldexp(1.0, std::ilogb(static_cast<float>(exact)) - 23);
  return std::fabs(got - exact) / spacing;
}
}  // namespace

TEST_CASE("host exp is within 2 ulp over the normal range", "[rng][host_math]") {
  double worst = 0;
  for (float x = -87.0f; x <= 88.0f; x += 0.000731f) worst = std::max(worst, ulps(host::exp(x), std::exp(double(x))));
  CHECK(worst <= 2.0);
  CHECK(host::exp(0.0f) == 1.0f);
  CHECK(host::exp(-200.0f) > 0.0f);             // clamped, never zero or NaN
  CHECK(std::isfinite(host::exp(200.0f)));
}

TEST_CASE("host log is within 2 ulp from the smallest normal float to the largest", "[rng][host_math]") {
  double worst = 0;
  for (float x = std::numeric_limits<float>::min(); x < 3e38f; x *= 1.00037f) {
    if (x > 0.9999f && x < 1.0001f) continue;  // ulp of a result near 0 is meaningless: checked apart
    worst = std::max(worst, ulps(host::log(x), std::log(double(x))));
  }
  CHECK(worst <= 2.0);
  // Near 1 the absolute error is what Box-Muller sees: tiny relative to the result.
  for (float x = 0.9999f; x < 1.0001f; x = std::nextafter(x, 2.0f))
    CHECK(std::fabs(host::log(x) - std::log(double(x))) <= 4e-7 * std::fabs(std::log(double(x))));
  CHECK(host::log(1.0f) == 0.0f);
}

TEST_CASE("host sincos is within 2e-7 over the Box-Muller angles and beyond", "[rng][host_math]") {
  double worst = 0;
  for (float x = -8.0f; x <= 8.0f; x += 0.0000913f) {
    float s, c;
    host::sincos(x, &s, &c);
    worst = std::max({worst, std::fabs(s - std::sin(double(x))), std::fabs(c - std::cos(double(x)))});
  }
  CHECK(worst <= 2e-7);
}

TEST_CASE("choose picks by the flag in float and double", "[rng][host_math]") {
  CHECK(choose(true, 1.5f, -2.0f) == 1.5f);
  CHECK(choose(false, 1.5f, -2.0f) == -2.0f);
  CHECK(choose(true, 1.5, -2.0) == 1.5);
  CHECK(choose(false, 1.5, std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity());
}

TEST_CASE("nearest_integer rounds to nearest, ties to even, in float and double", "[rng][host_math]") {
  for (double x : {-0.5, -0.49, -0.25, 0.0, 0.5, 0.51, 1.5, 2.5, 3.4999, 254.5, 255.0, 255.49, 1e5 + 0.5, -7.5}) {
    INFO(x);
    float fr = 0;
    double dr = 0;
    CHECK(nearest_integer(static_cast<float>(x), &fr) == static_cast<int>(std::nearbyint(static_cast<float>(x))));
    CHECK(fr == std::nearbyint(static_cast<float>(x)));
    CHECK(nearest_integer(x, &dr) == static_cast<int>(std::nearbyint(x)));
    CHECK(dr == std::nearbyint(x));
  }
}

TEST_CASE("clamp_to keeps a value within its bounds and a NaN at the lower one", "[rng][host_math]") {
  CHECK(clamp_to(0.25f, -0.5f, 2.0f) == 0.25f);
  CHECK(clamp_to(-3.0f, -0.5f, 2.0f) == -0.5f);
  CHECK(clamp_to(7.0, -0.5, 2.0) == 2.0);
  CHECK(clamp_to(std::numeric_limits<double>::quiet_NaN(), -0.5, 2.0) == -0.5);
}

TEST_CASE("Heston's QE variance stays finite for the largest normals in float", "[rng][host_math][heston]") {
  // A small variance puts QE in its exponential branch; z = 6 makes Phi(z) round to 1 in float.
  const auto f = option::heston_step_fields(1.5, 0.04, 0.5, -0.7, 0.012);
  const auto step = [&](auto zero) {
    using Real = decltype(zero);
    option::HestonStep<Real> h{};
    h.qe = true, h.kappa = Real(1.5), h.theta = Real(0.04), h.xi = Real(0.5), h.rho = Real(-0.7);
    Real fields[8];
    for (int i = 0; i < 8; ++i) fields[i] = static_cast<Real>(f[i]);
    h.set_step(fields);
    return h;
  };
  const auto hf = step(0.0f);
  const auto hd = step(0.0);
  for (double z : {5.0, 5.5, 6.0, 6.6}) {
    INFO(z);
    const float vf = hf.qe_variance(1e-4f, static_cast<float>(z));
    const double vd = hd.qe_variance(1e-4, z);
    CHECK(std::isfinite(vf));
    CHECK(vd > 0);
    CHECK(vf == Approx(vd).epsilon(1e-3));
  }
}

TEST_CASE("the CPU executor's vectorised batches give the bits of a group-by-group walk", "[option][host_math]") {
  const std::string gbm = "  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.01, volatility: 0.3 }\n";
  std::vector<std::string> jobs;
  for (const char* extra : {"", "  variance_reduction: [antithetic]\n"})
    for (const char* inst : {"european", "digital"}) jobs.push_back(option_job(inst, "put", extra));
  // Stepped kernels go through simulate_batch: each payoff and kind of monitoring.
  const std::string head = "run: { name: t, paths: 1000, seed: 9 }\nmodel:\n  type: option\n" + gbm;
  for (const char* model : {
           "  instrument: { type: asian, average: arithmetic, fixings: 12, option: call, strike: 95, maturity: 1,"
           " barrier: 80, kind: down-and-out }\n",
           "  instrument: { type: asian, average: arithmetic, fixings: 12, option: put, strike: 105, maturity: 1 }\n"
           "  variance_reduction: [antithetic, control_variate]\n",
           "  instrument: { type: barrier, option: put, strike: 100, maturity: 1, barrier: 115, kind: up-and-in,"
           " monitoring: continuous, rebate: 1.5 }\n  steps: 10\n",
           "  instrument: { type: lookback, strike_type: fixed, option: put, strike: 100, maturity: 1,"
           " monitoring: continuous }\n  steps: 10\n  variance_reduction: [antithetic]\n",
           // Sobol points: bridge-filled steps (40 steps, 32 coarse points) and a bridge extreme.
           "  instrument: { type: asian, average: arithmetic, fixings: 40, option: call, strike: 100, maturity: 1 }\n"
           "  variance_reduction: [sobol, control_variate]\n",
           "  instrument: { type: lookback, strike_type: floating, option: call, maturity: 1,"
           " monitoring: continuous }\n  steps: 7\n  variance_reduction: [sobol]\n",
       })
    jobs.push_back(head + model);
  for (const char* precision : {"float", "double"})
    for (const auto& text : jobs) {
      INFO(precision << "\n" << text);
      // 3 chunks, the last one short and ending inside a stream group (Sobol point
      // sets are whole chunks, at least 8 of them: the first 3 of 9).
      const bool sobol = text.find("sobol") != std::string::npos;
      const io::Job job = io::load_job_text(text, "t.yaml",
                                            {std::string("run.precision=") + precision,
                                             sobol ? "run.paths=36864" : "run.paths=9003", "run.chunk_paths=4096"});
      const PathKernel kernel = job.model->kernel({job.run.precision, job.run.seed, job.run.chunk_paths});
      const ChunkGeometry geo{job.run.paths, job.run.chunk_paths, job.run.seed};
      const std::size_t width = tally_width(kernel);
      std::vector<double> batched(3 * width), walked(3 * width);
      make_cpu_device()->executor<OptionExecutor>().run(kernel, geo, 0, 3, batched.data(), nullptr);
      std::visit(
          [&](const auto& k) {
            using K = std::decay_t<decltype(k)>;
            using F = FamilyOf<K>;
            // The walk is compiled for these jobs' families only: every family's
            // kernels once more would double what this file costs to compile.
            if constexpr (std::is_same_v<F, kernels::European> || std::is_same_v<F, kernels::GbmSteps> ||
                          std::is_same_v<F, kernels::ControlSteps> || std::is_same_v<F, kernels::SobolSteps>) {
              for (std::uint64_t c = 0; c < 3; ++c) {
                const GroupRange r = chunk_groups<K::kGroup>(geo, c);
                reduce::Moments<K::kOutputs> acc;
                for (std::uint64_t g = r.first; g < r.last; ++g)
                  run_group(k, geo.seed, g, lanes_of<K::kGroup>(r, g), acc);
                std::memcpy(&walked[c * width], acc.v, sizeof acc.v);
              }
            } else {
              FAIL("a kernel of a family this test does not walk");
            }
          },
          kernel);
      CHECK(batched[2 * width] == (sobol ? 4096 : 9003 - 2 * 4096));  // the third chunk's path count
      CHECK(std::memcmp(batched.data(), walked.data(), batched.size() * sizeof(double)) == 0);
    }
}
