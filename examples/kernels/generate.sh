#!/usr/bin/env bash
# The README's sample kernels: compile them with the pinned compilers (Triton 3.9.0, nvcc 13.5.37,
# CUTLASS 4.2.0, installed under .cache/ by conformance/kernels/setup.sh; no GPU needed).
#
#   examples/kernels/generate.sh           regenerate examples/kernels/*.ptx in place
#   examples/kernels/generate.sh --check   regenerate under .cache/ and fail when the text differs
#                                          from the committed files
#
# The comparison masks one thing: nvcc names the internal-linkage symbols of the CUTLASS kernel
# `_INTERNAL_<8 hex digits>_...` and `_GLOBAL__N__<8 hex digits>_...` after a hash of the directory it compiled in, so those 8 digits
# differ from one checkout to another. Everything else must match byte for byte.
set -euo pipefail
ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cd "$ROOT"
HERE=examples/kernels

eval "$(KERNELS_NO_CUTEDSL=1 conformance/kernels/setup.sh)"
if [ "${1:-}" = --check ]; then
  OUT="$ROOT/.cache/examples-kernels"
else
  OUT="$ROOT/$HERE"
fi
mkdir -p "$OUT"
# shellcheck disable=SC2086  # three directories, split on purpose
"$PYTHON" "$HERE/generate.py" "$OUT" $CUTLASS_INCLUDES

if [ "${1:-}" = --check ]; then
  mask() { sed -E 's/(_INTERNAL_|_GLOBAL__N__)[0-9a-f]{8}_/\1xxxxxxxx_/g' "$1"; }
  n=0
  for f in "$HERE"/*.ptx; do
    if ! cmp -s <(mask "$f") <(mask "$OUT/$(basename "$f")"); then
      echo "examples/kernels/generate.sh: ERROR: $f differs from the pinned compilers' output" >&2
      diff <(mask "$f") <(mask "$OUT/$(basename "$f")") | head -20 >&2 || true
      exit 1
    fi
    n=$((n + 1))
  done
  if [ "$n" != "$(ls "$OUT"/*.ptx | wc -l)" ]; then
    echo "examples/kernels/generate.sh: ERROR: $(ls "$OUT"/*.ptx | wc -l) kernels generated, $n committed" >&2
    exit 1
  fi
  echo "examples/kernels: $n sample kernels regenerated, identical to the committed PTX"
fi
