#!/usr/bin/env bash
# The ptxas conformance check of the `tcgen05::ptx` builders.
#
#   conformance/ptxas/run.sh           regenerate conformance/ptxas/SUMMARY.md
#   conformance/ptxas/run.sh --check   regenerate and fail unless it equals the committed one
#
# Installs ptxas and nvdisasm 13.5.37 from PyPI into .cache/ptxas-venv (setup.sh; fails loudly if
# it cannot), builds the generator in release mode, enumerates every form, assembles each and
# exits 1 on any disagreement between our verdict and ptxas's.
set -euo pipefail
ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cd "$ROOT"
SETUP_OUT="$(conformance/ptxas/setup.sh)" || {
  echo "conformance/ptxas/run.sh: ERROR: ptxas/nvdisasm 13.5.37 could not be installed" >&2
  exit 1
}
eval "$SETUP_OUT"
cargo build --release -q -p tcgen05-ptxas-conformance
BIN="$ROOT/target/release/tcgen05-ptxas-conformance"
SUMMARY="$ROOT/conformance/ptxas/SUMMARY.md"
if [ "${1:-}" = "--check" ]; then
  "$BIN" --ptxas "$PTXAS" --nvdisasm "$NVDISASM" --work "$ROOT/.cache/ptxas-work" --check "$SUMMARY"
else
  "$BIN" --ptxas "$PTXAS" --nvdisasm "$NVDISASM" --work "$ROOT/.cache/ptxas-work" --out "$SUMMARY"
fi
