#!/bin/bash
# scripts/compare-bits.sh on one build against itself (no difference, exit 0) and
# against a stand-in "build" whose runs take another seed (the estimates must be
# reported as differing, exit 1), on the quick-start job and one validation case.
set -euo pipefail
mcsim=$1 source=$2
/usr/bin/python3 -c "import yaml, h5py" 2> /dev/null || { echo "no python3-yaml or python3-h5py"; exit 77; }
other=$(mktemp -d)
trap 'rm -rf "$other"' EXIT
printf '#!/bin/sh\nexec "%s" "$@" --set run.seed=7\n' "$mcsim" > "$other/mcsim"
chmod +x "$other/mcsim"
only="config-quickstart|validation-european-call-atm"
"$source/scripts/compare-bits.sh" --paths 8192 --only "$only" "$mcsim" "$mcsim" | tee "$other/same.txt"
grep -q "2 jobs compared, 2 the same bits, 0 differ" "$other/same.txt"
status=0
"$source/scripts/compare-bits.sh" --paths 8192 --only "$only" "$mcsim" "$other/mcsim" > "$other/differ.txt" || status=$?
cat "$other/differ.txt"
[ "$status" -eq 1 ] || { echo "expected exit 1 for differing bits, got $status"; exit 1; }
grep -q "estimate base/price" "$other/differ.txt"
grep -q "2 jobs compared, 0 the same bits, 2 differ" "$other/differ.txt"
