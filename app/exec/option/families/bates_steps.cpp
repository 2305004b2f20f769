// CPU runs of stepped Heston paths with jumps (Bates).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(BatesSteps);
}
