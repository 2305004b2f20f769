#!/bin/sh
# Installs the Debian 12 packages mcsim builds with (as root; safe to run again).
# The CUDA backend is built as well when an NVIDIA CUDA toolkit (nvcc) is present,
# e.g. in /usr/local/cuda; without one mcsim builds the CPU backend only.
set -eu
packages="build-essential cmake ninja-build git pkg-config libhdf5-dev libyaml-cpp-dev
libcli11-dev libfmt-dev catch2 libopenmpi-dev openmpi-bin python3-h5py python3-matplotlib python3-yaml
python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "install-deps: run as root (or with sudo) to install:$missing" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing
fi
echo "install-deps: all build dependencies present"
