// Each group's own (standalone) VaR and ES: the run of its positions alone, on the
// job's own scenarios (model.portfolio.standalone). Its sum over a column's groups
// less the book's VaR is the diversification the column's split hides.
#pragma once
#include "app/run/runner.hpp"
#include "models/var/var_model.hpp"

namespace mcsim {

// Runs every group of the book's grouping columns (collective over ranks) and adds,
// on rank 0, standalone_var_<level>.<group> and standalone_es_<level>.<group>, the
// tables group_standalone and group_loss_histograms, and the diagnostics
// diversification_<level>.<column>.
void add_standalone(const io::Job& job, const var::VarModel& model, const RunOptions& options,
                    const DeviceList& devices, ScenarioRun& book);

}  // namespace mcsim
