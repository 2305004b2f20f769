// CPU runs of a Heston stock beside a Hull-White rate (Heston-Hull-White).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(HestonHybrid);
}
