#!/bin/sh
# Prints the CMake option the build scripts pass for the CUDA backend: off when no
# NVIDIA GPU is visible here (compiling kernels that cannot run costs a small
# machine most of its build time), else the CMakeLists default (on when nvcc is
# found). MCSIM_CUDA=ON or OFF in the environment decides instead: ON on a login
# node that builds for GPU compute nodes.
if [ -n "${MCSIM_CUDA:-}" ]; then
  echo "-DMCSIM_CUDA=$MCSIM_CUDA"
elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "-DMCSIM_CUDA=OFF"
else
  echo "-DMCSIM_CUDA=ON"
fi
