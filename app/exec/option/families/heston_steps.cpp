// CPU runs of stepped Heston paths.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(HestonSteps);
}
