// CPU runs of stepped GBM paths on scrambled Sobol points.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(SobolSteps);
}
