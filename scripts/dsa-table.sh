#!/bin/sh
# dsa-table.sh: run every pool allocator on every MiniMalloc-format
# instance in ../shared/dsa-benchmarks (the challenging suite A-K, the
# idealloc SOMAS and IOPDDL traces, the small traps) and print markdown:
# pool_end / lower bound and wall time per instance and allocator, then
# the challenging suite as a decision problem at capacity 1048576 (what
# MiniMalloc is timed on). The output is what BENCHMARKS.md quotes.
#
# usage: scripts/dsa-table.sh [--search-time D]   (from anywhere)
# DSA_BENCHMARKS overrides the data directory.
set -eu
cd "$(dirname "$0")/.."
bench=${DSA_BENCHMARKS:-../shared/dsa-benchmarks}
search_time=1s
if [ "${1:-}" = "--search-time" ] && [ -n "${2:-}" ]; then
	search_time=$2
fi
if [ ! -d "$bench" ]; then
	echo "dsa-table: no benchmark data at $bench (expected ../shared/dsa-benchmarks next to the repository); nothing to do" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/dsatable" ./scripts/dsatable

echo "- Command: \`scripts/dsa-table.sh\` (best: --search-time $search_time)"
echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1); $(go version | cut -d' ' -f3); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "Each cell: pool_end / lower bound (wall time of the allocator alone); \"1 = LB\": pool_end equals the lower bound (most bytes live at once), so the packing is optimal."
echo
"$tmp/dsatable" -search-time "$search_time" "$bench"
echo
echo "Challenging suite as a decision problem (\`sdscgen pack --capacity 1048576 --allocator best\`): pool_end / lower bound (time to a packing within 1048576)."
echo
"$tmp/dsatable" -search-time "$search_time" -allocators best -capacity 1048576 "$bench/challenging"
