// CPU runs of a stock beside a Hull-White rate, GBM (Black-Scholes-Hull-White).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(Hybrid);
}
