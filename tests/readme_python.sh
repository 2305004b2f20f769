#!/bin/sh
# The README's Python example (its first python block), run as a user would after
# the Quick start: from the source folder, with the build's package on PYTHONPATH.
# $1: the Python, $2: the build folder, $3: the source folder.
set -eu
python=$1 build=$2 source=$3
example=$(awk '/^```python$/ { inside = 1; next } /^```$/ && inside { exit } inside' "$source/README.md")
[ -n "$example" ] || { echo "no python block in README.md"; exit 1; }
cd "$source"
out=$(PYTHONPATH="$build/python" "$python" -c "$example")
echo "$out"
echo "$out" | grep -Eq "price +10\.[0-9]+ +0\.0[0-9]+ +10\.450584" || { echo "the example did not print the price"; exit 1; }
