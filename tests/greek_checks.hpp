// Checks of Greeks shared by the Greek tests: a run's estimates against its
// references, and path Greeks against bump and revalue on the same random numbers.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cpu_run.hpp"

namespace mcsim::test {

inline const reduce::Estimate* estimate(const io::Results& r, const std::string& name) {
  const auto& e = r.scenarios.front().estimates;
  const auto at = std::find_if(e.begin(), e.end(), [&](const reduce::Estimate& x) { return x.name == name; });
  return at == e.end() ? nullptr : &*at;
}
inline const Reference* reference(const io::Results& r, const std::string& name) {
  const auto& e = r.scenarios.front().references;
  const auto at = std::find_if(e.begin(), e.end(), [&](const Reference& x) { return x.name == name; });
  return at == e.end() ? nullptr : &*at;
}
inline bool bumped(const io::Results& r, const std::string& greek) {
  const auto& d = r.scenarios.front().diagnostics;
  return std::any_of(d.begin(), d.end(), [&](const auto& x) { return x.first == greek + "_bump"; });
}

// Each named Greek of a run has an estimate, scored on the path unless listed as
// bumped, within 4 standard errors (and the difference's own error) of its reference.
inline void check_run_against_references(const io::Results& r, const std::vector<std::string>& greeks,
                                  const std::vector<std::string>& by_bump = {}) {
  for (const auto& g : greeks) {
    INFO(g);
    const auto* e = estimate(r, g);
    const auto* ref = reference(r, g);
    REQUIRE(e);
    REQUIRE(ref);
    CHECK(bumped(r, g) == (std::find(by_bump.begin(), by_bump.end(), g) != by_bump.end()));
    CHECK(std::fabs(e->value - ref->value) <= 4 * e->std_error + ref->tolerance + 1e-9);
    CHECK(ref->tolerance < 0.01 * std::fabs(ref->value) + 1e-6);  // a difference this coarse tests nothing
  }
}

// Path Greeks and bump-and-revalue ones of the same job (asking for `asked`),
// within 4 of their combined errors.
inline void check_job_against_bumps(const std::string& job, const std::string& asked, const std::vector<std::string>& greeks) {
  const auto path = run_cpu(job, {asked});
  const auto bump = run_cpu(job, {asked, "model.greek_method=bump"});
  for (const auto& g : greeks) {
    INFO(job << " " << g);
    const auto *p = estimate(path, g), *b = estimate(bump, g);
    REQUIRE(p);
    REQUIRE(b);
    CHECK(!bumped(path, g));
    CHECK(bumped(bump, g));
    CHECK(std::fabs(p->value - b->value) <= 4 * std::hypot(p->std_error, b->std_error));
  }
}

}  // namespace mcsim::test
