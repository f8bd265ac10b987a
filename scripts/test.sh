#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs the MLIR tools the
# tests need when they are missing, then gofmt, go vet and go test.
# Tests that need mlir-opt-16 / mlir-translate-16 / FileCheck-16 fail
# (instead of skipping) because SDSCGEN_REQUIRE_MLIR=1 is set here.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in mlir-opt-16 mlir-translate-16 FileCheck-16; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "test.sh: installing mlir-16-tools llvm-16-tools (missing: ${need[*]})"
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: not root; cannot apt-get install. Install mlir-16-tools and llvm-16-tools." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq mlir-16-tools llvm-16-tools >/dev/null
fi
# FileCheck-16 lives in /usr/lib/llvm-16/bin on some Debian builds.
if ! command -v FileCheck-16 >/dev/null 2>&1 && [ -x /usr/lib/llvm-16/bin/FileCheck ]; then
  mkdir -p .bin && ln -sf /usr/lib/llvm-16/bin/FileCheck .bin/FileCheck-16
  export PATH="$PWD/.bin:$PATH"
fi

# The PyTorch exporter (scripts/torch2bir.py) runs on Debian's torch under
# /usr/bin/python3 (the python3 on PATH may be another interpreter).
if ! /usr/bin/python3 -c 'import torch, torchvision' >/dev/null 2>&1; then
  echo "test.sh: installing python3-torch python3-torchvision"
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: not root; cannot apt-get install. Install python3-torch and python3-torchvision." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-torch python3-torchvision >/dev/null
fi
echo "== exporter unit tests (scripts/test_torch2bir.py)"
/usr/bin/python3 -m unittest discover -s scripts -p 'test_torch2bir.py'
# examples/ regenerates the model zoo with the exporter and compares it
# byte for byte; with torch present, a skip there would hide a failure.
export SDSCGEN_REQUIRE_TORCH=1

echo "== gofmt -l"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet ./..."
go vet ./...
echo "== go test ./..."
SDSCGEN_REQUIRE_MLIR=1 go test -count=1 ./...
# Fuzz targets run their committed seed corpora (testdata/fuzz/...) as part
# of go test above. SDSCGEN_FUZZTIME=30s (any go duration) also fuzzes the
# planner+verifier and whole-pipeline targets for that long each.
if [ -n "${SDSCGEN_FUZZTIME:-}" ]; then
  for target in FuzzPlanVerify FuzzPipeline; do
    echo "== go test -fuzz $target -fuzztime $SDSCGEN_FUZZTIME ./verify/"
    go test -run '^$' -fuzz "^$target\$" -fuzztime "$SDSCGEN_FUZZTIME" ./verify/
  done
fi
