// CPU runs of stepped GBM paths paying cash dividends.
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(CashSteps);
}
