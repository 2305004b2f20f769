#!/bin/bash
# Installs the build in $1 into a scratch prefix, then runs the installed mcsim
# from another folder: the quick-start job from its installed configs, and the
# validation cases it finds by itself (one of them, to stay quick).
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
for f in bin/mcsim share/mcsim/configs/quickstart.yaml share/mcsim/validation/transport-fixed.yaml share/doc/mcsim/README.md share/doc/mcsim/config-reference.md; do
  [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
cd "$prefix"
bin/mcsim run share/mcsim/configs/quickstart.yaml --backend cpu -q --set run.paths=100000 -o out/q.h5 | grep "price" > /dev/null
[ -f out/q.h5 ] || { echo "no results file"; exit 1; }
bin/mcsim schema > schema.txt && grep -q "^run.paths" schema.txt || { echo "installed mcsim schema found no configs"; exit 1; }
# The Python package, where the build has it: the installed copy reads the file.
if [ -d "$build/python/mcsim" ]; then
  site=$(cd "$prefix" && ls -d lib/python3*/site-packages)
  [ -f "$site/mcsim/__init__.py" ] && ls "$site"/mcsim/_core*.so > /dev/null || { echo "not installed: the mcsim Python package"; exit 1; }
  PYTHONPATH="$prefix/$site" /usr/bin/python3 -c "
import mcsim, sys
assert mcsim.__file__.startswith('$prefix'), mcsim.__file__
r = mcsim.open('out/q.h5')
assert r.estimate('price')['samples'] == 100000
" || { echo "installed mcsim Python package failed"; exit 1; }
  # An installed mcsim plot runs the installed package's plots.
  bin/mcsim plot out/q.h5 -o out/plots > /dev/null || { echo "installed mcsim plot failed"; exit 1; }
  [ -s out/plots/base.convergence.png ] || { echo "installed mcsim plot wrote no convergence plot"; exit 1; }
fi
# With no folder given, the installed cases are found: keep one file of them, so
# the run is quick and its count tells them from the source tree's.
find share/mcsim/validation -name '*.yaml' ! -name european.yaml -delete
summary=$(bin/mcsim validate --backend cpu | tail -1)
echo "$summary" | grep " 0 failed" > /dev/null || { echo "installed validation: $summary"; exit 1; }
[ "$(bin/mcsim validate share/mcsim/validation --backend cpu | tail -1)" = "$summary" ] || { echo "default folder is not the installed one"; exit 1; }
echo "install check passed"
