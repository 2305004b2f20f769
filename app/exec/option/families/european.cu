// GPU launches of European payoffs in one step.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(European);
}
