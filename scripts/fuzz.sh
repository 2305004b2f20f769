#!/bin/sh
# Fuzzes the config loader (from the example jobs) and the results reader (whole
# files, and byte changes to a real one) with libFuzzer (clang, AddressSanitizer
# and UndefinedBehaviorSanitizer), SECONDS each (default 120). Exits non-zero on a
# crash, a hang (10 s for one input), a sanitizer report, an error of a kind the
# reader does not promise, or a changed file read back as other numbers; the
# input that did it is left in build/fuzz/findings/.
#   scripts/fuzz.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-120}
scripts/install-deps.sh
missing=""
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "fuzz: run as root (or with sudo) to install:$missing" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
cmake --preset fuzz > /dev/null
cmake --build --preset fuzz
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$corpus/config" "$corpus/results" build/fuzz/findings
cp configs/*.yaml "$corpus/config"/
status=0
# fuzz TARGET CORPUS [ENV]: one target for $seconds; its log in build/fuzz/TARGET.log.
fuzz() {
  env ${3:-} build/fuzz/tests/fuzz/"$1" "$2" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix=build/fuzz/findings/"$1"- > build/fuzz/"$1".log 2>&1 || {
    echo "fuzz: $1: FINDING; the input is in build/fuzz/findings/, the log in build/fuzz/$1.log" >&2
    status=1
  }
  grep -vE "^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED|DONE)|^\"|# Uses:|recommended dictionary" build/fuzz/"$1".log | tail -20
}
fuzz fuzz_config "$corpus/config"
# libhdf5 leaks a little on files it cannot open; that is not a finding here.
fuzz fuzz_results "$corpus/results" ASAN_OPTIONS=detect_leaks=0
[ "$status" -eq 0 ] && echo "fuzz: no finding in ${seconds} s per target"
exit "$status"
