// GPU launches of stepped Heston paths with jumps (Bates).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(BatesSteps);
}
