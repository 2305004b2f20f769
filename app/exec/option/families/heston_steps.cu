// GPU launches of stepped Heston paths.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(HestonSteps);
}
