// GPU launches of local volatility paths (Dupire's grid, CEV) scoring their Greeks on the path.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(LocalGreekSteps);
}
