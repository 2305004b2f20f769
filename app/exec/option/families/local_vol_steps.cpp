// CPU runs of stepped local-volatility paths.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(LocalVolSteps);
}
