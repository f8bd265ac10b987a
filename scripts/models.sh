#!/usr/bin/env bash
# Regenerates the model zoo examples/models/*.bir with scripts/torch2bir.py
# (byte-identical on every run with the same torch/torchvision versions).
# Needs Debian's python3-torch and python3-torchvision (/usr/bin/python3);
# no weights are downloaded (every model is built with weights=None).
#   scripts/models.sh            regenerate all into examples/models/
#   scripts/models.sh DIR        write into DIR instead (the byte-identity test)
# Prints each model's export wall time to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-examples/models}
py=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
# name | exporter arguments
models=(
  "resnet50|resnet50"
  "mobilenet_v2|mobilenet_v2"
  "efficientnet_b0|efficientnet_b0"
  "densenet121|densenet121"
  "vit_b_16|vit_b_16"
  "swin_t|swin_t"
  "transformer|transformer"
  "gpt2|gpt2"
  "resnet50_b8|resnet50 --batch 8 --graph-name resnet50_b8"
)
for m in "${models[@]}"; do
  name=${m%%|*}
  args=${m#*|}
  start=$(date +%s.%N)
  # stdout, so that the command in the header does not depend on DIR
  # shellcheck disable=SC2086
  "$py" scripts/torch2bir.py $args >"$out/$name.bir.tmp"
  mv "$out/$name.bir.tmp" "$out/$name.bir"
  end=$(date +%s.%N)
  printf 'models.sh: %-16s %6.1fs\n' "$name" "$(echo "$end - $start" | bc)" >&2
done
