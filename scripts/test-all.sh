#!/usr/bin/env bash
# Runs every test of the project: the README's test command, and what CI runs.
#
#   scripts/test-all.sh            everything (needs g++ and PyPI for the CUTLASS oracle)
#   SKIP_CUTLASS=1 scripts/test-all.sh   everything but the CUTLASS comparison (never in CI)
#   SKIP_PTXAS=1 scripts/test-all.sh     everything but the ptxas comparison (never in CI)
#   SKIP_KERNELS=1 scripts/test-all.sh   everything but the check corpus (never in CI)
#   FUZZ=1 scripts/test-all.sh           also 60 s of libFuzzer per fuzz target (nightly, cargo-fuzz)
#   FUZZ_SECONDS=N scripts/test-all.sh   N seconds per target of the stable fuzz run (default 15)
#   SWEEP_COUNT=16777216 scripts/test-all.sh   a slice of the instruction-descriptor sweep, not all
#                                        2^32 values (never in CI)
#
# Tools the tests need are installed under .cache/ (git-ignored) by the scripts themselves.
#
# Every step is timed; a step that cannot run here is reported as NOT RUN with its reason, and the
# closing summary lists both, so a run that skipped something never reads as complete.
set -euo pipefail
cd "$(dirname "$0")/.."

RAN=()       # "SECONDS  name" of each step that ran
NOT_RUN=()   # "name: reason" of each step that could not run
current=""
started=0
finish_step() {
  if [ -n "$current" ]; then
    RAN+=("$(printf '%5d s  %s' $((SECONDS - started)) "$current")")
  fi
  current=""
}
# step NAME DESCRIPTION: the steps are named in the summary by their short NAME.
step() {
  finish_step
  current="$1"
  started=$SECONDS
  printf '\n==> [%s] %s\n' "$1" "$2"
}
not_run() {
  finish_step
  NOT_RUN+=("$1: $2")
  printf '\n==> [%s] NOT RUN: %s\n' "$1" "$2"
}
on_exit() {
  rc=$?
  if [ "$rc" != 0 ] && [ -n "$current" ]; then
    printf '\n==> FAILED in step [%s] (exit %d) after %d s\n' "$current" "$rc" $((SECONDS - started))
  fi
}
trap on_exit EXIT

step format "format (cargo fmt --check)"
cargo fmt --all -- --check

step clippy "lints (clippy, warnings are errors)"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step imports "module structure: no import circle between the core's rooms or between the files of a folder, the command's layers one way, functions and files within their length limits (scripts/core-imports.py, scripts/cli-imports.py, scripts/code-limits.py)"
python3 scripts/core-imports.py | tail -n 7
python3 scripts/cli-imports.py | tail -n 2
python3 scripts/code-limits.py | tail -n 1

step no_std "core crate builds without std, alloc or serde (no_std, no required dependencies)"
cargo build -p tcgen05 --no-default-features
test "$(cargo tree -p tcgen05 --no-default-features -e normal --prefix none | sort -u | wc -l)" -eq 1

step tests "unit, property and end-to-end tests (cargo nextest: every test under the timeout of .config/nextest.toml)"
cargo nextest run --workspace --all-features --no-tests=fail

step doctests "doc tests (cargo test --doc; nextest runs none)"
cargo test --workspace --all-features --doc

# The fuzz targets' entry points (fuzz/src/lib.rs) under a seeded mutational fuzzer on the stable
# toolchain: each target from its committed corpus and seeds, for FUZZ_SECONDS (default 15) per
# target, in the debug build the tests step left (crates/tcgen05-cli/tests/fuzz_stable.rs).
fuzz_seconds="${FUZZ_SECONDS:-15}"
step fuzz "bounded fuzzing on stable: every fuzz target for $fuzz_seconds s from its corpus, seed fixed"
TCGEN05_FUZZ_SECONDS="$fuzz_seconds" cargo nextest run -p tcgen05-cli --test fuzz_stable \
  --no-capture --no-tests=fail
# libFuzzer itself needs nightly and cargo-fuzz, which a CI machine lacks: opt-in.
if [ "${FUZZ:-}" = 1 ]; then
  step libfuzzer "libFuzzer: every target for 60 s (fuzz/run.sh 60; needs cargo +nightly and cargo-fuzz)"
  fuzz/run.sh 60
fi

step doc "documentation builds without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

step publish "crates publishable: cargo publish --dry-run of the core, the SVG crate, the interpreter and the command (packaged, built from the package)"
# Cargo treats a registry crate as immutable: it reuses the sources it once unpacked from the
# dry run's temporary registry (under CARGO_HOME, keyed by this checkout's path) and the crates
# built from them, so a second run in the same checkout would verify the command against the
# core of the first. Both are removed first; the packages are built in their own folder, whose
# other dependencies stay built between runs.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tcgen05-0.1.0 \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tcgen05-svg-0.1.0 \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tcgen05-run-0.1.0 target/package \
  target/publish/debug/.fingerprint/tcgen05-* target/publish/debug/deps/*tcgen05*
CARGO_TARGET_DIR=target/publish cargo publish --dry-run --allow-dirty -q -p tcgen05 -p tcgen05-svg -p tcgen05-run -p tcgen05-cli

step msrv "declared minimum Rust versions (scripts/msrv.sh: the core on its rust-version, the command on its own)"
set +e
scripts/msrv.sh
msrv=$?
set -e
if [ "$msrv" = 3 ]; then
  current=""
  not_run msrv "toolchains missing"
elif [ "$msrv" != 0 ]; then
  exit "$msrv"
fi

# All 2^32 values under every kind (about 45 s of CPU per thread on a 2-core machine, see
# conformance/idesc-sweep). Built for the machine it runs on (-C target-cpu=native, so that the
# first pass runs in vector registers), in its own target directory so that the other release
# builds keep theirs. SWEEP_COUNT=N sweeps a slice of N values spread over all 32 bits instead
# (quick local runs; never in CI).
if [ -n "${SWEEP_COUNT:-}" ] && [ -z "${CI:-}" ]; then
  step sweep "instruction-descriptor sweep, a slice of $SWEEP_COUNT values spread over all 32 bits (SWEEP_COUNT; release)"
  sweep_args=(--count "$SWEEP_COUNT" --stride 0x9E3779B1)
else
  step sweep "exhaustive instruction-descriptor sweep: all 2^32 values under every kind (release)"
  sweep_args=()
fi
RUSTFLAGS="-C target-cpu=native" cargo run --release -q -p tcgen05-idesc-sweep \
  --target-dir target/sweep -- "${sweep_args[@]}"

if [ "${SKIP_CUTLASS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  not_run cutlass "SKIP_CUTLASS=1"
else
  step cutlass "CUTLASS oracle: regenerate the descriptor vectors, Tensor Memory maps and scale-factor layouts from NVIDIA's headers, compare with the committed ones"
  conformance/cutlass/run.sh --check
fi

step scales "PyTorch to_blocked vectors: regenerate from its documented formula (standard library only), compare with the committed file"
python3 conformance/scales/gen_torch_to_blocked.py | cmp - conformance/vectors/pytorch-to-blocked.jsonl

step dwarf "PTX debug bytes: the DW_AT_comp_dir rewrite of conformance/kernels/ptx_dwarf.py round-trips the committed Triton PTX and refuses malformed DWARF (standard library only)"
python3 conformance/kernels/test_ptx_dwarf.py 2>&1 | tail -n 1

if [ "${SKIP_PTXAS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  not_run ptxas "SKIP_PTXAS=1"
else
  step ptxas "ptxas oracle: assemble every tcgen05 form the ptx builders write with ptxas 13.5.37, compare verdicts and SASS"
  conformance/ptxas/run.sh --check
fi

if [ "${SKIP_KERNELS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  not_run kernels "SKIP_KERNELS=1"
else
  step kernels "check corpus: compile Triton 3.9.0 kernels for sm_100a, tcgen05 check every one, idesc vs kernel parameters, mutations"
  conformance/kernels/run.sh --check
  step samples "README sample kernels: regenerate examples/kernels/*.ptx with the pinned compilers, compare with the committed text"
  examples/kernels/generate.sh --check
fi

step wgmma-emulate "hardware harness host logic in CPU emulation (every committed wgmma case)"
hw/wgmma/emulate.sh

step python "Python package: maturin wheel in a fresh venv, pytest, mypy --strict, examples (scripts/test-python.sh)"
scripts/test-python.sh

finish_step
printf '\n==> summary\n'
printf '%s\n' "${RAN[@]}"
for n in "${NOT_RUN[@]}"; do printf 'NOT RUN  %s\n' "$n"; done
if [ "${#NOT_RUN[@]}" = 0 ]; then
  printf 'all tests passed: %d steps ran, none skipped\n' "${#RAN[@]}"
else
  skipped=$(printf '%s, ' "${NOT_RUN[@]}")
  printf 'all tests passed: %d steps ran, %d not run (%s)\n' "${#RAN[@]}" "${#NOT_RUN[@]}" "${skipped%, }"
fi
