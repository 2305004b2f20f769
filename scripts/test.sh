#!/bin/sh
# Builds mcsim and runs the whole test suite (unit, CLI, validation; the [gpu]
# tests run when a CUDA device is present and are reported as skipped otherwise;
# the CUDA backend is compiled when one is, or with MCSIM_CUDA=ON: cuda-option.sh;
# the CPU hot loops for this machine's instruction set, or MCSIM_CPU_LEVELS).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release $(scripts/cuda-option.sh) -DMCSIM_CPU_LEVELS="${MCSIM_CPU_LEVELS:-host}"
cmake --build --preset release
ctest --preset release
