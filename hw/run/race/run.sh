#!/usr/bin/env bash
# Runs the races planted by hw/run/race/plant.py on the GPU, 8 times, with hw/run/harness.cu
# (which runs every kernel of its PTX folder: the planted row_sum, dot_f16 and dot_tma, and the
# other five unchanged).   hw/run/race/run.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "$0")" && pwd)
ptx=$(mktemp -d)
cp "$here"/../ptx/*.ptx "$ptx"/
cp "$here"/ptx/*.ptx "$ptx"/
bin=$(mktemp -d)/harness
nvcc -O2 -std=c++17 -o "$bin" "$here/../harness.cu" -lcuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 1 2 3 4 5 6 7 8; do
  mkdir -p "$out/r$i"
  "$bin" "$ptx" "$out/r$i"
done
