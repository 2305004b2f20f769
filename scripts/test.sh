#!/bin/sh
# Builds mcsim and runs the whole test suite (unit, CLI, validation; the [gpu]
# tests run when a CUDA device is present and are reported as skipped otherwise).
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
