// CPU runs of stepped CEV paths.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(CevSteps);
}
