#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what the tests need
# when it is missing (MLIR/LLVM 16 tools and development packages, cmake,
# ninja, Debian's torch and torchvision, Chromium), builds and lit-tests sdsc-opt
# (dialect/), runs the exporter's unit tests, then gofmt, go vet and go test.
# Tests that need mlir-opt-16 / mlir-translate-16 / FileCheck-16 fail
# (instead of skipping) because SDSCGEN_REQUIRE_MLIR=1 is set here.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages, one apt-get update and install for all that are missing:
# the MLIR/LLVM command-line tools (mlir-opt-16, mlir-translate-16,
# FileCheck-16, mlir-tblgen, lit), and what building sdsc-opt (dialect/)
# needs: the MLIR and LLVM development packages (headers, CMake configs,
# libMLIR.so, libLLVM-16.so), cmake, ninja and a C++ compiler.
need=()
pkgs=()
for tool in mlir-opt-16 mlir-translate-16 FileCheck-16; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if [ ${#need[@]} -gt 0 ]; then pkgs+=(mlir-16-tools llvm-16-tools); fi
[ -x /usr/lib/llvm-16/bin/mlir-tblgen ] || { need+=(mlir-tblgen); pkgs+=(mlir-16-tools); }
[ -f /usr/lib/llvm-16/build/utils/lit/lit.py ] || { need+=(lit.py); pkgs+=(llvm-16-tools); }
[ -f /usr/lib/llvm-16/lib/cmake/mlir/MLIRConfig.cmake ] || { need+=(MLIRConfig.cmake); pkgs+=(libmlir-16-dev); }
[ -f /usr/lib/llvm-16/lib/cmake/llvm/LLVMConfig.cmake ] || { need+=(LLVMConfig.cmake); pkgs+=(llvm-16-dev); }
command -v cmake >/dev/null 2>&1 || { need+=(cmake); pkgs+=(cmake); }
command -v ninja >/dev/null 2>&1 || { need+=(ninja); pkgs+=(ninja-build); }
command -v c++ >/dev/null 2>&1 || { need+=(c++); pkgs+=(g++); }
command -v /usr/bin/python3 >/dev/null 2>&1 || { need+=(python3); pkgs+=(python3); }
# Chromium: report/html_browser_test.go opens the --html view in it, headless.
command -v chromium >/dev/null 2>&1 || { need+=(chromium); pkgs+=(chromium); }
# The PyTorch exporter (scripts/torch2bir.py) runs on Debian's torch under
# /usr/bin/python3 (the python3 on PATH may be another interpreter); those
# two are installed without recommends (about 150 MB instead of over 1 GB).
slim=()
/usr/bin/python3 -c 'import torch, torchvision' >/dev/null 2>&1 || { need+=(torch); slim+=(python3-torch python3-torchvision); }
if [ $((${#pkgs[@]} + ${#slim[@]})) -gt 0 ]; then
  echo "test.sh: installing ${pkgs[*]} ${slim[*]} (missing: ${need[*]})"
  if [ "$(id -u)" -ne 0 ]; then
    echo "test.sh: not root; cannot apt-get install. Install: ${pkgs[*]} ${slim[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if [ ${#pkgs[@]} -gt 0 ]; then apt-get install -y -qq "${pkgs[@]}" >/dev/null; fi
  if [ ${#slim[@]} -gt 0 ]; then apt-get install -y -qq --no-install-recommends "${slim[@]}" >/dev/null; fi
fi
# FileCheck-16 lives in /usr/lib/llvm-16/bin on some Debian builds.
if ! command -v FileCheck-16 >/dev/null 2>&1 && [ -x /usr/lib/llvm-16/bin/FileCheck ]; then
  mkdir -p .bin && ln -sf /usr/lib/llvm-16/bin/FileCheck .bin/FileCheck-16
  export PATH="$PWD/.bin:$PATH"
fi

# sdsc-opt: the sdscbundle dialect for MLIR 16 (dialect/, docs/dialect.md),
# built incrementally into a fixed path and checked by its lit tests; the Go
# tests in golden/sdscopt_test.go run sdscgen's output through it. A build
# or lit failure stops here.
echo "== sdsc-opt: cmake + ninja (dialect/build), lit"
if [ ! -f dialect/build/build.ninja ]; then
  cmake -G Ninja -S dialect -B dialect/build \
    -DMLIR_DIR=/usr/lib/llvm-16/lib/cmake/mlir -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C dialect/build sdsc-opt
ninja -C dialect/build check-sdsc
export SDSC_OPT="$PWD/dialect/build/bin/sdsc-opt"

echo "== exporter unit tests (scripts/test_torch2bir.py)"
/usr/bin/python3 -m unittest discover -s scripts -p 'test_torch2bir.py'
# examples/ regenerates the model zoo with the exporter and compares it
# byte for byte; with torch present, a skip there would hide a failure.
export SDSCGEN_REQUIRE_TORCH=1
# The HTML view's browser tests fail (instead of skipping) without Chromium.
export SDSCGEN_REQUIRE_BROWSER=1

echo "== gofmt -l"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet ./..."
go vet ./...
echo "== go test ./..."
# -timeout: a guard only (the default 10m per package is too short for
# golden/ and frontend/ on a shared 2-core machine under load).
SDSCGEN_REQUIRE_MLIR=1 go test -count=1 -timeout 40m ./...
# Fuzz targets run their committed seed corpora (testdata/fuzz/...) as part
# of go test above. SDSCGEN_FUZZTIME=30s (any go duration) also fuzzes the
# planner+verifier and whole-pipeline targets, and mlirgen against its
# independent reference (v3, the SDSC cache on and off), that long each.
if [ -n "${SDSCGEN_FUZZTIME:-}" ]; then
  for target in FuzzPlanVerify FuzzPipeline; do
    echo "== go test -fuzz $target -fuzztime $SDSCGEN_FUZZTIME ./verify/"
    go test -run '^$' -fuzz "^$target\$" -fuzztime "$SDSCGEN_FUZZTIME" ./verify/
  done
  echo "== go test -fuzz FuzzAgainstMlirgen -fuzztime $SDSCGEN_FUZZTIME ./internal/mlirref/"
  go test -run '^$' -fuzz '^FuzzAgainstMlirgen$' -fuzztime "$SDSCGEN_FUZZTIME" ./internal/mlirref/
fi
