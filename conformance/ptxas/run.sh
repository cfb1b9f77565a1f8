#!/usr/bin/env bash
# The ptxas conformance check of the `tcgen05::ptx` builders.
#
#   conformance/ptxas/run.sh           regenerate conformance/ptxas/verdicts.tsv.gz (every form's
#                                      verdicts: ours, our rule ids, ptxas's) and SUMMARY.md
#   conformance/ptxas/run.sh --check   run ptxas again (every form at its lowest PTX ISA version,
#                                      a sample of 1 in 12 at the later versions up to 9.5) and
#                                      fail, naming each form, where a verdict differs from the
#                                      committed verdicts.tsv.gz; SUMMARY.md is a report, never
#                                      compared
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
VERDICTS="$ROOT/conformance/ptxas/verdicts.tsv.gz"
if [ "${1:-}" = "--check" ]; then
  # Every form at its lowest PTX ISA version, one in 12 of them at each later version (see
  # gen/src/versions.rs; `run.sh --check --sample 1` assembles all); the unit test compares every
  # form's verdict with the file.
  "$BIN" --ptxas "$PTXAS" --nvdisasm "$NVDISASM" --work "$ROOT/.cache/ptxas-work" --check "$VERDICTS" "${@:2}"
else
  "$BIN" --ptxas "$PTXAS" --nvdisasm "$NVDISASM" --work "$ROOT/.cache/ptxas-work" --out "$SUMMARY" --verdicts-out "$VERDICTS"
fi
