#!/usr/bin/env bash
# Pooling savings on the exported model zoo (examples/models/*.bir): per
# model, the bytes its pool candidates (intermediates produced and consumed
# inside one bundle) take with no pooling (one allocation per storage group),
# the sum of the per-bundle pools under --allocator first-fit and best, the
# sum of the per-bundle lower bounds (most candidate bytes live at one step),
# and the ratios. Prints a Markdown table (the BENCHMARKS.md section).
#   scripts/poolsave.sh [FILE.bir ...]      default: examples/models/*.bir
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/sdscgen
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/sdscgen
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(examples/models/*.bir)
py=python3
command -v /usr/bin/python3 >/dev/null && py=/usr/bin/python3
for f in "${files[@]}"; do
  for a in first-fit best; do
    "$bin" --plan - --allocator "$a" "$f" >"$(dirname "$bin")/$(basename "$f" .bir).$a.json"
  done
done
"$py" - "$(dirname "$bin")" "${files[@]}" <<'PY'
import json, os, re, sys

d, files = sys.argv[1], sys.argv[2:]

def mib(n):
    return "%.2f" % (n / 2**20)

print("| model | bundles | candidates | no pooling (MiB) | first-fit (MiB) | best (MiB) | lower bound (MiB) | first-fit / none | best / none | first-fit / LB | best / LB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
tot = [0, 0, 0, 0]
for f in files:
    name = os.path.basename(f)[:-4]
    roots = {}
    with open(f) as fh:
        for line in fh:
            m = re.match(r"\s*alias (\S+) = (\S+)(?: \+ \d+)?", line.split("//")[0])
            if m:
                roots[m.group(1)] = m.group(2)
    def root(n):
        while n in roots:
            n = roots[n]
        return n
    plans = {a: json.load(open(os.path.join(d, "%s.%s.json" % (name, a)))) for a in ("first-fit", "best")}
    p = plans["first-fit"]
    group = {}  # root -> group size, for candidate groups
    for b in p["buffers"]:
        if b["bundle"] is None:
            continue
        r = root(b["name"])
        group[r] = max(group.get(r, 0), b.get("view_offset", 0) + b["size"])
    none = sum(group.values())
    ff = sum(v for v in p["pool_sizes"].values())
    best = sum(v for v in plans["best"]["pool_sizes"].values())
    lb = sum(b["lower_bound"] for b in p["bundles"])
    for i, v in enumerate((none, ff, best, lb)):
        tot[i] += v
    r = lambda a, b: "%.3f" % (a / b) if b else "-"
    print("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, len(p["bundles"]), len(group), mib(none), mib(ff), mib(best), mib(lb),
        r(ff, none), r(best, none), r(ff, lb), r(best, lb)))
r = lambda a, b: "%.3f" % (a / b) if b else "-"
print("| **all** | | | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    mib(tot[0]), mib(tot[1]), mib(tot[2]), mib(tot[3]), r(tot[1], tot[0]), r(tot[2], tot[0]), r(tot[1], tot[3]), r(tot[2], tot[3])))
PY
