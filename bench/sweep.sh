#!/bin/bash
# A sweep of small jobs through the whole process: POINTS volatilities of a
# European call of PATHS paths each (configs/quickstart.yaml's), one mcsim run.
# Prints the median whole-process wall time of RUNS runs after a warm-up, the run's
# own stages and the write, next to the target (issue 26: 1,000 points of 10^6
# paths in 1 s on one H200).
#   bench/sweep.sh MCSIM [BACKEND=auto] [POINTS=1000] [PATHS=1000000] [RUNS=5]
set -euo pipefail
mcsim=$1 backend=${2:-auto} points=${3:-1000} paths=${4:-1000000} runs=${5:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

values=$(awk -v n="$points" 'BEGIN { for (i = 0; i < n; ++i) printf "%s%.6f", (i ? ", " : ""), 0.1 + 0.4 * i / n }')
cat > "$work/sweep.yaml" <<YAML
run: { name: sweep, paths: $paths, seed: 42 }
model:
  type: option
  process: { type: gbm, spot: 100, rate: 0.05, dividend: 0.0, volatility: 0.2 }
  instrument: { type: european, option: call, strike: 100, maturity: 1.0 }
sweep:
  model.process.volatility: [$values]
YAML

run_once() {
  local start end
  start=$(date +%s.%N)
  "$mcsim" run "$work/sweep.yaml" --backend "$backend" -v --force -o "$work/out/sweep.h5" > "$work/log" 2>&1 ||
    { tail -20 "$work/log" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.3f\n", $2 - $1}'
}
mkdir -p "$work/out"
run_once > /dev/null  # warm-up
for ((i = 0; i < runs; ++i)); do run_once; done > "$work/times"
median=$(sort -g "$work/times" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
echo "sweep of $points points x $paths paths, backend $backend: median process wall $median s of $runs runs" \
  "($(sort -g "$work/times" | tr '\n' ' ')s); target <= 1 s on one H200 for 1000 x 10^6"
grep -E "^  (stages|wrote|backend)" "$work/log" | sed 's/^/  last run: /'
