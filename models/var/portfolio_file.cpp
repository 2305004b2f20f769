#include "models/var/portfolio_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "io/csv.hpp"

namespace mcsim::var {

namespace {

// Columns every row fills, and those only some types need.
const std::vector<std::string> kRequired{"id", "type", "underlying", "quantity"};
const std::vector<std::string> kByType{"option",  "strike",  "maturity", "barrier",     "kind",
                                       "average", "fixings", "other",    "correlation", "volatility_factor",
                                       "coupon",  "start",   "period",   "position"};
// Groups the grouping columns may make together: each is a unit of the contributions'
// sums on every device (models/var/scenario.hpp), so a column of ids is refused.
constexpr std::size_t kMostGroups = 1000;

}  // namespace

void read_portfolio_file(io::Block& b, VarSpec& s) {
  b.schema_note("groups", "none");
  if (b.has("groups")) {
    const YAML::Node list = b.raw("groups");
    for (std::size_t i = 0; list.IsSequence() && i < list.size(); ++i) {
      if (!list[i].IsScalar() || list[i].Scalar().empty())
        b.error_where(b.where_of("groups", static_cast<int>(i)), "a grouping column's name");
      else
        s.group_columns.push_back(list[i].Scalar());
    }
    if (!list.IsSequence()) b.error("groups", "a list of the file's grouping columns, e.g. [desk, book]");
  }
  s.standalone = b.choice("standalone", {"false", "true"}, std::string("false")) == "true";
  if (s.standalone && s.group_columns.empty()) b.error("standalone", "a group's own VaR needs grouping columns (groups)");
  const std::string digest = b.text("digest", std::string(""));
  const auto csv = io::data_file(b);
  if (!csv) return;
  // The job's text keeps the file's name and its digest, "HEX of PATH": read again (a
  // resume, a rerun from a results file), a file that changed is refused. A digest of
  // another file (a scenario that names a different book) is replaced.
  const std::string now = fmt::format("{:016x} of {}", csv->digest, csv->file);
  const bool same_file = digest.size() > 20 && digest.compare(16, std::string::npos, now, 16, std::string::npos) == 0;
  if (same_file && digest != now)
    return b.error("digest", "the positions file " + csv->file + " has changed since this job was written (digest " +
                                 now.substr(0, 16) + ", the job's " + digest.substr(0, 16) + ")");
  if (digest != now && b.valid()) b.set("digest", YAML::Node(now));

  std::vector<int> column(kRequired.size() + kByType.size(), -1);
  for (std::size_t i = 0; i < kRequired.size(); ++i) column[i] = io::required_column(*csv, kRequired[i], b);
  for (std::size_t i = 0; i < kByType.size(); ++i) column[kRequired.size() + i] = csv->column(kByType[i]);
  std::vector<int> group_column;
  std::unordered_set<std::string> groups;  // COLUMN=VALUE seen so far
  for (const std::string& g : s.group_columns) {
    group_column.push_back(io::required_column(*csv, g, b));
    for (const auto& k : {kRequired, kByType})
      for (const auto& name : k)
        if (g == name) b.error("groups", "'" + g + "' is a position's field, not a grouping column");
  }
  // A column nobody reads is a misspelling or a group the config does not name.
  std::vector<std::string> known = kRequired;
  known.insert(known.end(), kByType.begin(), kByType.end());
  known.insert(known.end(), s.group_columns.begin(), s.group_columns.end());
  for (const io::CsvField& h : csv->header) {
    bool listed = false;
    for (const auto& k : known) listed = listed || h.text == k;
    if (listed) continue;
    const std::string hint = io::did_you_mean(h.text, known);
    b.error_where(csv->where(h), "unknown column '" + h.text + "'" +
                                     (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                     "; a grouping column is named in model.portfolio.groups");
  }
  if (csv->rows.empty()) b.error_where(csv->file, "holds no position");
  if (!b.valid()) return;

  std::unordered_map<std::string, int> asset;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < s.assets.size(); ++i) asset[s.assets[i].name] = static_cast<int>(i), names.push_back(s.assets[i].name);
  std::unordered_set<std::string> ids;
  for (const Position& p : s.portfolio) ids.insert(p.name);
  io::CsvErrors rows(*csv, b);
  const auto field = [&](const std::vector<io::CsvField>& row, std::size_t c) -> const io::CsvField* {
    return column[c] < 0 ? nullptr : &row[static_cast<std::size_t>(column[c])];
  };
  for (const auto& row : csv->rows) {
    Position p;
    const io::CsvField &id = *field(row, 0), &type = *field(row, 1), &under = *field(row, 2), &qty = *field(row, 3);
    const io::CsvField *option = field(row, 4), *strike = field(row, 5), *maturity = field(row, 6);
    const io::CsvField *barrier = field(row, 7), *kind = field(row, 8), *average = field(row, 9), *fixings = field(row, 10);
    const io::CsvField *other = field(row, 11), *correlation = field(row, 12), *vol_factor = field(row, 13);
    const io::CsvField *coupon = field(row, 14), *start = field(row, 15), *period = field(row, 16), *position = field(row, 17);
    bool ok = true;
    p.name = id.text;
    if (p.name.empty()) ok = rows.error(id, "a position needs an id");
    else if (!ids.insert(p.name).second) ok = rows.error(id, "position '" + p.name + "' is listed twice");
    const auto asset_in = [&](const io::CsvField& f) {
      if (const auto it = asset.find(f.text); it != asset.end()) return it->second;
      ok = rows.error(f, no_factor_named(f.text, names));
      return -1;
    };
    p.asset = asset_in(under);
    if (const auto q = rows.number(qty, "quantity", {})) p.quantity = *q;
    else ok = false;
    const bool stock = type.text == "stock", forward = type.text == "forward", digital = type.text == "digital";
    const bool with_barrier = type.text == "barrier", asian = type.text == "asian", exchange = type.text == "exchange";
    const bool is_option = type.text == "option" || digital || with_barrier || asian;  // a call or a put
    const bool bond = type.text == "bond", swaption = type.text == "swaption";
    const bool periodic = type.text == "cap" || type.text == "floor" || swaption;  // on a schedule from start
    if (type.text == "bermudan_swaption") {
      rows.error(type, kBermudan);
      continue;
    }
    if (!stock && !forward && !is_option && !exchange && !bond && !periodic) {
      rows.error(type, "type must be one of stock, forward, option, digital, barrier, asian, exchange, bond, cap, floor, "
                       "swaption (got '" + type.text + "')");
      continue;
    }
    // A field the type does not use, when filled in, is a row put in the wrong columns.
    const std::string a_type = (std::string("aeiou").find(type.text[0]) != std::string::npos ? "an " : "a ") + type.text;
    const auto needed = [&](const io::CsvField* f, const char* name, bool wanted) -> const io::CsvField* {
      const bool filled = f && !f->text.empty();
      if (wanted && !filled) {
        ok = f ? rows.error(*f, fmt::format("{} needs a value in column {}", a_type, name))
               : rows.error(type, fmt::format("{} needs a value in column {}, which the file does not have", a_type, name));
        return nullptr;
      }
      if (!wanted && filled)
        ok = rows.error(*f, fmt::format("{} takes no {} (got '{}')", a_type, name, f->text));
      return wanted ? f : nullptr;
    };
    if (const io::CsvField* f = needed(option, "option", is_option)) {
      if (f->text == "call" || f->text == "put") {
        const bool call = f->text == "call";
        p.instrument = digital ? (call ? Instrument::DigitalCall : Instrument::DigitalPut)
                       : asian ? (call ? Instrument::AsianCall : Instrument::AsianPut)
                               : (call ? Instrument::Call : Instrument::Put);
      } else {
        ok = rows.error(*f, "option must be call or put (got '" + f->text + "')");
      }
    } else if (forward) {
      p.instrument = Instrument::Forward;
    } else if (exchange) {
      p.instrument = Instrument::Exchange;
    } else if (bond) {
      p.instrument = Instrument::Bond;
    } else if (periodic && !swaption) {
      p.instrument = type.text == "cap" ? Instrument::Cap : Instrument::Floor;
    }
    if (const io::CsvField* f = needed(position, "position", swaption)) {
      if (f->text == "payer" || f->text == "receiver")
        p.instrument = f->text == "payer" ? Instrument::PayerSwaption : Instrument::ReceiverSwaption;
      else
        ok = rows.error(*f, "position must be payer or receiver (got '" + f->text + "')");
    }
    if (const io::CsvField* f = needed(strike, "strike", !stock && !exchange && !bond)) {
      const io::Range range = is_option ? io::Range::positive() : periodic ? io::Range{-1, 1} : io::Range{};
      if (const auto k = rows.number(*f, "strike", range)) p.strike = *k;
      else ok = false;
    }
    // A bond's coupon (empty: none) and its period; a cap's, floor's or swaption's start and period.
    if (const io::CsvField* f = needed(coupon, "coupon", bond && coupon && !coupon->text.empty())) {
      if (const auto c = rows.number(*f, "coupon", io::Range{-1, 1})) p.coupon = *c;
      else ok = false;
    }
    if (const io::CsvField* f = needed(start, "start", periodic)) {
      if (const auto t = rows.number(*f, "start", io::Range::positive())) p.start = *t;
      else ok = false;
    }
    if (const io::CsvField* f = needed(period, "period", periodic || p.coupon != 0)) {
      if (const auto t = rows.number(*f, "period", io::Range::positive())) p.period = *t;
      else ok = false;
    }
    if (const io::CsvField* f = needed(maturity, "maturity", !stock)) {
      if (const auto t = rows.number(*f, "maturity", io::Range::positive())) {
        p.maturity = *t;
        // Revalued at the horizon on its remaining life, which must not have ended.
        if (p.maturity <= s.horizon())
          ok = rows.error(*f, fmt::format("{} years ends before the horizon of {} days ({:.6g} years)", p.maturity,
                                          s.horizon_days, s.horizon()));
      } else {
        ok = false;
      }
    }
    const io::CsvField* level = needed(barrier, "barrier", with_barrier);
    if (const io::CsvField* f = needed(kind, "kind", with_barrier)) {
      const auto& names = barrier_kind_names();
      const auto at = std::find(names.begin(), names.end(), f->text);
      if (at == names.end())
        ok = rows.error(*f, "kind must be one of " + fmt::format("{}", fmt::join(names, ", ")) + " (got '" + f->text + "')");
      else if (ok)
        p.instrument = barrier_instrument(static_cast<option::BarrierKind>(at - names.begin()), is_call(p.instrument));
    }
    if (level) {
      if (const auto h = rows.number(*level, "barrier", io::Range::positive())) p.barrier = *h;
      else ok = false;
      if (ok)  // the asset was found
        if (const std::string e = knocked_already(p, under.text, s.assets[static_cast<std::size_t>(p.asset)].spot); !e.empty())
          ok = rows.error(*level, e);
    }
    if (const io::CsvField* f = needed(average, "average", asian))
      if (f->text != "geometric")
        ok = rows.error(*f, f->text == "arithmetic" ? std::string(kArithmeticAverage)
                                                    : "average must be geometric (got '" + f->text + "')");
    if (const io::CsvField* f = needed(fixings, "fixings", asian)) {
      const auto n = io::parse_count(f->text);
      if (n && *n >= 1 && *n <= kMaxFixings) p.fixings = static_cast<int>(*n);
      else ok = rows.error(*f, fmt::format("fixings must be a whole number from 1 to {} (got '{}')", kMaxFixings, f->text));
    }
    if (const io::CsvField* f = needed(other, "other", exchange)) {
      p.other = asset_in(*f);
      if (const std::string e = same_factor_twice(p); !e.empty()) ok = rows.error(*f, e);
    }
    // An option or digital may take its implied volatility from a factor.
    const bool on_factor = (type.text == "option" || digital) && vol_factor && !vol_factor->text.empty();
    if (const io::CsvField* f = needed(vol_factor, "volatility_factor", on_factor)) {
      p.other = asset_in(*f);
      if (const std::string e = same_factor_twice(p); !e.empty()) ok = rows.error(*f, e);
    }
    // An exchange's own correlation, or else the factors'; historical simulation has
    // no model of the factors, so there it is the exchange's.
    const bool own = exchange && (s.historical() || (correlation && !correlation->text.empty()));
    if (const io::CsvField* f = needed(correlation, "correlation", own)) {
      if (const auto c = rows.number(*f, "correlation", io::Range{-1, 1})) p.correlation = *c;
      else ok = false;
    } else if (exchange) {
      p.correlation = factor_correlation(s, p.asset, p.other);
    }
    if (ok) {
      if (const KeyError e = wrong_factor(s, p); !e.message.empty())
        ok = rows.error(e.key == "other" ? *other : e.key == "volatility_factor" ? *vol_factor : under, e.message);
      else if (const KeyError d = is_rate(p.instrument) ? rate_dates_error(s, p) : KeyError{}; !d.message.empty())
        ok = rows.error(d.key == "start" ? *start : *period, d.message);
    }
    for (int g : group_column) {
      const io::CsvField& f = row[static_cast<std::size_t>(g)];
      const std::string& column = csv->header[static_cast<std::size_t>(g)].text;
      if (f.text.empty()) ok = rows.error(f, "column '" + column + "' is empty");
      if (groups.insert(column + "=" + f.text).second && groups.size() == kMostGroups + 1)
        ok = rows.error(f, fmt::format("the grouping columns make more than {} groups here ('{}' = '{}'); group by "
                                       "fewer values (a desk or book, not a position's id)",
                                       kMostGroups, column, f.text));
      p.groups.push_back(f.text);
    }
    if (ok) s.portfolio.push_back(std::move(p));
  }
  rows.close();
}

}  // namespace mcsim::var
