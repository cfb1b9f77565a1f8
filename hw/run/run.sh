#!/usr/bin/env bash
# Builds hw/run/harness.cu and runs the Triton kernels of hw/run/ptx on the GPU.
#   hw/run/run.sh OUT_DIR
# Writes OUT_DIR/NAME.out (raw output bytes) for each kernel and prints a header (date, nvcc, GPU)
# and the harness's lines, which hw/run/results/results.txt records.
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
{
  echo "# date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# nvcc $(nvcc --version | tail -n 1)"
  echo "# gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"
}
bin=$(mktemp -d)/harness
nvcc -O2 -std=c++17 -o "$bin" "$here/harness.cu" -lcuda
"$bin" "$here/ptx" "$out"
