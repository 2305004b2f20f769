// GPU launches of stepped GBM paths that score their Greeks (plain, antithetic).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(GreekSteps);
}
