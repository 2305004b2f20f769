// GPU launches of stepped CEV paths.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(CevSteps);
}
