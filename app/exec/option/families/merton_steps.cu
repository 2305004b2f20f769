// GPU launches of stepped GBM paths with jumps (Merton).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(MertonSteps);
}
