// CPU runs of baskets of correlated GBM assets.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(Basket);
}
