// CPU runs of European payoffs in one step.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(European);
}
