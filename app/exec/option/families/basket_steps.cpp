// CPU runs of walked baskets (Heston assets, early exercise).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(BasketSteps);
}
