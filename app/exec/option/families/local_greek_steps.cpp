// CPU runs of local volatility paths (Dupire's grid, CEV) scoring their Greeks on the path.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(LocalGreekSteps);
}
