// GPU launches of stepped local-volatility paths.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(LocalVolSteps);
}
