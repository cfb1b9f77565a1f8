#!/usr/bin/env bash
# Regenerates the README's Tensor Memory pictures (docs/img/tmem-*.svg) with the tcgen05 command.
# crates/tcgen05-cli/tests/cli/tmem.rs runs the same PICTURES lines and checks the committed files.
set -euo pipefail
cd "$(dirname "$0")/.."

PICTURES=(
  "ld --shape 16x256b --num 1 --svg docs/img/tmem-ld-16x256b-x1.svg"
  "ld --shape 16x32bx2 --num 2 --pack --svg docs/img/tmem-ld-16x32bx2-x2-pack.svg"
  "d --m 128 --n 16 --cta-group 2 --svg docs/img/tmem-d-layout-b.svg"
  "d --m 64 --n 16 --svg docs/img/tmem-d-layout-f.svg"
  "sf --operand b --m 128 --n 128 --cta-group 2 --vec 2X --sf-id 2 --svg docs/img/tmem-sf-b-2x2.svg"
  "cp --shape 32x128b --multicast warpx4 --svg docs/img/tmem-cp-32x128b-warpx4.svg"
)

cargo build -q -p tcgen05-cli
for p in "${PICTURES[@]}"; do
  # shellcheck disable=SC2086 # each entry is a list of arguments
  target/debug/tcgen05 tmem $p > /dev/null
  echo "wrote ${p##* }"
done
