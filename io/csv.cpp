#include "io/csv.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace mcsim::io {

std::string Csv::where(const CsvField& f) const {
  return file + ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
}

int Csv::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].text == name) return static_cast<int>(i);
  return -1;
}

namespace {

// The whole file, read through one descriptor that is checked to be a regular file
// of bounded size (not a FIFO or a device that never ends).
std::string slurp(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw std::runtime_error(path + ": cannot open the data file: " + std::strerror(errno));
  struct stat st {};
  std::string text;
  try {
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) throw std::runtime_error(path + ": not a regular file");
    if (static_cast<std::size_t>(st.st_size) > kMaxCsvBytes)
      throw std::runtime_error(path + ": " + std::to_string(st.st_size) + " bytes, more than a data file may hold (" +
                               std::to_string(kMaxCsvBytes) + ")");
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::read(fd, &text[got], text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::runtime_error(path + ": read failed: " + std::strerror(errno));
      if (n == 0) break;  // shrank while read
      got += static_cast<std::size_t>(n);
    }
    text.resize(got);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return text;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

Csv read_csv(const std::string& path) {
  const std::string text = slurp(path);
  Csv csv;
  csv.file = path;
  csv.digest = 0xcbf29ce484222325ull;
  for (const char c : text) csv.digest = (csv.digest ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  if (text.find('\0') != std::string::npos) throw std::runtime_error(path + ": a binary file, not comma-separated text");
  std::size_t pos = 0;
  int line = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    const std::string body = trimmed(raw);
    if (body.empty() || body[0] == '#') continue;
    std::vector<CsvField> fields;
    std::size_t i = 0;
    while (true) {
      CsvField f;
      f.line = line;
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t')) ++i;
      f.column = static_cast<int>(i) + 1;
      if (i < raw.size() && raw[i] == '"') {
        ++i;
        bool closed = false;
        while (i < raw.size()) {
          if (raw[i] == '"' && i + 1 < raw.size() && raw[i + 1] == '"') f.text += '"', i += 2;
          else if (raw[i] == '"') { closed = true, ++i; break; }
          else f.text += raw[i++];
        }
        if (!closed)
          throw std::runtime_error(path + ":" + std::to_string(line) + ":" + std::to_string(f.column) +
                                   ": a quoted field is not closed on its line");
        while (i < raw.size() && raw[i] != ',') {
          if (raw[i] != ' ' && raw[i] != '\t' && raw[i] != '\r')
            throw std::runtime_error(path + ":" + std::to_string(line) + ":" + std::to_string(i + 1) +
                                     ": text after a quoted field");
          ++i;
        }
      } else {
        const std::size_t comma = std::min(raw.find(',', i), raw.size());
        f.text = trimmed(raw.substr(i, comma - i));
        i = comma;
      }
      fields.push_back(f);
      if (i >= raw.size()) break;
      ++i;  // the comma
    }
    if (csv.header.empty()) {
      csv.header = fields;
      for (std::size_t a = 0; a < fields.size(); ++a) {
        if (fields[a].text.empty()) throw std::runtime_error(csv.where(fields[a]) + ": an empty column name in the header");
        for (std::size_t b = 0; b < a; ++b)
          if (fields[a].text == fields[b].text)
            throw std::runtime_error(csv.where(fields[a]) + ": column '" + fields[a].text + "' is named twice");
      }
      continue;
    }
    if (fields.size() != csv.header.size())
      throw std::runtime_error(path + ":" + std::to_string(line) + ":1: " + std::to_string(fields.size()) +
                               " fields, but the header names " + std::to_string(csv.header.size()) + " columns");
    csv.rows.push_back(std::move(fields));
  }
  if (csv.header.empty()) throw std::runtime_error(path + ": empty (a data file starts with a header row)");
  return csv;
}

std::optional<Csv> data_file(Block& b) {
  const std::string name = b.text("file", std::nullopt);
  if (!b.valid()) return std::nullopt;
  try {
    return read_csv(b.data_path(name));
  } catch (const std::exception& e) {
    b.error_where(b.where_of("file"), e.what());
    return std::nullopt;
  }
}

int required_column(const Csv& csv, const std::string& name, Block& b) {
  const int c = csv.column(name);
  if (c < 0) b.error_where(csv.file + ":1:1", "the header has no column '" + name + "'");
  return c;
}

namespace {
// What is wrong with a field read as a number in `range` ("" when nothing).
std::string number_problem(const std::optional<double>& v, const CsvField& f, const std::string& column, Range range) {
  if (!v) return "expected a number in column '" + column + "', got '" + f.text + "'";
  if (!range.contains(*v)) return column + " must be " + range.describe() + " (got " + f.text + ")";
  return "";
}
}  // namespace

std::optional<double> csv_number(const Csv& csv, const CsvField& f, const std::string& column, Range range, Block& b) {
  const auto v = parse_number(f.text);
  const std::string problem = number_problem(v, f, column, range);
  if (problem.empty()) return v;
  b.error_where(csv.where(f), problem);
  return std::nullopt;
}

bool CsvErrors::error(const CsvField& f, const std::string& message) {
  if (++count_ <= kMaxFileErrors) b_.error_where(csv_.where(f), message);
  return false;
}

std::optional<double> CsvErrors::number(const CsvField& f, const std::string& column, Range range) {
  const auto v = parse_number(f.text);
  const std::string problem = number_problem(v, f, column, range);
  if (problem.empty()) return v;
  error(f, problem);
  return std::nullopt;
}

void CsvErrors::close() {
  if (count_ > kMaxFileErrors) b_.error_where(csv_.file, "and " + std::to_string(count_ - kMaxFileErrors) + " more errors in the file");
}

}  // namespace mcsim::io
