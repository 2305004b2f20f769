// GPU launches of stepped GBM paths paying cash dividends.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(CashSteps);
}
