// CPU runs of American and Bermudan exercise (regression paths).
#include "app/exec/option/cpu_family.hpp"

namespace mcsim {
MCSIM_CPU_FAMILY(American);
}
