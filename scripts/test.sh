#!/bin/sh
# Builds mcsim and runs the whole test suite (unit, CLI, validation; the [gpu]
# tests run when a CUDA device is present and are reported as skipped otherwise;
# the CUDA backend is compiled when one is, or with MCSIM_CUDA=ON: cuda-option.sh).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release "$(scripts/cuda-option.sh)"
cmake --build --preset release
ctest --preset release
