// Every family's run by its model.type: the one place a family is registered with
// the runner (families.cpp). A family's run takes one scenario's job and runs it on
// the devices given (app/run/<family>/job.hpp), its device work through the
// family's executors (app/exec/<family>/).
#pragma once
#include <string>

#include "app/run/runner.hpp"

namespace mcsim {

struct FamilyRun {
  std::string type;  // model.type
  ScenarioRun (*run)(const io::Job& job, const RunOptions& options, const DeviceList& devices);
};

const FamilyRun& family_run(const std::string& type);

}  // namespace mcsim
