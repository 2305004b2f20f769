#!/bin/sh
# Prints the CMake options the build scripts pass for the CUDA backend: off when no
# NVIDIA GPU is visible here (compiling kernels that cannot run costs a small
# machine most of its build time), else on and for this machine's GPUs alone
# (CMake's `native`: one generation builds in a fraction of the portable default's
# time). MCSIM_CUDA=ON or OFF in the environment decides instead: ON on a login
# node that builds for GPU compute nodes, for every generation in use.
if [ -n "${MCSIM_CUDA:-}" ]; then
  echo "-DMCSIM_CUDA=$MCSIM_CUDA"
elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "-DMCSIM_CUDA=OFF"
else
  echo "-DMCSIM_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native"
fi
