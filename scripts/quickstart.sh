#!/bin/sh
# Installs dependencies, builds mcsim (Release) and runs configs/quickstart.yaml on
# the default backend: the GPU when one is usable, otherwise the CPU.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release $(scripts/cuda-option.sh) -DMCSIM_CPU_LEVELS="${MCSIM_CPU_LEVELS:-host}"
cmake --build --preset release
build/release/mcsim run configs/quickstart.yaml --force
