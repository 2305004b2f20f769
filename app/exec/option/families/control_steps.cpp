// CPU runs of stepped GBM paths with the geometric control variate.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(ControlSteps);
}
