// CPU runs of stepped GBM averages that score their Greeks and their market inputs' (plain).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(BucketSteps);
}
