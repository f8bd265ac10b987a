#!/usr/bin/env bash
# Pooling savings on the exported model zoo (examples/models/*.bir): per
# model, the bytes its pool candidates (intermediates produced and consumed
# inside one bundle) take with no pooling (one allocation per storage group),
# the sum of the per-bundle pools under --allocator first-fit and best, the
# sum of the per-bundle lower bounds (most candidate bytes live at one step),
# and the ratios; then the graph's HBM footprint from the plan JSON (peak live
# bytes over the graph's nodes) under first-fit and best, with no pooling and
# with every pool resident. Prints two Markdown tables (the BENCHMARKS.md
# section). Storage groups are read from the plan JSON's "group" field.
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
import json, os, sys

d, files = sys.argv[1], sys.argv[2:]

def mib(n):
    return "%.2f" % (n / 2**20)

def r(a, b):
    return "%.3f" % (a / b) if b else "-"

plans = {}
for f in files:
    name = os.path.basename(f)[:-4]
    plans[name] = {a: json.load(open(os.path.join(d, "%s.%s.json" % (name, a)))) for a in ("first-fit", "best")}

print("| model | bundles | candidates | no pooling (MiB) | first-fit (MiB) | best (MiB) | lower bound (MiB) | first-fit / none | best / none | first-fit / LB | best / LB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
tot = [0, 0, 0, 0]
for name, pl in plans.items():
    p = pl["first-fit"]
    group = {}  # storage group root -> group size, for candidate groups
    for b in p["buffers"]:
        if b["bundle"] is None:
            continue
        group[b["group"]] = max(group.get(b["group"], 0), b["view_offset"] + b["size"])
    none = sum(group.values())
    ff = sum(p["pool_sizes"].values())
    best = sum(pl["best"]["pool_sizes"].values())
    lb = sum(b["lower_bound"] for b in p["bundles"])
    for i, v in enumerate((none, ff, best, lb)):
        tot[i] += v
    print("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, len(p["bundles"]), len(group), mib(none), mib(ff), mib(best), mib(lb),
        r(ff, none), r(best, none), r(ff, lb), r(best, lb)))
print("| **all** | | | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    mib(tot[0]), mib(tot[1]), mib(tot[2]), mib(tot[3]), r(tot[1], tot[0]), r(tot[2], tot[0]), r(tot[1], tot[3]), r(tot[2], tot[3])))

# The graph's HBM footprint (the plan JSON's "footprint"): the peak of live
# bytes over the graph's nodes with each allocator's pools, with no pooling,
# and with every pool resident at every node.
print()
print("| model | nodes | peak first-fit (MiB) | peak best (MiB) | no pooling (MiB) | resident first-fit (MiB) | resident best (MiB) | first-fit / none | best / none | best / resident best |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, pl in plans.items():
    ff, best = pl["first-fit"]["footprint"], pl["best"]["footprint"]
    none = ff["no_pooling_peak_bytes"]
    print("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, len(ff["timeline"]), mib(ff["peak_bytes"]), mib(best["peak_bytes"]), mib(none),
        mib(ff["resident_pools_peak_bytes"]), mib(best["resident_pools_peak_bytes"]),
        r(ff["peak_bytes"], none), r(best["peak_bytes"], none), r(best["peak_bytes"], best["resident_pools_peak_bytes"])))
PY
