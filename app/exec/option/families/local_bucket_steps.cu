// GPU launches of Dupire's paths that score their Greeks and their market inputs' (plain, antithetic).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(LocalBucketSteps);
}
