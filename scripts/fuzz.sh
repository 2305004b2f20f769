#!/bin/sh
# Fuzzes the config loader with libFuzzer (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer) for SECONDS (default 120), starting from the example
# jobs. Exits non-zero on a crash, a hang (10 s for one input), a sanitizer report
# or an error other than a config error; the input that did it is left in
# build/fuzz/findings/.
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
cp configs/*.yaml "$corpus"/
mkdir -p build/fuzz/findings
status=0
build/fuzz/tests/fuzz/fuzz_config "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build/fuzz/findings/ > build/fuzz/fuzz.log 2>&1 || status=$?
grep -vE "^#[0-9]+ +(NEW|REDUCE|pulse)|^\"|# Uses:|recommended dictionary" build/fuzz/fuzz.log | tail -40
if [ "$status" -ne 0 ]; then
  echo "fuzz: FINDING (libFuzzer exit $status); the input is in build/fuzz/findings/, the log in build/fuzz/fuzz.log" >&2
  exit 1
fi
echo "fuzz: no finding in ${seconds} s"
