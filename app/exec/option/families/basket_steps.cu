// GPU launches of walked baskets (Heston assets, early exercise).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(BasketSteps);
}
