#!/usr/bin/env bash
# Checks the harness's host logic without a GPU: builds hw/wgmma/harness.cu with g++ in CPU
# emulation (the "tensor core" reads each element where the case's read map says) and runs the
# committed cases. Every correct case must match and every wrong descriptor must be caught (data
# is placed by the place map, read by the read map); a copy with one expectation flipped must
# give exactly one FAIL, so the verdicts are not vacuous.
#
#   hw/wgmma/emulate.sh        (needs g++; CI runs it from scripts/test-all.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O2 -std=c++17 -Wall -Wextra -Werror -DHW_CPU_EMULATION -x c++ -o "$tmp/harness" hw/wgmma/harness.cu
"$tmp/harness" hw/cases/wgmma.txt > "$tmp/out.txt"
cases=$(grep -c '^case ' hw/cases/wgmma.txt)
ok=$(grep -c ' verdict=ok' "$tmp/out.txt" || true)
if [ "$ok" != "$cases" ] || ! grep -qx done "$tmp/out.txt"; then
  echo "emulation: $ok of $cases cases ok" >&2
  grep -v ' verdict=ok' "$tmp/out.txt" | head -n 5 >&2
  exit 1
fi
# Flip the first case's expectation: the harness must now call it a failure.
awk '!f && /^case / { sub(/ match$/, " mismatch"); f = 1 } { print }' hw/cases/wgmma.txt > "$tmp/flipped.txt"
"$tmp/harness" "$tmp/flipped.txt" > "$tmp/flipped_out.txt"
fails=$(grep -c ' verdict=FAIL' "$tmp/flipped_out.txt" || true)
if [ "$fails" != 1 ]; then
  echo "emulation: a flipped expectation gave $fails failures, expected 1" >&2
  exit 1
fi
echo "emulation: all $cases cases ok; a flipped expectation is caught"
