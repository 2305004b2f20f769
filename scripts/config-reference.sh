#!/bin/sh
# Writes docs/config-reference.md from `mcsim schema --markdown`: every key as
# declared next to the code that reads it. With --check, fails when the file is
# not current.
#   scripts/config-reference.sh MCSIM_EXE [--check]
set -eu
exe=$1
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
  echo "# Config reference"
  echo
  echo "Every key a job file may hold, as declared next to the code that reads it"
  echo "(\`mcsim schema\`; the tests hold each declaration to its reader), so this page"
  echo "cannot drift from the parser. Dotted paths name nested keys; \`[]\` is any item"
  echo "of a list."
  echo "A key marked required may be required only for some choices of other keys (the"
  echo "instrument type, the transport mode); the loader names what is missing. Numbers"
  echo "accept \`1e7\` and \`10_000_000\`. Regenerate with"
  echo "\`scripts/config-reference.sh build/release/mcsim\`."
  echo
  "$exe" schema --markdown
} > "$out"
if [ "${2:-}" = "--check" ]; then
  cmp -s "$out" docs/config-reference.md || {
    echo "docs/config-reference.md is not current: run scripts/config-reference.sh $exe" >&2
    diff "$out" docs/config-reference.md | head -20 >&2
    exit 1
  }
  echo "docs/config-reference.md is current"
else
  cp "$out" docs/config-reference.md
fi
