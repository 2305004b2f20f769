#!/bin/bash
# On a machine with a CUDA GPU: build, run every test (the [gpu] ones included),
# validate on the GPU in double and float, and run the benchmarks. Logs go to
# $OUT (or ./device-logs). Catch2 comes from .device-deps (../shared/device/stage-catch2.sh).
set -uo pipefail
out=${OUT:-device-logs}
mkdir -p "$out"
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_PREFIX_PATH="$PWD/.device-deps" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build build/device -j"$(nproc)" > "$out/build.log" 2>&1 || { grep -E 'error|Error' "$out/build.log" | head -30; exit 1; }
grep -E 'spill|stack frame' "$out/build.log" | sort | uniq | head -8
(cd build/device && ctest -j4 --output-on-failure > "$out/ctest.log" 2>&1); echo "ctest exit $?"
grep -E 'tests passed|Failed|\*\*\*' "$out/ctest.log" | tail -12
build/device/mcsim devices | tee "$out/devices.txt"
build/device/mcsim validate --backend cuda > "$out/validate-cuda.txt" 2>&1; echo "validate cuda double exit $?"; tail -3 "$out/validate-cuda.txt"
build/device/mcsim validate --backend cuda --set run.precision=float > "$out/validate-cuda-float.txt" 2>&1; echo "validate cuda float exit $?"; tail -3 "$out/validate-cuda-float.txt"
build/device/mcsim run configs/quickstart.yaml --force -q | tee "$out/quickstart.txt"
# Particle transport: the fixed-source slab (10 mean free paths, c = 0.9, a
# 100-bin flux mesh) and the PUa critical slab, on the GPU and on one CPU thread.
{
  build/device/bench/bench_transport configs/transport-fixed-slab.yaml cuda 200000000 5 float
  build/device/bench/bench_transport configs/transport-fixed-slab.yaml cuda 100000000 3 double
  build/device/bench/bench_transport configs/transport-eigen-slab.yaml cuda 1000000 3 float
  build/device/bench/bench_transport configs/transport-eigen-slab.yaml cuda 10000000 3 float
  OMP_NUM_THREADS=1 build/device/bench/bench_transport configs/transport-fixed-slab.yaml cpu 1000000 3 float
  OMP_NUM_THREADS=1 build/device/bench/bench_transport configs/transport-fixed-slab.yaml cpu 1000000 3 double
} 2>&1 | tee "$out/bench-transport.txt"
# The same transport jobs on every GPU of the node (one rank), when there are several.
if [ "$(nvidia-smi -L | wc -l)" -gt 1 ]; then
  {
    build/device/bench/bench_transport configs/transport-fixed-slab.yaml cuda 400000000 5 float
    build/device/bench/bench_transport configs/transport-eigen-slab.yaml cuda 10000000 3 float
  } 2>&1 | tee "$out/bench-transport-all-gpus.txt"
fi
[ "${SKIP_VAR:-0}" = 1 ] && exit 0
# Portfolio risk: the issue's 100-asset, 1,000-option book at 10^8 scenarios (float
# and double), the 200-asset, 5,000-option example, and the CPU on one thread.
python3 scripts/var_portfolio.py 100 1000 100000000 /tmp/var-bench.yaml
{
  build/device/bench/bench_var /tmp/var-bench.yaml cuda 100000000 5
  build/device/bench/bench_var /tmp/var-bench.yaml cuda 100000000 3 double
  build/device/bench/bench_var configs/var-large.yaml cuda 10000000 3
  OMP_NUM_THREADS=1 build/device/bench/bench_var /tmp/var-bench.yaml cpu 20000 5
} 2>&1 | tee "$out/bench-var.txt"
[ "${ONLY_VAR:-0}" = 1 ] && exit 0
build/device/bench/bench_option european cuda | tee "$out/bench-cuda.txt"
build/device/bench/bench_option asian-barrier cuda | tee "$out/bench-asian.txt"
for job in asian asian-cv asian-sobol basket american; do build/device/bench/bench_option $job cuda; done | tee "$out/bench-more.txt"
# Sobol with the control reaches 1e-4 within a few point sets: time it at sizes around that.
for n in 8192 32768 131072; do build/device/bench/bench_option asian-sobol-cv cuda $n; done | tee "$out/bench-sobol.txt"
OMP_NUM_THREADS=1 build/device/bench/bench_option european cpu | tee "$out/bench-cpu.txt"
OMP_NUM_THREADS=1 build/device/bench/bench_option asian-barrier cpu | tee -a "$out/bench-cpu.txt"
# Scale-out: the 2^34-path job's overheads, then a job of seconds on one GPU, on
# every GPU of one rank, and on one rank per GPU.
[ "${SKIP_SCALE:-0}" = 1 ] && exit 0
mpi="mpirun --allow-run-as-root --oversubscribe"
ngpu=$(nvidia-smi -L | wc -l)
{
  CUDA_VISIBLE_DEVICES=0 build/device/bench/bench_scale 34 5
  CUDA_VISIBLE_DEVICES=0 build/device/bench/bench_scale 41 3
  if [ "$ngpu" -gt 1 ]; then
    build/device/bench/bench_scale 41 3
    $mpi -np "$ngpu" build/device/bench/bench_scale 41 3
  fi
  CUDA_VISIBLE_DEVICES=0 /usr/bin/time -f "process wall %e s (mcsim run, 2^34 paths, float, one GPU, CUDA start-up included)" \
    build/device/mcsim run configs/quickstart.yaml -q --force -o /tmp/scale34.h5 \
    --set run.paths=17179869184 --set run.precision=float | grep -E 'price|time|wrote'
} 2>&1 | tee "$out/bench-scale.txt"
