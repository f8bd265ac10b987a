#!/usr/bin/env bash
# SDSC files of the exported model zoo (examples/models/*.bir) with
# torch-spyre's SDSC cache off and on (docs/bundle-ir.md 4.5.1): per model,
# its leaf ops, the SDSC files their executes name with --sdsc-cache=false
# (one per op) and with the cache (the default), and the ops that reuse an
# earlier op's file. The counts are read from the plan JSON's per-op
# "sdsc_file" (distinct files per bundle, summed over the bundles). Prints a
# Markdown table (the BENCHMARKS.md section).
#   scripts/sdscfiles.sh [FILE.bir ...]      default: examples/models/*.bir
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/sdscgen" ./cmd/sdscgen
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(examples/models/*.bir)
py=python3
command -v /usr/bin/python3 >/dev/null && py=/usr/bin/python3
for f in "${files[@]}"; do
  n=$(basename "$f" .bir)
  "$dir/sdscgen" --plan - "$f" >"$dir/$n.on.json"
  "$dir/sdscgen" --plan - --sdsc-cache=false "$f" >"$dir/$n.off.json"
done
"$py" - "$dir" "${files[@]}" <<'PY'
import json, os, sys

d, files = sys.argv[1], sys.argv[2:]

def count(plan):
    ops = files_ = 0
    for b in plan["bundles"]:
        ops += len(b["ops"])
        files_ += len({o["sdsc_file"] for o in b["ops"]})
    return ops, files_

print("| model | bundles | ops | SDSC files, cache off | SDSC files, cache on | ops reusing a file | files saved |")
print("|---|---:|---:|---:|---:|---:|---:|")
tot = [0, 0, 0, 0]
for f in files:
    name = os.path.basename(f)[:-4]
    on = json.load(open(os.path.join(d, name + ".on.json")))
    off = json.load(open(os.path.join(d, name + ".off.json")))
    ops, f_off = count(off)
    _, f_on = count(on)
    tot = [tot[0] + ops, tot[1] + f_off, tot[2] + f_on, tot[3] + ops - f_on]
    print("| %s | %d | %d | %d | %d | %d | %.1f%% |" % (name, len(on["bundles"]), ops, f_off, f_on, ops - f_on,
                                                       100.0 * (f_off - f_on) / f_off if f_off else 0))
print("| **all** | | %d | %d | %d | %d | %.1f%% |" % (tot[0], tot[1], tot[2], tot[3],
                                                    100.0 * (tot[1] - tot[2]) / tot[1] if tot[1] else 0))
PY
