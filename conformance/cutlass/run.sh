#!/usr/bin/env bash
# Regenerate conformance/vectors/cutlass.txt from NVIDIA's CUTLASS headers.
#
#   conformance/cutlass/run.sh           install headers (setup.sh), build, write the vector file
#   conformance/cutlass/run.sh --check   build and compare with the committed file; exit 1 on any
#                                        difference (what CI runs)
#
# Needs python3 (venv, pip; PyPI reachable on first run) and g++ with C++17. Everything it builds
# goes under .cache/ in the repository root (git-ignored).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(git -C "$HERE" rev-parse --show-toplevel)"
VECTORS="$ROOT/conformance/vectors/cutlass.txt"
BUILD="$ROOT/.cache/cutlass-build"
CXX="${CXX:-g++}"

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (use --check)" >&2; exit 2 ;;
esac

eval "$("$HERE/setup.sh")"

mkdir -p "$BUILD"
BIN="$BUILD/gen_vectors"
CXXFLAGS=(-std=c++17 -O1 -Wall -Wno-deprecated-declarations
          -isystem "$CUTLASS_INCLUDE" -isystem "$CCCL_INCLUDE" -isystem "$CUDA_INCLUDE")

# Rebuild only when the source, the flags, the compiler or the header location changed.
stamp="$( { sha256sum "$HERE/gen_vectors.cpp"; echo "${CXXFLAGS[*]}"; "$CXX" --version | head -n1; } | sha256sum | cut -d' ' -f1)"
if [ ! -x "$BIN" ] || [ "$(cat "$BIN.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "run.sh: compiling gen_vectors.cpp (takes a minute or two)" >&2
  rm -f "$BIN.stamp"
  "$CXX" "${CXXFLAGS[@]}" "$HERE/gen_vectors.cpp" -o "$BIN"
  echo "$stamp" > "$BIN.stamp"
fi

FRESH="$BUILD/cutlass.txt"
# gen_vectors exits non-zero when a self-check or a reference example from oracles.md fails.
"$BIN" > "$FRESH"

if [ "$mode" = check ]; then
  if [ ! -f "$VECTORS" ]; then
    echo "run.sh --check: $VECTORS does not exist (run conformance/cutlass/run.sh)" >&2
    exit 1
  fi
  if ! diff -u "$VECTORS" "$FRESH" >&2; then
    echo "run.sh --check: conformance/vectors/cutlass.txt differs from what CUTLASS produces (diff above)" >&2
    exit 1
  fi
  echo "run.sh --check: conformance/vectors/cutlass.txt matches CUTLASS ($(grep -c '^[a-z].* -> 0x' "$FRESH") vectors)" >&2
else
  mkdir -p "$(dirname "$VECTORS")"
  cp "$FRESH" "$VECTORS"
  echo "run.sh: wrote $VECTORS ($(grep -c '^[a-z].* -> 0x' "$FRESH") vectors)" >&2
fi
