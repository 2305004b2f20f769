// Rate products under Hull-White one-factor (model.type: rates; model.short_rate,
// model.product): zero-coupon
// bonds, caps, floors, European and Bermudan swaptions on a discount curve, priced
// on ShortRatePath paths by the option family's path run, with Jamshidian's closed
// forms (and a Bermudan's backward induction on a grid) as references.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/block.hpp"
#include "io/schema.hpp"
#include "models/model.hpp"
#include "models/rates/rate_products.hpp"

namespace mcsim::rates {

enum class RateInstrument { ZeroCouponBond, Cap, Floor, Swaption, BermudanSwaption };

struct RateSpec {
  HullWhite model{0, 0, {}};
  RateInstrument instrument = RateInstrument::ZeroCouponBond;
  double strike = 0, start = 0, maturity = 0, period = 0;
  bool payer = true;
  bool antithetic = false;
  std::uint64_t regression_paths = 0;  // a Bermudan's Longstaff-Schwartz fit, separate from pricing
  // The event dates: cap and floor periods, or a swaption's expiry and fixed dates
  // (a Bermudan's exercise dates are all but the last).
  std::vector<double> dates() const;
};

class RateModel : public Model {
 public:
  explicit RateModel(RateSpec spec);
  std::vector<std::string> outputs() const override;
  std::vector<Reference> references() const override;
  PathKernel kernel(const KernelSetup& setup) const override;
  std::uint64_t steps_per_path() const override { return static_cast<std::uint64_t>(tables_.count); }
  std::string describe() const override;

 private:
  RateSpec spec_;
  RateTables tables_;
  // A Bermudan's exercise rules by seed: kernels hold views, so none is dropped.
  mutable std::map<std::uint64_t, TableData> rules_;
};

std::unique_ptr<Model> parse_rate_model(io::Block& model);
// A short_rate block's model, a and sigma (a rates job's, a risk factor's); the
// caller sets the curve.
HullWhite read_hull_white(io::Block& short_rate);
const std::vector<io::KeySchema>& rate_keys();

}  // namespace mcsim::rates
