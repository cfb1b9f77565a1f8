#!/usr/bin/env bash
# The H100 wgmma numerics run (device tool, sm_90a, nvcc 13.0): builds numerics.cu and writes
# OUTDIR/wgmma-d.bin.gz, the D of every configuration and variant (32 blocks of 64 x 8 each,
# 1,245,184 values, little-endian u32 in the harness's order). crates/tcgen05/tests/numerics_h100.rs
# regenerates the inputs from the same seeds and checks the model against every value.
#
#   hw/numerics/run.sh OUTDIR [BLOCKS]      (BLOCKS: 32, the committed run)
set -euo pipefail
cd "$(dirname "$0")"
out="${1:?usage: run.sh OUTDIR [BLOCKS]}"
mkdir -p "$out"
# nvcc's status decides (a failed build stops the run); its two known warnings about wgmma
# serialisation (C7517, C7519) are left out of the log shown.
if ! nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o numerics numerics.cu > "$out/build.log" 2>&1; then
  cat "$out/build.log" >&2
  echo "hw/numerics/run.sh: ERROR: nvcc failed" >&2
  exit 1
fi
grep -v -e C7517 -e C7519 "$out/build.log" || true  # grep's status 1 only means no other lines
nvcc --version | tail -n 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
./numerics "${2:-32}" "$out"
gzip -9 -f "$out/wgmma-d.bin"
