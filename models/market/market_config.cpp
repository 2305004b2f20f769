// Reading model.market: curves and a volatility surface inline or from CSV files,
// dividends inline or from CSV files; every error names its key and line, or FILE:LINE:COLUMN of
// the data file.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "io/csv.hpp"
#include "models/market/market.hpp"

namespace mcsim::market {

namespace {

using io::csv_number;
using io::data_file;
using io::required_column;

// Numbers with their places: a list in the config, or a column of a data file.
struct Column {
  std::vector<double> values;
  std::vector<std::string> where;
};

// A config list, each value checked against `range`.
Column config_column(io::Block& b, const std::string& key, io::Range range) {
  Column c;
  c.values = b.reals(key, range);
  for (std::size_t i = 0; i < c.values.size(); ++i) c.where.push_back(b.where_of(key, static_cast<int>(i)));
  return c;
}

// A data file's column `col` as numbers in `range`; errors at their field.
bool csv_column(const io::Csv& csv, int col, io::Range range, io::Block& b, Column& out) {
  bool ok = true;
  for (const auto& row : csv.rows) {
    const io::CsvField& f = row[static_cast<std::size_t>(col)];
    const auto v = csv_number(csv, f, csv.header[static_cast<std::size_t>(col)].text, range, b);
    if (!v) {
      ok = false;
      continue;
    }
    out.values.push_back(*v);
    out.where.push_back(csv.where(f));
  }
  return ok;
}

// Times strictly increasing and > 0: the first that is not, named.
bool increasing(const Column& t, io::Block& b, const std::string& what) {
  for (std::size_t i = 0; i < t.values.size(); ++i)
    if (i && !(t.values[i] > t.values[i - 1])) {
      b.error_where(t.where[i], fmt::format("{} must increase: {:g} after {:g}", what, t.values[i], t.values[i - 1]));
      return false;
    }
  return true;
}

}  // namespace

// A curve block: {times, zero_rates} or {times, discount_factors} (discount only),
// or {file} with columns time and zero_rate or discount_factor. Returns the curve;
// `given` false when the block is absent.
Curve parse_curve(io::Block& parent, const std::string& key, bool discount_factors_allowed, bool* given) {
  *given = parent.has(key);
  io::Block b = parent.child(key, false);
  if (!*given) return {};
  const io::Range rates{-1.0, 1.0}, factors{0, 1e308, true, false}, times{0, 100, true, false};
  b.text("loaded_from", std::string(""));  // a file's name, where its data was put inline
  Column t, value;
  bool as_factors = false;
  if (b.has("file")) {
    for (const char* k : {"times", "zero_rates", "discount_factors"})
      if (b.has(k)) b.error(k, "give the pillars inline or in a file, not both");
    if (const auto csv = data_file(b)) {
      const int ct = required_column(*csv, "time", b);
      const int cz = csv->column("zero_rate"), cd = discount_factors_allowed ? csv->column("discount_factor") : -1;
      if (cz < 0 && cd < 0)
        b.error_where(csv->file + ":1:1", std::string("the header needs a column zero_rate") +
                                              (discount_factors_allowed ? " or discount_factor" : ""));
      if (cz >= 0 && cd >= 0) b.error_where(csv->file + ":1:1", "give zero_rate or discount_factor, not both");
      if (ct >= 0 && (cz >= 0) != (cd >= 0)) {
        as_factors = cd >= 0;
        csv_column(*csv, ct, times, b, t);
        csv_column(*csv, as_factors ? cd : cz, as_factors ? factors : rates, b, value);
        if (csv->rows.empty()) b.error_where(csv->file, "holds no pillar");
      }
      if (b.valid()) {  // the data, inline in the job's text
        b.remove("file");
        b.set("times", io::number_sequence(t.values));
        b.set(as_factors ? "discount_factors" : "zero_rates", io::number_sequence(value.values));
        b.set("loaded_from", YAML::Node(csv->file));
      }
    }
  } else {
    t = config_column(b, "times", times);
    if (!b.has("times")) b.error("", "needs times, and zero_rates" + std::string(discount_factors_allowed ? " or discount_factors" : "") + " (or file)");
    as_factors = discount_factors_allowed && b.has("discount_factors");
    if (as_factors && b.has("zero_rates")) b.error("zero_rates", "give zero_rates or discount_factors, not both");
    value = as_factors ? config_column(b, "discount_factors", factors) : config_column(b, "zero_rates", rates);
    if (b.has("times") && t.values.size() != value.values.size() && b.valid())
      b.error(as_factors ? "discount_factors" : "zero_rates",
              fmt::format("needs one value per time ({}), got {}", t.values.size(), value.values.size()));
    if (t.values.empty() && b.has("times")) b.error("times", "needs at least one pillar");
  }
  b.finish();
  if (!b.valid() || t.values.empty() || !increasing(t, b, "pillar times")) return {};
  std::vector<double> log_p;
  for (std::size_t i = 0; i < t.values.size(); ++i)
    log_p.push_back(as_factors ? std::log(value.values[i]) : -value.values[i] * t.values[i]);
  return Curve(t.values, log_p);
}

namespace {

const io::Range kDividendTime{0, 100, true, false}, kCash{0, 1e12, true, false}, kProportional{0, 1, false, true};
constexpr const char* kOneOf = "a dividend is paid in cash or as a proportion of the spot: give one of cash, proportional";
// Each dividend is a step of the paths that pay it: a bound far past any real
// schedule (daily for 40 years), so a hostile file cannot size the step tables.
constexpr std::size_t kMaxDividends = 10000;

// Dividends in time order, at most kMaxDividends; `where` has each one's time's place.
bool dividends_in_order(const std::vector<Dividend>& d, const std::vector<std::string>& where, io::Block& b) {
  if (d.size() > kMaxDividends) {
    b.error_where(where[kMaxDividends], fmt::format("at most {} dividends", kMaxDividends));
    return false;
  }
  Column t;
  for (const Dividend& x : d) t.values.push_back(x.time);
  t.where = where;
  return increasing(t, b, "dividend times");
}

// Dividends from a file with columns time and cash and/or proportional: one
// dividend a row, with one of its two amounts filled in. Put in the job's text as
// the list it stands for, each item with the FILE:LINE it came from.
std::vector<Dividend> dividends_from_file(io::Block& market) {
  io::Block b = market.child("dividends", false);
  const auto csv = data_file(b);
  b.finish();
  if (!csv) return {};
  const int ct = required_column(*csv, "time", b), cc = csv->column("cash"), cp = csv->column("proportional");
  if (cc < 0 && cp < 0) b.error_where(csv->file + ":1:1", "the header needs a column cash or proportional");
  if (ct < 0 || (cc < 0 && cp < 0)) return {};
  if (csv->rows.empty()) b.error_where(csv->file, "holds no dividend");
  std::vector<Dividend> out;
  std::vector<std::string> where;
  YAML::Node list(YAML::NodeType::Sequence);
  for (const auto& row : csv->rows) {
    const io::CsvField& t = row[static_cast<std::size_t>(ct)];
    const io::CsvField* cash = cc >= 0 && !row[static_cast<std::size_t>(cc)].text.empty() ? &row[static_cast<std::size_t>(cc)] : nullptr;
    const io::CsvField* prop = cp >= 0 && !row[static_cast<std::size_t>(cp)].text.empty() ? &row[static_cast<std::size_t>(cp)] : nullptr;
    if ((cash != nullptr) == (prop != nullptr)) {
      b.error_where(csv->where(t), kOneOf);
      continue;
    }
    const auto time = csv_number(*csv, t, "time", kDividendTime, b);
    const auto amount = cash ? csv_number(*csv, *cash, "cash", kCash, b) : csv_number(*csv, *prop, "proportional", kProportional, b);
    if (!time || !amount) continue;
    out.push_back({*time, cash ? 0 : *amount, cash ? *amount : 0});
    where.push_back(csv->where(t));
    YAML::Node item(YAML::NodeType::Map);
    item["time"] = fmt::format("{:.17g}", *time);
    item[cash ? "cash" : "proportional"] = fmt::format("{:.17g}", *amount);
    item["loaded_from"] = fmt::format("{}:{}", csv->file, t.line);
    item.SetStyle(YAML::EmitterStyle::Flow);
    list.push_back(item);
  }
  if (!b.valid() || !dividends_in_order(out, where, b)) return {};
  market.set("dividends", list);
  return out;
}

// model.market.dividends: a list of {time, cash | proportional}, or {file}.
std::vector<Dividend> parse_dividends(io::Block& market) {
  if (market.has_mapping("dividends")) return dividends_from_file(market);
  std::vector<Dividend> out;
  std::vector<std::string> where;
  bool read = true;
  auto list = market.children("dividends");
  for (io::Block& d : list) {
    Dividend x;
    x.time = d.real("time", std::nullopt, kDividendTime);
    d.schema_note("cash", "-");  // one of the two, no default
    d.schema_note("proportional", "-");
    d.text("loaded_from", std::string(""));
    if (d.has("cash") && d.has("proportional"))
      d.error("cash", kOneOf);
    else if (d.has("cash"))
      x.cash = d.real("cash", std::nullopt, kCash);
    else
      x.proportional = d.real("proportional", std::nullopt, kProportional);
    d.finish();
    read = read && d.valid();
    out.push_back(x);
    where.push_back(d.where_of("time"));
  }
  if (read) dividends_in_order(out, where, market);
  return out;
}

// Quotes from a file with columns expiry, strike, vol: one row per quote, every
// expiry quoted at every strike.
void surface_from_file(io::Block& b, VolSurface& s) {
  const auto csv = data_file(b);
  if (!csv) return;
  const int ce = required_column(*csv, "expiry", b), ck = required_column(*csv, "strike", b),
            cv = required_column(*csv, "vol", b);
  if (ce < 0 || ck < 0 || cv < 0) return;
  Column e, k, v;
  const bool ok = csv_column(*csv, ce, {0, 100, true, false}, b, e) & csv_column(*csv, ck, io::Range::positive(), b, k) &
                  csv_column(*csv, cv, {0, 5, true, false}, b, v);
  if (!ok) return;
  if (csv->rows.empty()) return b.error_where(csv->file, "holds no quote");
  std::map<double, std::map<double, std::size_t>> grid;  // expiry -> strike -> row
  std::map<double, std::size_t> strikes;
  for (std::size_t r = 0; r < e.values.size(); ++r) {
    auto& row = grid[e.values[r]];
    if (row.count(k.values[r]))
      return b.error_where(e.where[r], fmt::format("expiry {:g}, strike {:g} is quoted twice (also at line {})",
                                                   e.values[r], k.values[r], csv->rows[row[k.values[r]]][0].line));
    row[k.values[r]] = r;
    strikes.emplace(k.values[r], r);
  }
  for (const auto& [strike, r] : strikes) s.strikes.push_back(strike);
  for (const auto& [expiry, row] : grid) {
    s.expiries.push_back(expiry);
    s.vols.emplace_back();
    s.where.emplace_back();
    for (const auto& [strike, first] : strikes) {
      const auto at = row.find(strike);
      if (at == row.end())
        return b.error_where(csv->file, fmt::format("expiry {:g} has no quote at strike {:g} (quoted at line {}); "
                                                    "every expiry needs every strike",
                                                    expiry, strike, csv->rows[first][0].line));
      s.vols.back().push_back(v.values[at->second]);
      s.where.back().push_back(v.where[at->second]);
    }
  }
  b.remove("file");
  b.set("expiries", io::number_sequence(s.expiries));
  b.set("strikes", io::number_sequence(s.strikes));
  YAML::Node rows(YAML::NodeType::Sequence);
  for (const auto& r : s.vols) rows.push_back(io::number_sequence(r));
  b.set("vols", rows);
  b.set("loaded_from", YAML::Node(csv->file));
}

std::optional<VolSurface> parse_surface(io::Block& market) {
  if (!market.has("vol_surface")) {
    market.child("vol_surface", false);
    return std::nullopt;
  }
  io::Block b = market.child("vol_surface", false);
  VolSurface s;
  b.text("loaded_from", std::string(""));
  if (b.has("file")) {
    for (const char* k : {"expiries", "strikes", "vols"})
      if (b.has(k)) b.error(k, "give the surface inline or in a file, not both");
    if (b.valid()) surface_from_file(b, s);
  } else {
    Column e = config_column(b, "expiries", {0, 100, true, false}), k = config_column(b, "strikes", io::Range::positive());
    s.expiries = e.values, s.strikes = k.values;
    s.vols = b.matrix("vols", {0, 5, true, false});
    for (const char* key : {"expiries", "strikes", "vols"})
      if (!b.has(key)) b.error("", std::string("needs expiries, strikes and vols (or file); missing ") + key);
    if (b.valid() && s.vols.size() != s.expiries.size())
      b.error("vols", fmt::format("needs one row per expiry ({}), got {}", s.expiries.size(), s.vols.size()));
    for (std::size_t i = 0; b.valid() && i < s.vols.size(); ++i) {
      if (s.vols[i].size() != s.strikes.size())
        b.error_where(b.where_of("vols", static_cast<int>(i)),
                      fmt::format("row {} needs one vol per strike ({}), got {}", i, s.strikes.size(), s.vols[i].size()));
      s.where.emplace_back();
      for (std::size_t j = 0; j < s.vols[i].size(); ++j)
        s.where.back().push_back(b.where_of("vols", static_cast<int>(i), static_cast<int>(j)));
    }
    if (b.valid()) {
      increasing(e, b, "expiries");
      increasing(k, b, "strikes");
    }
  }
  b.finish();
  if (b.valid() && s.strikes.size() < 3) b.error("strikes", "needs at least three strikes (a local volatility needs curvature)");
  if (!b.valid()) return std::nullopt;
  return s;
}

}  // namespace

double Market::log_growth(double t) const {
  double g = dividend_yield.log_discount(t) - discount.log_discount(t);
  for (const Dividend& d : dividends)
    if (d.time <= t) g += std::log1p(-d.proportional);
  return g;
}

bool Market::has_cash() const {
  return std::any_of(dividends.begin(), dividends.end(), [](const Dividend& d) { return d.cash > 0; });
}

Market parse_market(io::Block& model) {
  Market m;
  io::Block b = model.child("market", false);
  m.discount = parse_curve(b, "discount", true, &m.has_discount);
  m.dividend_yield = parse_curve(b, "dividend_yield", false, &m.has_dividend_yield);
  m.dividends = parse_dividends(b);
  m.surface = parse_surface(b);
  b.finish();
  return m;
}

// A curve block's keys under `at`; a discount curve may also be given as discount factors.
std::vector<io::KeySchema> curve_keys(const std::string& at, const std::string& what, bool factors) {
  std::vector<io::KeySchema> k{
      {at, "block", "-", "",
       what + ": times with zero_rates" + (factors ? " or discount_factors" : "") + ", or a CSV file (time, zero_rate" +
           (factors ? " | discount_factor" : "") + "); linear in log discount factor"},
      {at + ".times", "list of numbers", "-", "in (0, 100]", "pillar times in years, increasing"},
      {at + ".zero_rates", "list of numbers", "-", "in [-1, 1]", "continuously compounded zero rates, one per time"},
      {at + ".file", "text", "", "", "a CSV file of the pillars, relative to the config's folder"},
      {at + ".loaded_from", "text", "-", "", "written by mcsim: the file the pillars were read from"}};
  if (factors) k.push_back({at + ".discount_factors", "list of numbers", "-", "> 0", "discount factors, one per time"});
  return k;
}

const std::vector<io::KeySchema>& market_keys() {
  static const std::vector<io::KeySchema> keys = [] {
    std::vector<io::KeySchema> out{{"model.market", "block", "-", "", "market data: curves, dividends, an implied volatility surface"}};
    for (const auto& k : curve_keys("model.market.discount", "the discount curve", true)) out.push_back(k);
    for (const auto& k : curve_keys("model.market.dividend_yield", "the continuous dividend yield curve", false)) out.push_back(k);
    out.insert(out.end(), {
      {"model.market.dividends", "list of blocks or block", "-", "",
       "discrete dividends, each with time and cash or proportional; or {file: F}, a CSV file (time, cash | proportional: "
       "one of the two in each row)"},
      {"model.market.dividends.file", "text", "", "", "a CSV file of the dividends, relative to the config's folder"},
      {"model.market.dividends[].loaded_from", "text", "-", "", "written by mcsim: the file and line the dividend was read from"},
      {"model.market.dividends[].time", "number", "", "in (0, 100]", "the ex-dividend time in years"},
      {"model.market.dividends[].proportional", "number", "-", "in [0, 1)", "the fraction of the spot paid"},
      {"model.market.dividends[].cash", "number", "-", "in (0, 1e+12]",
       "the amount paid: the spot drops by it at the ex-dividend time (not below 0); gbm only"},
      {"model.market.vol_surface", "block", "-", "",
       "implied volatilities: expiries, strikes, vols (one row per expiry), or a CSV file (expiry, strike, vol)"},
      {"model.market.vol_surface.expiries", "list of numbers", "-", "in (0, 100]", "expiries in years, increasing"},
      {"model.market.vol_surface.strikes", "list of numbers", "-", "> 0", "strikes, increasing"},
      {"model.market.vol_surface.vols", "matrix", "-", "in (0, 5]", "implied Black volatilities, one row per expiry"},
      {"model.market.vol_surface.file", "text", "", "", "a CSV file of quotes, relative to the config's folder"},
      {"model.market.vol_surface.loaded_from", "text", "-", "", "written by mcsim: the file the quotes were read from"},
    });
    return out;
  }();
  return keys;
}

}  // namespace mcsim::market
