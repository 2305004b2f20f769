// CPU runs of Hull-White short-rate paths (rate products).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(ShortRate);
}
