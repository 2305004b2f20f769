// CPU runs of Dupire's paths that score their Greeks and their market inputs' (plain, antithetic).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(LocalBucketSteps);
}
