// GPU launches of Hull-White short-rate paths (rate products).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(ShortRate);
}
