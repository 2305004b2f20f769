// GPU launches of American and Bermudan exercise (regression paths).
#include "app/exec/option/cuda_family.cuh"

namespace mcsim {
MCSIM_CUDA_FAMILY(American);
}
