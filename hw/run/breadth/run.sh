#!/usr/bin/env bash
# Builds hw/run/breadth/harness.cu and runs the kernels of hw/run/breadth/kernels.txt on the GPU.
#   hw/run/breadth/run.sh OUT_DIR
# Writes OUT_DIR/NAME.out (raw output bytes) for each kernel and OUT_DIR/results.txt (a header:
# date, nvcc, GPU; then the harness's lines), which hw/run/breadth/results/ records.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
{
  echo "# date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# nvcc $(nvcc --version | tail -n 1)"
  echo "# gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"
} > "$out/results.txt"
bin=$(mktemp -d)/harness
nvcc -O2 -std=c++17 -o "$bin" "$here/harness.cu" -lcuda
"$bin" "$here" "$out" | tee -a "$out/results.txt"
