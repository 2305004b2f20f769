// GPU launches of stepped GBM averages that score their Greeks and their market inputs' (antithetic).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(AntitheticBucketSteps);
}
