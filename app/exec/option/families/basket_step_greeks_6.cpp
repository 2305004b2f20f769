// CPU runs of walked baskets scoring their Greeks on the path, 6 assets.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(BasketStepGreeks6);
}
