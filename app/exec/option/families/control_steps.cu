// GPU launches of stepped GBM paths with the geometric control variate.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(ControlSteps);
}
