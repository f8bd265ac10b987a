#!/usr/bin/env bash
# End-to-end scaling benchmark (issue 4; figures in BENCHMARKS.md).
#
# Builds sdscgen, writes synthetic graphs with `sdscgen synth`, and for each
# one times the whole CLI (parse + check + plan + emit, --generic output to
# a file, --verify=false; the default --verify run is timed and reported
# on its own line) and its peak RSS, then, in the same run, times
# `mlir-opt-16 --allow-unregistered-dialect` merely parsing (and printing to
# /dev/null) that output, and prints the ratio. It then runs the Go
# benchmarks of first-fit planning at 100k and 1M buffers and prints that
# ratio. Exits 1 when a target is missed, unless --report-only.
#
# Times are CPU seconds (user + sys) from /usr/bin/time: on a shared or
# loaded machine they are far steadier than wall time, and they charge
# sdscgen for its parallel GC workers, so the ratio is conservative. Wall
# times are printed too. mlir-opt runs with --mlir-disable-threading, which
# makes its CPU time its parse time (threading only adds pool overhead to a
# parse-and-print run; --threads shows both).
#
# Usage: scripts/bench.sh [--report-only] [--quick] [--threads] [--keep DIR]
#   --report-only  always exit 0
#   --quick        10k and 100k only (about a minute), targets not judged
#   --threads      also time mlir-opt with its default threading
#   --keep DIR     keep the graphs and outputs in DIR (default: a temp dir)
#
# Targets (1M-op single bundle): sdscgen CPU <= 0.5 x mlir-opt CPU,
# sdscgen peak RSS <= 1 GiB; Plan(1M buffers) <= 12 x Plan(100k buffers).
set -euo pipefail
cd "$(dirname "$0")/.."

report_only=0 quick=0 threads=0 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --report-only) report_only=1 ;;
    --quick) quick=1 ;;
    --threads) threads=1 ;;
    --keep) keep="$2"; shift ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

install() { # apt package, when root
  if [ "$(id -u)" -ne 0 ]; then
    echo "bench.sh: $1 is missing and we are not root to apt-get install it" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "$@" >/dev/null
}
[ -x /usr/bin/time ] || install time
command -v mlir-opt-16 >/dev/null 2>&1 || install mlir-16-tools

if [ -n "$keep" ]; then
  dir="$keep"; mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/sdscgen-bench.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi

echo "== machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(free -g | awk '/^Mem:/{print $2}') GiB"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(go version | cut -d' ' -f3), $(mlir-opt-16 --version | sed -n 's/.*LLVM version //p' | head -1 | sed 's/^/LLVM /'), load $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$dir/sdscgen" ./cmd/sdscgen

# timed OUT CMD...: runs CMD under /usr/bin/time, leaves "wall cpu rss_kb"
# in OUT.
timed() {
  local out="$1"; shift
  /usr/bin/time -f '%e %U %S %M' -o "$out.raw" "$@"
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$out.raw" > "$out"
}

if [ "$quick" = 1 ]; then
  graphs="10k:10000:1 100k:100000:1"
else
  graphs="10k:10000:1 100k:100000:1 1M:1000000:1 1Mx1000:1000000:1000"
fi

printf '\n%-8s %8s %8s | %9s %9s %8s | %9s %9s %8s | %9s %9s\n' \
  graph bir_MB mlir_MB sdsc_cpu sdsc_wall sdsc_MiB mlir_cpu mlir_wall mlir_MiB ratio_cpu ratio_wall
fail=0
for spec in $graphs; do
  IFS=: read -r name ops bundles <<<"$spec"
  bir="$dir/$name.bir" mlir="$dir/$name.mlir"
  "$dir/sdscgen" synth --ops "$ops" --bundles "$bundles" --seed 1 -o "$bir"
  # The judged run: parse + check + plan + emit. --verify (on by default)
  # re-checks the plan with the independent verifier; it is timed apart.
  timed "$dir/$name.sdsc" "$dir/sdscgen" --verify=false --generic "$bir" > "$mlir"
  timed "$dir/$name.sdsc-verify" "$dir/sdscgen" --generic "$bir" > "$mlir.v"
  cmp -s "$mlir" "$mlir.v" || { echo "bench.sh: --verify changed the output" >&2; exit 1; }
  rm -f "$mlir.v"
  timed "$dir/$name.mlir-opt" mlir-opt-16 --allow-unregistered-dialect --split-input-file \
    --mlir-disable-threading "$mlir" -o /dev/null
  read -r sw sc sr < "$dir/$name.sdsc"
  read -r mw mc mr < "$dir/$name.mlir-opt"
  rc=$(awk -v a="$sc" -v b="$mc" 'BEGIN{printf "%.3f", a / b}')
  rw=$(awk -v a="$sw" -v b="$mw" 'BEGIN{printf "%.3f", a / b}')
  printf '%-8s %8.1f %8.1f | %9s %9s %8d | %9s %9s %8d | %9s %9s\n' "$name" \
    "$(stat -c %s "$bir" | awk '{print $1/1048576}')" "$(stat -c %s "$mlir" | awk '{print $1/1048576}')" \
    "$sc" "$sw" $((sr / 1024)) "$mc" "$mw" $((mr / 1024)) "$rc" "$rw"
  read -r vw vc vr < "$dir/$name.sdsc-verify"
  printf '%-8s sdscgen with its default --verify: cpu %s s, wall %s s, %d MiB (cpu ratio %s)\n' "$name" "$vc" "$vw" $((vr / 1024)) \
    "$(awk -v a="$vc" -v b="$mc" 'BEGIN{printf "%.3f", a / b}')"
  if [ "$threads" = 1 ]; then
    timed "$dir/$name.mlir-opt-mt" mlir-opt-16 --allow-unregistered-dialect --split-input-file "$mlir" -o /dev/null
    read -r tw tc tr < "$dir/$name.mlir-opt-mt"
    printf '%-8s mlir-opt with threading: cpu %s s, wall %s s, %d MiB\n' "$name" "$tc" "$tw" $((tr / 1024))
  fi
  if [ "$name" = 1M ]; then
    if awk -v r="$rc" 'BEGIN{exit !(r > 0.5)}'; then
      echo "MISSED: 1M sdscgen/mlir-opt CPU ratio $rc > 0.5"; fail=1
    fi
    if [ "$sr" -gt $((1024 * 1024)) ]; then
      echo "MISSED: 1M sdscgen peak RSS $((sr / 1024)) MiB > 1024 MiB"; fail=1
    fi
  fi
  rm -f "$mlir"
done

# First-fit planning scaling, from the Go benchmarks (cpu-ms/op).
if [ "$quick" = 1 ]; then
  pat='^Benchmark(Plan|FirstFit)/(10k|100k)$'
else
  pat='^Benchmark(Plan|FirstFit)/(100k|1M)$'
fi
echo
echo "== go test -run '^\$' -bench '$pat' -benchtime 5x ./bench/"
go test -run '^$' -bench "$pat" -benchtime 5x ./bench/ | tee "$dir/plan.txt" | grep '^Benchmark'
if [ "$quick" = 0 ]; then
  for b in Plan FirstFit; do
    r=$(awk -v b="$b" '
      $1 ~ "^Benchmark" b "/100k" { for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ms/op") s = $i }
      $1 ~ "^Benchmark" b "/1M-"  { for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ms/op") l = $i }
      END { printf "%.2f", l / s }' "$dir/plan.txt")
    echo "$b: 1M / 100k = $r x (cpu time; target <= 12 for Plan)"
    if [ "$b" = Plan ] && awk -v r="$r" 'BEGIN{exit !(r > 12)}'; then
      echo "MISSED: Plan 1M/100k ratio $r > 12"; fail=1
    fi
  done
fi

if [ "$fail" = 1 ] && [ "$report_only" = 0 ]; then
  exit 1
fi
exit 0
