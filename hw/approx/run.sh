#!/usr/bin/env bash
# Build hw/approx/approx.cu for sm_90a and sweep the approximate f32 instructions over all 2^32
# inputs on the GPU (see approx.cu). Usage: hw/approx/run.sh OUT_DIR
# Writes OUT_DIR/approx-h100.txt (the results), OUT_DIR/approx-sass.txt (the MUFU/div
# instructions in the binary) and OUT_DIR/ex2_ftz_unit.bin.
set -euo pipefail
OUT="${1:?usage: run.sh OUT_DIR}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUT"
nvcc --version | tail -2 > "$OUT/approx-build.log"
nvcc -O3 -arch=sm_90a -o "$OUT/approx" "$HERE/approx.cu" 2>&1 | tee -a "$OUT/approx-build.log"
cuobjdump -sass "$OUT/approx" | grep -E 'MUFU|Function' > "$OUT/approx-sass.txt" || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/approx-h100.txt"
( time "$OUT/approx" "$OUT/ex2_ftz_unit.bin" ) 2>&1 | tee -a "$OUT/approx-h100.txt"
rm -f "$OUT/approx"
