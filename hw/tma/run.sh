#!/usr/bin/env bash
# Builds the TMA harness for sm_90a and runs every case of a TMA case file on the GPU.
#
#   hw/tma/run.sh CASES OUTDIR
#
# Writes OUTDIR/results.txt (a header of '#' lines: date, nvcc, GPU; then the harness output),
# OUTDIR/maps.txt (where every element of each failing case landed) and OUTDIR/build.log. A case
# that breaks the CUDA context (harness exit 3) or hangs is reported and the run resumes after it.
set -u
cases=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
: > "$out/maps.txt"
{
  echo "# date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# nvcc $(nvcc --version | tail -n 1)"
  echo "# gpu $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "# build nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -o harness harness.cu"
} > "$out/results.txt"
bin=$(mktemp -d)/harness
if ! nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -o "$bin" "$here/harness.cu" \
    > "$out/build.log" 2>&1; then
  echo "build failed" | tee -a "$out/results.txt"
  tail -n 40 "$out/build.log"
  exit 1
fi
from=0
while :; do
  timeout 300 "$bin" "$cases" --from "$from" --map-out "$out/maps.txt" >> "$out/results.txt"
  rc=$?
  if [ "$rc" -eq 3 ] || [ "$rc" -eq 124 ]; then
    last=$(grep '^result ' "$out/results.txt" | tail -n 1 | sed 's/.* index=\([0-9]*\) .*/\1/')
    next=$((${last:--1} + 1))
    if [ "$next" -le "$from" ]; then
      echo "# case index $from gave no result (harness exit $rc); skipping it" >> "$out/results.txt"
      next=$((from + 1))
    else
      echo "# harness exit $rc (CUDA context lost or timeout) after case index $last; resuming" >> "$out/results.txt"
    fi
    from=$next
    continue
  fi
  echo "# harness exit $rc" >> "$out/results.txt"
  break
done
grep -c ' verdict=ok' "$out/results.txt" | sed 's/^/ok: /'
grep -c ' verdict=FAIL' "$out/results.txt" | sed 's/^/FAIL: /'
