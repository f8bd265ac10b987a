#!/usr/bin/env bash
# Regenerates the model zoo examples/models/*.bir with scripts/torch2bir.py
# (byte-identical on every run with the same torch/torchvision versions).
# Needs Debian's python3-torch and python3-torchvision (/usr/bin/python3);
# no weights are downloaded (every model is built with weights=None).
#   scripts/models.sh            regenerate all into examples/models/
#   scripts/models.sh DIR        write into DIR instead (the byte-identity test)
# Prints each model's export wall and CPU (user+sys) time to stderr.
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
TIMEFORMAT="%R %U %S"
for m in "${models[@]}"; do
  name=${m%%|*}
  args=${m#*|}
  # stdout, so that the command in the header does not depend on DIR
  # shellcheck disable=SC2086
  if ! t=$( { time "$py" scripts/torch2bir.py $args >"$out/$name.bir.tmp"; } 2>&1 ); then
    echo "$t" >&2
    exit 1
  fi
  mv "$out/$name.bir.tmp" "$out/$name.bir"
  read -r real user sys <<<"${t##*$'\n'}"
  printf 'models.sh: %-16s wall %6.1fs  cpu %5.1fs\n' "$name" "$real" "$(echo "$user + $sys" | bc)" >&2
done
