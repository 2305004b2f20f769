// Config errors collected with their place (FILE:LINE:COLUMN, or the --set option
// that supplied the value) and reported together.
#pragma once
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace YAML {
class Mark;
}

namespace mcsim::io {

class SchemaRecorder;

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}

  // key_path is the dotted key the error is about ("model.process.volatility").
  void error(const YAML::Mark& mark, const std::string& key_path, const std::string& message);
  void error_at(int line, int column, const std::string& message);
  // An error at a place given as text: FILE:LINE:COLUMN of a data file the config names.
  void error_where(const std::string& where, const std::string& message);
  void mark_overridden(const std::string& key_path) { overridden_.insert(key_path); }
  // Put before every message from now on, such as "scenario vol_up" ("" for none).
  void set_context(std::string context) { context_ = std::move(context); }

  // The config's name as errors start with it.
  const std::string& location() const { return file_; }
  bool empty() const { return lines_.empty(); }
  // When set, every key read is recorded there (mcsim schema).
  SchemaRecorder* schema = nullptr;
  // The folder that relative data-file names in the config are taken from: the
  // config file's own ("" for the working directory).
  std::string base_dir;
  const std::vector<std::string>& lines() const { return lines_; }
  std::string report() const;

 private:
  std::string file_, context_;
  std::set<std::string> overridden_;
  std::vector<std::string> lines_;
};

// Thrown once all errors of a config are known; what() holds every line.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const Diagnostics& d) : std::runtime_error(d.report()), lines(d.lines()) {}
  std::vector<std::string> lines;
};

}  // namespace mcsim::io
