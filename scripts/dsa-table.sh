#!/bin/sh
# dsa-table.sh: run every pool allocator on every MiniMalloc-format
# instance in ../shared/dsa-benchmarks (the challenging suite A-K, the
# idealloc SOMAS and IOPDDL traces, the small traps) and print markdown:
# pool_end / lower bound and wall time per instance and allocator, then
# the challenging suite as a decision problem at capacity 1048576 (what
# MiniMalloc is timed on). The output is what BENCHMARKS.md quotes.
#
# best is bounded by its deterministic search effort (search nodes, as
# `sdscgen --search-effort`), never by the clock, so its pool ends depend
# only on the data; only the times vary with the machine.
#
# usage: scripts/dsa-table.sh [--search-effort N]   (from anywhere)
# DSA_BENCHMARKS overrides the data directory.
set -eu
cd "$(dirname "$0")/.."
bench=${DSA_BENCHMARKS:-../shared/dsa-benchmarks}
search_effort="" # empty: alloc.DefaultMaxNodes, sdscgen's default
if [ "${1:-}" = "--search-effort" ] && [ -n "${2:-}" ]; then
	search_effort=$2
fi
if [ ! -d "$bench" ]; then
	echo "dsa-table: no benchmark data at $bench (expected ../shared/dsa-benchmarks next to the repository); nothing to do" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/dsatable" ./scripts/dsatable
search_effort=${search_effort:-$("$tmp/dsatable" -print-effort)}

echo "- Command: \`scripts/dsa-table.sh${*:+ $*}\` (best: --search-effort $search_effort, no clock limit) at commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +dirty)"
echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1); $(go version | cut -d' ' -f3); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "Each cell: pool_end / lower bound (wall time of the allocator alone); \"1 = LB\": pool_end equals the lower bound (most bytes live at once), so the packing is optimal."
echo
"$tmp/dsatable" -search-effort "$search_effort" "$bench"
echo
echo "Challenging suite as a decision problem (\`sdscgen pack --capacity 1048576 --allocator best\`): pool_end / lower bound (time to a packing within 1048576)."
echo
"$tmp/dsatable" -search-effort "$search_effort" -allocators best -capacity 1048576 "$bench/challenging"
