#!/usr/bin/env bash
# The declared minimum supported Rust versions, tested: the core crate (workspace rust-version,
# no_std, every feature combination) and the command (its own rust-version, which its locked
# dependencies set). Needs the two toolchains from rustup:
#
#   rustup toolchain install 1.83.0 1.88.0 --profile minimal
#
# Called by scripts/test-all.sh, which says loudly when the toolchains are missing (CI machines
# have one toolchain and cannot fetch another).
set -euo pipefail
cd "$(dirname "$0")/.."

core=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
cli=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' crates/tcgen05-cli/Cargo.toml)
missing=()
for v in "$core" "$cli"; do
  rustup run "$v.0" rustc --version >/dev/null 2>&1 || missing+=("$v.0")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "msrv: toolchain(s) ${missing[*]} not installed: NOT TESTED here" \
    "(install with: rustup toolchain install ${missing[*]} --profile minimal)"
  exit 3
fi

# A separate target directory: the checks must not reuse artefacts of the newer compiler.
export CARGO_TARGET_DIR="$PWD/target/msrv"
for features in "--no-default-features" "--features alloc" "--features std" "--all-features"; do
  echo "msrv: tcgen05 $features on rustc $core"
  RUSTFLAGS="-D warnings" cargo "+$core.0" check -q -p tcgen05 $features
done
echo "msrv: tcgen05-svg on rustc $core"
RUSTFLAGS="-D warnings" cargo "+$core.0" check -q -p tcgen05-svg
echo "msrv: tcgen05-cli on rustc $cli"
RUSTFLAGS="-D warnings" cargo "+$cli.0" check -q -p tcgen05-cli
echo "msrv: ok (tcgen05 and tcgen05-svg on $core, tcgen05-cli on $cli)"
