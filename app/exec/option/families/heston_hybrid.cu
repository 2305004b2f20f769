// GPU launches of a Heston stock beside a Hull-White rate (Heston-Hull-White).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(HestonHybrid);
}
