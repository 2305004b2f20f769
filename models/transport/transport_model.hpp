// The particle-transport model (type: transport): its spec, the names of its
// estimates, the closed forms it is checked against, and the kernel of histories
// that app/transport.cpp runs in chunks (fixed source) or generations (eigenvalue).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/model.hpp"
#include "models/transport/transport_kernel.hpp"
#include "models/transport/transport_spec.hpp"

namespace mcsim::transport {

class TransportModel : public Model {
 public:
  explicit TransportModel(TransportSpec spec) : spec_(std::move(spec)) {}
  const TransportSpec& spec() const { return spec_; }
  // Eigenvalue mode: k_eff (the combined estimate), k_collision, k_absorption,
  // k_track. Then the tallies asked for, per source particle: transmission,
  // reflection, absorption, leakage, collisions, and with a flux mesh `flux` and
  // `flux_collision`, its track-length and collision estimates summed over the mesh
  // (the volume-integrated flux). The mesh itself is a table.
  std::vector<std::string> outputs() const override;
  // Uncollided transmission through pure absorbers (a beam); in an infinite medium
  // (or one material inside mirrors) the flux, collisions and k_inf.
  std::vector<Reference> references() const override;
  // The closed-form scalar flux averaged over [lo, hi] in `group`, per source
  // particle, where the job has one (a beam through pure absorbers); else NaN.
  double flux_reference(double lo, double hi, int group) const;
  std::string describe() const override;
  EstimateInfo describe_estimate(const std::string& name) const override;
  // About this many collisions a history: sizes the default chunks, so a job has
  // enough of them for batch statistics.
  std::uint64_t steps_per_path() const override { return 16; }
  // A chunk's tallies are a row of every slot (hundreds with a flux mesh), gathered
  // and reduced on the host: a few thousand rows are batches enough.
  std::uint64_t max_default_chunks() const override { return 4096; }
  TransportKernel transport_kernel(Precision precision, std::uint64_t seed) const;

 private:
  bool absorber_beam() const;  // a fixed-source beam into a slab of pure absorbers
  TransportSpec spec_;
};

std::unique_ptr<Model> parse_transport_model(io::Block& model);
// The model: block's keys (mcsim schema).
const std::vector<io::KeySchema>& transport_keys();

}  // namespace mcsim::transport
