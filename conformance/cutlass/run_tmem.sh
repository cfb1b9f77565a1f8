#!/usr/bin/env bash
# Regenerate conformance/vectors/cutlass-4.2.0-tmem.jsonl (Tensor Memory maps) from NVIDIA's CUTLASS headers.
#
#   conformance/cutlass/run_tmem.sh           install headers (setup.sh), build gen_tmem.cpp, write the file
#   conformance/cutlass/run_tmem.sh --check   build and compare with the committed file; exit 1 on any
#                                             difference (what CI runs)
#
# Interim: once run.sh builds every generator of its GENERATORS table, gen_tmem.cpp is one row there
# and this script goes. Needs python3 (venv, pip) and g++ with C++17; builds under .cache/.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(git -C "$HERE" rev-parse --show-toplevel)"
OUTFILE="$ROOT/conformance/vectors/cutlass-4.2.0-tmem.jsonl"
BUILD="$ROOT/.cache/cutlass-build"
CXX="${CXX:-g++}"

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
  *) echo "run_tmem.sh: unknown argument '$1' (use --check)" >&2; exit 2 ;;
esac

eval "$("$HERE/setup.sh")"

mkdir -p "$BUILD"
BIN="$BUILD/gen_tmem"
CXXFLAGS=(-std=c++17 -O1 -Wall -Wno-deprecated-declarations
          -isystem "$CUTLASS_INCLUDE" -isystem "$CCCL_INCLUDE" -isystem "$CUDA_INCLUDE")
stamp="$( { sha256sum "$HERE/gen_tmem.cpp"; echo "${CXXFLAGS[*]}"; "$CXX" --version | head -n1; } | sha256sum | cut -d' ' -f1)"
if [ ! -x "$BIN" ] || [ "$(cat "$BIN.stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "run_tmem.sh: compiling gen_tmem.cpp" >&2
  rm -f "$BIN.stamp"
  "$CXX" "${CXXFLAGS[@]}" "$HERE/gen_tmem.cpp" -o "$BIN"
  echo "$stamp" > "$BIN.stamp"
fi

FRESH="$BUILD/cutlass-4.2.0-tmem.jsonl"
"$BIN" > "$FRESH"

if [ "$mode" = check ]; then
  if ! cmp -s "$OUTFILE" "$FRESH"; then
    echo "run_tmem.sh --check: $OUTFILE differs from what CUTLASS produces (regenerate with run_tmem.sh)" >&2
    diff <(cut -c1-200 "$OUTFILE") <(cut -c1-200 "$FRESH") >&2 || true
    exit 1
  fi
  echo "run_tmem.sh --check: $(basename "$OUTFILE") matches CUTLASS ($(wc -l < "$FRESH") lines)" >&2
else
  cp "$FRESH" "$OUTFILE"
  echo "run_tmem.sh: wrote $OUTFILE ($(wc -l < "$FRESH") lines)" >&2
fi
