// GPU launches of stepped GBM paths on scrambled Sobol points.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(SobolSteps);
}
