#!/usr/bin/env bash
# The check corpus: compile real kernels with pinned compilers (no GPU), then check them.
#
#   conformance/kernels/run.sh           generate into .cache/kernels/ptx, run the checks
#   conformance/kernels/run.sh --check   the same, and fail when the kernel parameters the
#                                        generator records differ from the committed ones
#
# The PTX (about 3.6 MB for the 31 Triton, 11 CUTLASS and 11 CuTe DSL kernels; sm_100a, and sm_103a
# for one Triton NVFP4 kernel and CUTLASS's two K = 96 kernels) is regenerated, not committed;
# the kernel parameters (triton/*.json, cutlass/*.json: kind, M, N, types) are committed and
# compared. The kernels are also run end to end by the interpreter (tests/blackwell.rs and
# tests/cute_gemm.rs of crates/tcgen05-run) and their outputs compared with an independent
# reference. CuTe DSL kernels
# (cutedsl/*.json) are compiled by nvidia-cutlass-dsl 4.8.1.
# Checks: `tcgen05 check` on every file exits 0 (no error; a kernel whose parameters list
# expected errors exits 1 and names them) and recovers the bf16 128x128x64
# GEMM's instruction descriptor 0x08210490; the share of shared memory descriptors with every
# field but the start address known is printed per source (Triton, CUTLASS, CuTe DSL); the
# corpus test (crates/tcgen05/tests/check_corpus.rs) checks every MMA's decoded idesc against
# the parameters and five mutations per kernel.
set -euo pipefail
ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cd "$ROOT"
HERE=conformance/kernels
OUT="${KERNELS_OUT:-$ROOT/.cache/kernels/ptx}"

eval "$("$HERE/setup.sh")"
rm -rf "$OUT"
mkdir -p "$OUT"
echo "kernels/run.sh: compiling the Triton kernels for sm_100a (and sm_103a)" >&2
"$PYTHON" "$HERE/gen_triton.py" "$OUT" 2>/dev/null
echo "kernels/run.sh: compiling the CUTLASS kernels for sm_100a (and K = 96 for sm_103a)" >&2
# shellcheck disable=SC2086  # three directories, split on purpose
"$PYTHON" "$HERE/gen_cutlass.py" "$OUT" $CUTLASS_INCLUDES
# The CUTLASS GEMM whose PTX is committed (run by crates/tcgen05-run/tests/cute_gemm.rs): with
# --check it must equal the generator's output, but for the 8 hex digits nvcc derives from the
# source file's absolute path in the names of internal-linkage globals (_INTERNAL_xxxxxxxx_,
# _GLOBAL__N__xxxxxxxx_).
if [ "${1:-}" = --check ]; then
  internal() { sed -E 's/_(INTERNAL|GLOBAL__N_)_[0-9a-f]{8}_/_\1_path_/g' "$1"; }
  for f in "$HERE"/cutlass/*.ptx; do
    if ! cmp -s <(internal "$f") <(internal "$OUT/$(basename "$f")"); then
      echo "kernels/run.sh: ERROR: $f differs from gen_cutlass.py's output" >&2
      exit 1
    fi
  done
fi
# The hand-written CUDA C++ TMA GEMMs (tcgen05 fences, expect_tx) whose PTX is committed: compiled
# again by the pinned nvcc, and with --check each must equal its committed PTX.
echo "kernels/run.sh: compiling the hand-written CUDA TMA GEMMs for sm_100a" >&2
"$PYTHON" "$HERE/cuda/gen_cuda.py" "$OUT/../cuda" "${CUTLASS_INCLUDES##* }"
if [ "${1:-}" = --check ]; then
  for f in "$HERE"/cuda/*.ptx; do
    if ! cmp -s "$f" "$OUT/../cuda/$(basename "$f")"; then
      echo "kernels/run.sh: ERROR: $f differs from gen_cuda.py's output" >&2
      exit 1
    fi
  done
fi
echo "kernels/run.sh: compiling the CuTe DSL kernels for sm_100a" >&2
"$CUTEDSL_PYTHON" -W ignore::DeprecationWarning "$HERE/gen_cutedsl.py" "$OUT"
# The CuTe DSL GEMMs whose PTX is committed (run by crates/tcgen05-run/tests/cute_gemm.rs without
# the DSL): with --check it must equal the generator's output.
if [ "${1:-}" = --check ]; then
  for f in "$HERE"/cutedsl/*.ptx; do
    if ! cmp -s "$f" "$OUT/$(basename "$f")"; then
      echo "kernels/run.sh: ERROR: $f differs from gen_cutedsl.py's output" >&2
      exit 1
    fi
  done
fi

# The scale-format words of CuTe DSL's block-scaled descriptor builders (rules.md D9), compared
# with the committed vectors that crates/tcgen05/tests/scale_format_vectors.rs reads.
echo "kernels/run.sh: writing CuTe DSL's scale-format descriptor vectors" >&2
SF_VECTORS=conformance/vectors/cutedsl-4.8.1-scale-format.jsonl
"$CUTEDSL_PYTHON" -W ignore "$HERE/gen_scale_format.py" "$OUT/$(basename "$SF_VECTORS")"
if [ "${1:-}" = --check ] && ! cmp -s "$SF_VECTORS" "$OUT/$(basename "$SF_VECTORS")"; then
  echo "kernels/run.sh: ERROR: $SF_VECTORS differs from gen_scale_format.py's output" >&2
  exit 1
fi

if [ "${1:-}" = --check ]; then
  for f in "$HERE"/triton/*.json "$HERE"/cutlass/*.json "$HERE"/cutedsl/*.json; do
    if ! cmp -s "$f" "$OUT/$(basename "$f")"; then
      echo "kernels/run.sh: ERROR: $(basename "$f") differs from the generator's output" >&2
      diff "$f" "$OUT/$(basename "$f")" >&2 || true
      exit 1
    fi
  done
  n_committed=$(ls "$HERE"/triton/*.json "$HERE"/cutlass/*.json "$HERE"/cutedsl/*.json | wc -l)
  n_generated=$(ls "$OUT"/*.json | wc -l)
  if [ "$n_committed" != "$n_generated" ]; then
    echo "kernels/run.sh: ERROR: $n_generated kernels generated, $n_committed committed" >&2
    exit 1
  fi
fi

cargo build -q --release -p tcgen05-cli
BIN="$ROOT/target/release/tcgen05"
# Kernels whose parameters list expected errors (Triton's NVFP4 with uint8 scales: idesc bit 24,
# reserved on sm_100a, which PTX ISA 9.4 makes the UE5M3 scale format on sm_107) are checked
# apart: check must exit 1 and say what each expected error says.
mapfile -t CLEAN < <(python3 - "$OUT" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.ptx")):
    if not json.load(open(f[:-4] + ".json")).get("expected_errors"):
        print(f)
PY
)
python3 - "$OUT" <<'PY' | while IFS=$'\t' read -r f says; do
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.ptx")):
    for e in json.load(open(f[:-4] + ".json")).get("expected_errors", []):
        print(f + "\t" + e["says"])
PY
  set +e
  text=$("$BIN" check "$f" 2>&1)
  rc=$?
  set -e
  if [ "$rc" != 1 ] || ! grep -qF "$says" <<<"$text"; then
    echo "kernels/run.sh: ERROR: $(basename "$f"): exit $rc, expected 1 with '$says'" >&2
    exit 1
  fi
  echo "kernels/run.sh: $(basename "$f"): the expected error, saying '$says'" >&2
done
"$BIN" check "${CLEAN[@]}" > "$OUT/../check.txt"
# The summary: instructions, errors, warnings, how many shared memory descriptors have every
# field but the start address known (the share a reader of the PTX knows), and the alloc/dealloc
# paths check could not decide.
SUMMARY='^[0-9]+ instructions checked|^[0-9]+ shared memory descriptors|^tcgen05.alloc / tcgen05.dealloc pairing'
tail -4 "$OUT/../check.txt" | grep -E "$SUMMARY"
for src in triton cutlass cutedsl; do
  mapfile -t SRC < <(printf '%s\n' "${CLEAN[@]}" | grep "/${src}_")
  "$BIN" check "${SRC[@]}" | tail -4 | grep -E "$SUMMARY" | grep -v "instructions checked" |
    sed "s/^/kernels\/run.sh: $src: /"
done
"$BIN" check --json "$OUT/triton_dot_bf16_128x128x64_w4.ptx" | grep -q '"idesc":"0x08210490"' || {
  echo "kernels/run.sh: ERROR: the bf16 128x128x64 GEMM's idesc 0x08210490 was not recovered" >&2
  exit 1
}
TCGEN05_KERNELS_DIR="$OUT" cargo test -q -p tcgen05 --features alloc --test check_corpus -- --ignored --nocapture 2>&1 | grep -E "^\.?corpus:|test result" | sed 's/^\.//'
# The Triton kernels run end to end in the interpreter (`tcgen05 run`'s library), each output
# compared with the chain of MMAs of the numerics tables (crates/tcgen05-run/tests/blackwell.rs).
TCGEN05_KERNELS_DIR="$OUT" cargo test -q --release -p tcgen05-run --test blackwell -- --ignored --nocapture 2>&1 | grep -E "^run corpus:|test result"
# Every CuTe DSL and CUTLASS kernel (cutedsl_*, cutlass_*; the sm_103a K = 96 ones against the
# numerics module's K = 96 dot product) likewise (crates/tcgen05-run/tests/cute_gemm.rs).
TCGEN05_KERNELS_DIR="$OUT" cargo test -q --release -p tcgen05-run --test cute_gemm -- --ignored --nocapture 2>&1 | grep -E "^run cute gemm:|test result"
# Hazards (issue 25): every kernel the tests run under the hazard checker (the corpus step's 35,
# the Hopper, breadth, pair and published-bug kernels: 69) clean under `tcgen05 run --hazards
# --schedules 50` (the default schedule and 50 seeded ones; hazard_cost.py exits 1 otherwise),
# and the planted-bug matrix on 4 kernels per class; a cell that
# conformance/kernels/planted.tsv records as found and is not found now fails the step.
python3 "$HERE/hazard_cost.py" "$OUT" "$BIN" --schedules 50 | grep -E "NOT clean|^schedules: [0-9]+ of"
python3 "$HERE/plant.py" "$OUT" "$BIN" --kernels 4 --expect "$HERE/planted.tsv" 2>&1 >/dev/null | grep -E "REGRESSION|unmodified"

# Throughput: the corpus concatenated to 10 MB, checked by the release binary (printed, not
# asserted: CI machines differ).
python3 - "$OUT" "$OUT/../big.ptx" <<'PY'
import glob, sys
import json
files = [f for f in sorted(glob.glob(sys.argv[1] + "/*.ptx"))
         if not json.load(open(f[:-4] + ".json")).get("expected_errors")]
n = 0
with open(sys.argv[2], "wb") as out:
    while n < 10_000_000:
        for f in files:
            b = open(f, "rb").read()
            out.write(b)
            n += len(b)
            if n >= 10_000_000:
                break
PY
start=$(date +%s.%N)
"$BIN" check "$OUT/../big.ptx" > /dev/null
end=$(date +%s.%N)
python3 -c "import os,sys; s=float(sys.argv[2])-float(sys.argv[1]); mb=os.path.getsize(sys.argv[3])/1e6; print(f'throughput: {mb:.1f} MB of PTX checked in {s:.2f} s ({mb/s:.1f} MB/s, release binary)')" "$start" "$end" "$OUT/../big.ptx"
