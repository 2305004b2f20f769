// GPU launches of walked baskets scoring their Greeks on the path, 7 assets.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(BasketStepGreeks7);
}
