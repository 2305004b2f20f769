// A data file named by a config (a curve, a volatility surface): comma-separated
// values with a header row naming the columns. Each field keeps its line and
// column, so an error in the data names FILE:LINE:COLUMN.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/block.hpp"

namespace mcsim::io {

struct CsvField {
  std::string text;
  int line = 0, column = 0;
};

struct Csv {
  std::string file;
  std::vector<CsvField> header;
  std::vector<std::vector<CsvField>> rows;  // each as long as the header
  // FNV-1a of the file's bytes: a job that keeps only the file's name keeps this too,
  // so a changed file is noticed when the job is read again (a resume, a rerun).
  std::uint64_t digest = 0;
  // FILE:LINE:COLUMN of a field.
  std::string where(const CsvField& f) const;
  // The header's index of `name`, or -1.
  int column(const std::string& name) const;
};

// Data files are small tables; a larger file is refused rather than read.
constexpr std::size_t kMaxCsvBytes = std::size_t{64} << 20;

// Reads `path`, a regular file of at most kMaxCsvBytes: lines of fields split at
// commas (fields may be "quoted", with "" for a quote), blank lines and lines
// starting with # skipped, spaces around fields trimmed. Throws
// std::runtime_error naming the file, and line and column where they apply.
Csv read_csv(const std::string& path);

// The data file a config block's `file` key names, read (the name taken from the
// config's folder); a failure is the block's error, at the key.
std::optional<Csv> data_file(Block& b);
// The header's index of `name`; an error at the header when it has none.
int required_column(const Csv& csv, const std::string& name, Block& b);
// A field as a number in `range`; an error at the field otherwise.
std::optional<double> csv_number(const Csv& csv, const CsvField& f, const std::string& column, Range range, Block& b);

// Errors in a large data file's rows (positions, history): the first kMaxFileErrors
// at their fields, then how many more (close()).
class CsvErrors {
 public:
  static constexpr int kMaxFileErrors = 50;
  CsvErrors(const Csv& csv, Block& b) : csv_(csv), b_(b) {}
  // Reports `message` at the field; returns false, for `ok = errors.error(...)`.
  bool error(const CsvField& f, const std::string& message);
  // The field as a number in `range`, or an error at it.
  std::optional<double> number(const CsvField& f, const std::string& column, Range range);
  int count() const { return count_; }
  void close();

 private:
  const Csv& csv_;
  Block& b_;
  int count_ = 0;
};

}  // namespace mcsim::io
