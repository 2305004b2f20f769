// CPU runs of stepped GBM paths with jumps (Merton).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(MertonSteps);
}
