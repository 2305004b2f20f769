// GPU launches of baskets of correlated GBM assets.
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(Basket);
}
