// A data file named by a config (a curve, a volatility surface): comma-separated
// values with a header row naming the columns. Each field keeps its line and
// column, so an error in the data names FILE:LINE:COLUMN.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace mcsim::io {

struct CsvField {
  std::string text;
  int line = 0, column = 0;
};

struct Csv {
  std::string file;
  std::vector<CsvField> header;
  std::vector<std::vector<CsvField>> rows;  // each as long as the header
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

}  // namespace mcsim::io
