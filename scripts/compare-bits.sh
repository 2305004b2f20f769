#!/bin/sh
# Runs every example job (configs/*.yaml) and every validation case (validation/*.yaml)
# with two builds of mcsim and reports each estimate, table or chunk partial whose
# bits differ between them. A refactor must report none; a change that moves bits on
# purpose names them.
#
#   scripts/compare-bits.sh [options] OLD_BUILD NEW_BUILD
#   scripts/compare-bits.sh [options] --digests FILE BUILD
#     OLD_BUILD, NEW_BUILD   build folders (holding mcsim) or mcsim executables
#     --digests FILE         one build against the digests FILE holds (one line a job:
#                            name, SHA-256 of what the comparison reads); --write-digests
#                            FILE writes them instead. With --paths, every job (the
#                            validation cases too) runs at that size.
#     --paths N              run every example job with run.paths=N (validation cases
#                            keep their own sizes); default: the jobs as written
#     --backend B            cpu (default) | cuda | auto
#     --only REGEX           only the jobs and cases whose name matches (grep -E)
#     --keep DIR             keep the results files in DIR (default: a temp folder)
#     --jobs DIR             the job files of an earlier --keep DIR/jobs instead (for a
#                            machine without Python's yaml module)
# Exit status: 0 all the same bits, 1 some differ, 2 a run failed or bad usage.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
paths="" backend=cpu only="" keep="" jobs="" digests="" write=""
while [ $# -gt 0 ]; do
  case "$1" in
    --paths) paths=$2; shift 2 ;;
    --digests) digests=$2; shift 2 ;;
    --write-digests) digests=$2 write=1; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --jobs) jobs=$(cd "$2" && pwd); shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "compare-bits: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
exe() { if [ -d "$1" ]; then echo "$(cd "$1" && pwd)/mcsim"; else echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; fi; }
if [ -n "$digests" ]; then
  [ $# -eq 1 ] || { echo "usage: scripts/compare-bits.sh [options] --digests FILE BUILD" >&2; exit 2; }
  digests=$(cd "$(dirname "$digests")" && pwd)/$(basename "$digests")
  sides="new" old="" new=$(exe "$1")
else
  [ $# -eq 2 ] || { echo "usage: scripts/compare-bits.sh [options] OLD_BUILD NEW_BUILD" >&2; exit 2; }
  sides="old new" old=$(exe "$1") new=$(exe "$2")
fi
for x in $old "$new"; do [ -x "$x" ] || { echo "compare-bits: no mcsim at $x" >&2; exit 2; }; done
py=/usr/bin/python3
[ -x "$py" ] || py=python3
work=${keep:-$(mktemp -d)}
mkdir -p "$work/jobs" "$work/old" "$work/new"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# One job file per example and per validation case (the case's base with its `set`).
if [ -n "$jobs" ]; then cp "$jobs"/*.yaml "$work/jobs/"; else
"$py" - "$top" "$work/jobs" <<'PY'
import glob, os, shutil, sys, yaml
top, out = sys.argv[1], sys.argv[2]
def anchor(doc, folder):  # data files named relative to the job's own folder, made absolute
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "file" and isinstance(v, str) and not os.path.isabs(v):
                doc[k] = os.path.join(folder, v)
            else:
                anchor(v, folder)
    elif isinstance(doc, list):
        for v in doc:
            anchor(v, folder)
    return doc
for f in sorted(glob.glob(os.path.join(top, "configs", "*.yaml"))):
    target = os.path.join(out, "config-" + os.path.basename(f))
    if "file:" in open(f).read():
        with open(target, "w") as o:
            yaml.safe_dump(anchor(yaml.safe_load(open(f)), os.path.dirname(f)), o, sort_keys=False)
    else:
        shutil.copy(f, target)
def put(doc, key, value):  # as --set does: null removes the key
    *parents, last = key.split(".")
    for p in parents:
        doc = doc.setdefault(p, {})
    if value is None:
        doc.pop(last, None)
    else:
        doc[last] = value
for f in sorted(glob.glob(os.path.join(top, "validation", "*.yaml"))):
    suite = yaml.safe_load(open(f))
    stem = os.path.splitext(os.path.basename(f))[0]
    base, folder = suite["base"], os.path.dirname(f)
    if isinstance(base, str):  # a job file, relative to the case file, its data files to itself
        path = os.path.join(folder, base)
        base, folder = yaml.safe_load(open(path)), os.path.dirname(path)
    for case in suite["cases"]:
        job = yaml.safe_load(yaml.safe_dump(base))
        for k, v in (case.get("set") or {}).items():
            put(job, k, v)
        anchor(job, folder)
        with open(os.path.join(out, f"validation-{stem}-{case['name']}.yaml"), "w") as o:
            yaml.safe_dump(job, o, sort_keys=False)
PY
fi

failed=0  # jobs that ran on one build and failed on the other
for job in "$work"/jobs/*.yaml; do
  name=$(basename "$job" .yaml)
  [ -z "$only" ] || echo "$name" | grep -Eq "$only" || continue
  set -- --backend "$backend" -q --force
  # A historical simulation's scenarios are its history's windows: paths stay as they are.
  sized=config-; [ -z "$digests" ] || sized=""
  case "$name" in "$sized"*) [ -z "$paths" ] || grep -q "method: *historical" "$job" || set -- "$@" --set "run.paths=$paths" ;; esac
  ok=""
  for side in $sides; do
    bin=$old; [ $side = new ] && bin=$new
    if (cd "$work" && "$bin" run "$job" -o "$work/$side/$name.h5" "$@" >"$work/$side/$name.log" 2>&1); then
      ok="$ok $side"
    fi
  done
  case "$ok" in
    " $sides" | " old new") ;;
    "") echo "FAILED  $name on both builds: $(tail -1 "$work/new/$name.log")"
        [ -z "$digests" ] || failed=1 ;;
    *) echo "FAILED  $name on one build only (ran on:$ok): see $work/old/$name.log and $work/new/$name.log"
       failed=1 ;;
  esac
done

# Every dataset and every attribute under /scenarios, bit for bit (provenance,
# /timing and diagnostics that are rates, NAME_per_s, are allowed to differ).
status=0
"$py" - "$work" "$only" "$digests" "$write" "$paths" <<'PY' || status=$?
import glob, hashlib, os, re, sys
import h5py, numpy as np
work, only, digests, write, paths = sys.argv[1:6]
def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return a.tobytes() == b.tobytes()
def walk(g, prefix, out):
    for k, v in g.attrs.items():
        out[f"{prefix}@{k}"] = v
    for k in g:
        item = g[k]
        if isinstance(item, h5py.Group):
            walk(item, f"{prefix}/{k}", out)
        elif k == "diagnostics":
            for row in item[()]:
                name = row["name"].decode() if isinstance(row["name"], bytes) else row["name"]
                if not name.endswith("_per_s"):
                    out[f"{prefix}/{k}/{name}"] = row["value"]
        else:
            out[f"{prefix}/{k}"] = item[()]
def estimates(f):
    rows = {}
    for s in f["scenarios"]:
        est = f["scenarios"][s].get("estimates")
        if est is None:
            continue
        for r in est[()]:
            rows[(s, r["name"].decode() if isinstance(r["name"], bytes) else r["name"])] = r
    return rows
def digest(path):
    with h5py.File(path, "r") as f:
        x = {}
        walk(f["scenarios"], "/scenarios", x)
    h = hashlib.sha256()
    for k in sorted(x):
        v = np.asarray(x[k])
        h.update(f"{k}|{v.dtype.str}|{v.shape}|".encode())
        h.update(v.tobytes())
    return h.hexdigest()
if digests:
    runs = {os.path.basename(p)[:-3]: digest(p) for p in sorted(glob.glob(os.path.join(work, "new", "*.h5")))
            if not p.endswith(".ckpt.h5")}
    if write:
        with open(digests, "w") as o:
            o.write(f"# scripts/compare-bits.sh {'--paths ' + paths + ' ' if paths else ''}--write-digests: one job a line, "
                    "the SHA-256 of its results' numbers\n")
            for name, d in runs.items():
                o.write(f"{name} {d}\n")
        print(f"compare-bits: wrote {len(runs)} digests to {digests}")
        sys.exit(0)
    kept = dict(l.split() for l in open(digests) if l.strip() and not l.startswith("#"))
    if only:
        kept = {k: v for k, v in kept.items() if re.search(only, k)}
    bad = sorted(k for k in set(kept) | set(runs) if kept.get(k) != runs.get(k))
    for k in bad:
        why = "no digest kept" if k not in kept else "did not run" if k not in runs else "bits moved"
        print(f"DIFFER  {k}: {why}")
    print(f"compare-bits: {len(runs)} jobs against {os.path.basename(digests)}, {len(bad)} differ"
          + ("; a change that moves bits on purpose rewrites the file with --write-digests and says so" if bad else ""))
    sys.exit(1 if bad else 0)
differ = compared = 0
for old in sorted(glob.glob(os.path.join(work, "old", "*.h5"))):
    name = os.path.basename(old)[:-3]
    if name.endswith(".ckpt"):  # a checkpoint a failed run left
        continue
    new = os.path.join(work, "new", name + ".h5")
    if not os.path.exists(new):
        continue
    compared += 1
    with h5py.File(old, "r") as a, h5py.File(new, "r") as b:
        x, y = {}, {}
        walk(a["scenarios"], "/scenarios", x)
        walk(b["scenarios"], "/scenarios", y)
        bad = sorted(k for k in set(x) | set(y) if k not in x or k not in y or not same(x[k], y[k]))
        if not bad:
            continue
        differ += 1
        print(f"DIFFER  {name}")
        ea, eb = estimates(a), estimates(b)
        for key in sorted(set(ea) | set(eb)):
            ra, rb = ea.get(key), eb.get(key)
            if ra is None or rb is None or not same(ra, rb):
                fmt = lambda r: "missing" if r is None else f"{r['value']!r} +- {r['std_error']!r}"
                print(f"  estimate {key[0]}/{key[1]}: {fmt(ra)} -> {fmt(rb)}")
        for k in bad:
            print(f"  {k}{'' if k in x else ' (new only)'}{'' if k in y else ' (old only)'}")
print(f"compare-bits: {compared} jobs compared, {compared - differ} the same bits, {differ} differ")
sys.exit(1 if differ else 0)
PY
[ $failed -eq 0 ] || exit 2
exit $status
