#!/usr/bin/env bash
# Runs every test of the project: the README's test command, and what CI runs.
#
#   scripts/test-all.sh            everything (needs g++ and PyPI for the CUTLASS oracle)
#   SKIP_CUTLASS=1 scripts/test-all.sh   everything but the CUTLASS comparison (never in CI)
#   SKIP_PTXAS=1 scripts/test-all.sh     everything but the ptxas comparison (never in CI)
#   SKIP_KERNELS=1 scripts/test-all.sh   everything but the check corpus (never in CI)
#   FUZZ=1 scripts/test-all.sh           also 60 s of libFuzzer per fuzz target (nightly, cargo-fuzz)
#   SWEEP_COUNT=16777216 scripts/test-all.sh   a slice of the instruction-descriptor sweep, not all
#                                        2^32 values (never in CI)
#
# Tools the tests need are installed under .cache/ (git-ignored) by the scripts themselves.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "format"
cargo fmt --all -- --check

step "lints (clippy, warnings are errors)"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "module structure: no import circle between the core's rooms, the command's layers one way (scripts/core-imports.py, scripts/cli-imports.py)"
python3 scripts/core-imports.py | tail -n 4
python3 scripts/cli-imports.py | tail -n 2

step "core crate builds without std, alloc or serde (no_std, no required dependencies)"
cargo build -p tcgen05 --no-default-features
test "$(cargo tree -p tcgen05 --no-default-features -e normal --prefix none | sort -u | wc -l)" -eq 1

step "unit, property, end-to-end and doc tests"
cargo test --workspace --all-features

# The fuzz targets' committed corpora already ran as a regular stable test above
# (crates/tcgen05-cli/tests/fuzz_corpus.rs); libFuzzer itself needs nightly and cargo-fuzz, which a
# fresh CI machine lacks, so the bounded fuzzing run is opt-in.
if [ "${FUZZ:-}" = 1 ]; then
  step "fuzzing: every target for 60 s (fuzz/run.sh 60; needs cargo +nightly and cargo-fuzz)"
  fuzz/run.sh 60
fi

step "documentation builds without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

step "crates publishable: cargo publish --dry-run of the core, the SVG crate and the command (packaged, built from the package)"
# Cargo treats a registry crate as immutable: it reuses the sources it once unpacked from the
# dry run's temporary registry (under CARGO_HOME, keyed by this checkout's path) and the crates
# built from them, so a second run in the same checkout would verify the command against the
# core of the first. Both are removed first; the packages are built in their own folder, whose
# other dependencies stay built between runs.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tcgen05-0.1.0 \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tcgen05-svg-0.1.0 target/package \
  target/publish/debug/.fingerprint/tcgen05-* target/publish/debug/deps/*tcgen05*
CARGO_TARGET_DIR=target/publish cargo publish --dry-run --allow-dirty -q -p tcgen05 -p tcgen05-svg -p tcgen05-cli

step "declared minimum Rust versions (scripts/msrv.sh: the core on its rust-version, the command on its own)"
set +e
scripts/msrv.sh
msrv=$?
set -e
if [ "$msrv" = 3 ]; then
  echo "==> WARNING: the minimum Rust versions were NOT tested on this machine (toolchains missing; see above)"
elif [ "$msrv" != 0 ]; then
  exit "$msrv"
fi

# All 2^32 values under every kind (about 45 s of CPU per thread on a 2-core machine, see
# conformance/idesc-sweep). Built for the machine it runs on (-C target-cpu=native, so that the
# first pass runs in vector registers), in its own target directory so that the other release
# builds keep theirs. SWEEP_COUNT=N sweeps a slice of N values spread over all 32 bits instead
# (quick local runs; never in CI).
if [ -n "${SWEEP_COUNT:-}" ] && [ -z "${CI:-}" ]; then
  step "instruction-descriptor sweep, a slice of $SWEEP_COUNT values spread over all 32 bits (SWEEP_COUNT; release)"
  sweep_args=(--count "$SWEEP_COUNT" --stride 0x9E3779B1)
else
  step "exhaustive instruction-descriptor sweep: all 2^32 values under every kind (release)"
  sweep_args=()
fi
RUSTFLAGS="-C target-cpu=native" cargo run --release -q -p tcgen05-idesc-sweep \
  --target-dir target/sweep -- "${sweep_args[@]}"

if [ "${SKIP_CUTLASS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  step "CUTLASS oracle skipped (SKIP_CUTLASS=1)"
else
  step "CUTLASS oracle: regenerate the descriptor vectors, Tensor Memory maps and scale-factor layouts from NVIDIA's headers, compare with the committed ones"
  conformance/cutlass/run.sh --check
fi

step "PyTorch to_blocked vectors: regenerate from its documented formula (standard library only), compare with the committed file"
python3 conformance/scales/gen_torch_to_blocked.py | cmp - conformance/vectors/pytorch-to-blocked.jsonl

if [ "${SKIP_PTXAS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  step "ptxas oracle skipped (SKIP_PTXAS=1)"
else
  step "ptxas oracle: assemble every tcgen05 form the ptx builders write with ptxas 13.5.37, compare verdicts and SASS"
  conformance/ptxas/run.sh --check
fi

if [ "${SKIP_KERNELS:-}" = 1 ] && [ -z "${CI:-}" ]; then
  step "kernel corpus skipped (SKIP_KERNELS=1)"
else
  step "check corpus: compile Triton 3.9.0 kernels for sm_100a, tcgen05 check every one, idesc vs kernel parameters, mutations"
  conformance/kernels/run.sh --check
fi

step "hardware harness host logic in CPU emulation (every committed wgmma case)"
hw/wgmma/emulate.sh

step "Python package: maturin wheel in a fresh venv, pytest, mypy --strict, examples (scripts/test-python.sh)"
scripts/test-python.sh

step "all tests passed"
