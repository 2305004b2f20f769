// GPU launches of a stock beside a Hull-White rate, GBM (Black-Scholes-Hull-White).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(Hybrid);
}
