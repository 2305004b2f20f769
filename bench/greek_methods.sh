#!/bin/bash
# A job's Greeks both ways on the same run of the machine: greek_method path (what
# the path scores, the rest bumped) against greek_method bump (every Greek by bump
# and revalue on the same random numbers). Prints the median whole-job wall time of
# each after a warm-up, their ratio, and per Greek each method's standard error.
#   bench/greek_methods.sh MCSIM CONFIG [BACKEND=auto] [RUNS=3] [--set KEY=VALUE ...]
set -euo pipefail
mcsim=$1 config=$2 backend=${3:-auto} runs=${4:-3}
shift $(( $# < 4 ? $# : 4 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: its wall seconds on the first line, then "name value std_error" lines.
run_once() {  # method, then the --set arguments
  local m=$1
  shift
  "$mcsim" run "$config" --backend "$backend" -q --force -o "$work/$m.h5" --set model.greek_method="$m" "$@" \
    > "$work/$m.out" 2>&1 || { cat "$work/$m.out" >&2; exit 1; }
  awk '/^  time /{print $2}' "$work/$m.out"
}
estimates() {  # method
  awk '/^  estimate /{on=1; next} /^  (diagnostics|time|wrote)/{on=0} on && NF >= 3 {print $1, $2, $3}' "$work/$1.out"
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

declare -A wall
for method in path bump; do
  run_once "$method" "$@" > /dev/null  # warm-up
  for ((i = 0; i < runs; ++i)); do run_once "$method" "$@"; done > "$work/$method.times"
  wall[$method]=$(median < "$work/$method.times")
  estimates "$method" > "$work/$method.est"
done
echo "job $config, backend $backend, median of $runs runs after a warm-up"
echo "  greek_method path: ${wall[path]} s wall"
echo "  greek_method bump: ${wall[bump]} s wall"
awk -v p="${wall[path]}" -v b="${wall[bump]}" 'BEGIN {printf "  bump / path: %.2fx\n", b / p}'
echo "  estimate             path (std error)         bump (std error)        error ratio path/bump"
join <(sort "$work/path.est") <(sort "$work/bump.est") |
  awk '{r = ($5 > 0) ? $3 / $5 : 0; printf "  %-18s %12s (%9s)  %12s (%9s)   %.2f\n", $1, $2, $3, $4, $5, r}'
