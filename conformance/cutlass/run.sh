#!/usr/bin/env bash
# Regenerate the CUTLASS conformance vectors (conformance/vectors/) from NVIDIA's CUTLASS headers.
#
#   conformance/cutlass/run.sh           install headers (setup.sh), build every generator, write
#                                        its vector file
#   conformance/cutlass/run.sh --check   build, regenerate and compare with the committed files; exit 1
#                                        on any difference (what CI runs)
#
# Needs python3 (venv, pip; PyPI reachable on first run) and g++ with C++17. Never skips: a missing
# compiler, a failed install or a failed self-check of a generator is an error. Everything it builds
# goes under .cache/ in the repository root (git-ignored).
set -euo pipefail

# The generators: "<C++ sources, space-separated, main first>:<output file in conformance/vectors/>".
# Each entry is built into one program from its sources (plus this directory's *.hpp) and run with
# no arguments; its stdout is the vector file.
GENERATORS=(
  "gen_vectors.cpp gen_smem.cpp gen_idesc.cpp gen_misc.cpp:cutlass-4.2.0.jsonl"
  "gen_tmem.cpp:cutlass-4.2.0-tmem.jsonl"
  "gen_sf_layout.cpp:cutlass-4.2.0-sf-layout.jsonl"
)

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(git -C "$HERE" rev-parse --show-toplevel)"
VECTORS_DIR="$ROOT/conformance/vectors"
BUILD="$ROOT/.cache/cutlass-build"
CXX="${CXX:-g++}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
  *) echo "run.sh: unknown argument '$1' (use --check)" >&2; exit 2 ;;
esac

if ! command -v "$CXX" >/dev/null 2>&1; then
  echo "run.sh: C++ compiler '$CXX' not found; the CUTLASS oracle needs g++ with C++17" >&2
  exit 1
fi

# setup.sh exits non-zero (and so does this script, set -e) when the pinned wheels cannot be installed.
setup_out="$("$HERE/setup.sh")"
eval "$setup_out"

mkdir -p "$BUILD"
CXXFLAGS=(-std=c++17 -O1 -Wall -Wno-deprecated-declarations
          -isystem "$CUTLASS_INCLUDE" -isystem "$CCCL_INCLUDE" -isystem "$CUDA_INCLUDE")
# Everything an object depends on besides its own source: the shared headers, flags and compiler.
common_stamp="$( { cat "$HERE"/*.hpp 2>/dev/null; echo "${CXXFLAGS[*]}"; "$CXX" --version | head -n1; } | sha256sum | cut -d' ' -f1)"

# Compile one source into $BUILD/<name>.o unless its stamp is current.
compile() {
  local src="$1" obj="$BUILD/${1%.cpp}.o" stamp
  stamp="$( { sha256sum < "$HERE/$src"; echo "$common_stamp"; } | sha256sum | cut -d' ' -f1)"
  if [ -f "$obj" ] && [ "$(cat "$obj.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "run.sh: compiling $src" >&2
  rm -f "$obj.stamp"
  "$CXX" "${CXXFLAGS[@]}" -c "$HERE/$src" -o "$obj"
  echo "$stamp" > "$obj.stamp"
}

# Build every object of every generator, $JOBS at a time; stop at the first failure.
all_sources=()
for entry in "${GENERATORS[@]}"; do
  read -r -a srcs <<< "${entry%%:*}"
  all_sources+=("${srcs[@]}")
done
pids=()
for src in "${all_sources[@]}"; do
  compile "$src" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$JOBS" ]; then
    wait "${pids[0]}" || { echo "run.sh: compiling failed" >&2; wait; exit 1; }
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || { echo "run.sh: compiling failed" >&2; wait; exit 1; }
done

status=0
for entry in "${GENERATORS[@]}"; do
  read -r -a srcs <<< "${entry%%:*}"
  out="${entry##*:}"
  prog="$BUILD/${srcs[0]%.cpp}"
  objs=()
  for src in "${srcs[@]}"; do objs+=("$BUILD/${src%.cpp}.o"); done
  "$CXX" "${objs[@]}" -o "$prog"
  fresh="$BUILD/$out"
  # A generator exits non-zero when one of its self-checks or reference values fails.
  if ! "$prog" > "$fresh"; then
    echo "run.sh: ${srcs[0]} failed (see its messages above)" >&2
    exit 1
  fi
  count="$(grep -c -v -e '^#' -e '^$' "$fresh" || true)"
  committed="$VECTORS_DIR/$out"
  if [ "$mode" = check ]; then
    if [ ! -f "$committed" ]; then
      echo "run.sh --check: $committed does not exist (run conformance/cutlass/run.sh)" >&2
      status=1
    elif ! diff -u "$committed" "$fresh" > "$BUILD/$out.diff"; then
      head -n 40 "$BUILD/$out.diff" >&2
      echo "run.sh --check: conformance/vectors/$out differs from what CUTLASS produces ($(grep -c '^[-+][^-+]' "$BUILD/$out.diff") changed lines; full diff in $BUILD/$out.diff)" >&2
      status=1
    else
      echo "run.sh --check: conformance/vectors/$out matches CUTLASS ($count vectors)" >&2
    fi
  else
    mkdir -p "$VECTORS_DIR"
    cp "$fresh" "$committed"
    echo "run.sh: wrote conformance/vectors/$out ($count vectors)" >&2
  fi
done
exit "$status"
