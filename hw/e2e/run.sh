#!/usr/bin/env bash
# Builds the end-to-end harness (TMA writes, wgmma reads) for sm_90a and runs every case.
#
#   hw/e2e/run.sh CASES OUTDIR      -> OUTDIR/results.txt, OUTDIR/build.log
set -u
cases=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
{
  echo "# date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# nvcc $(nvcc --version | tail -n 1)"
  echo "# gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "# build nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o harness harness.cu"
} > "$out/results.txt"
bin=$(mktemp -d)/harness
if ! nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$bin" "$here/harness.cu" > "$out/build.log" 2>&1; then
  echo "build failed" | tee -a "$out/results.txt"
  tail -n 40 "$out/build.log"
  exit 1
fi
timeout 300 "$bin" "$cases" >> "$out/results.txt"
echo "# harness exit $?" >> "$out/results.txt"
grep -c ' verdict=ok' "$out/results.txt" | sed 's/^/ok: /'
grep -c ' verdict=FAIL' "$out/results.txt" | sed 's/^/FAIL: /'
