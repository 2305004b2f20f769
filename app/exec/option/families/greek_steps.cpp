// CPU runs of stepped GBM paths that score their Greeks (plain, antithetic).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(GreekSteps);
}
