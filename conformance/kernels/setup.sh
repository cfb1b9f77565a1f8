#!/usr/bin/env bash
# Install the pinned kernel compilers of the check corpus from PyPI into a git-ignored virtualenv.
#
# Triton 3.9.0 compiles kernels for sm_100a to PTX without a GPU (triton.compile on an ASTSource
# with GPUTarget("cuda", 100, 32)); it ships its own ptxas, which PTX generation does not run.
# Idempotent (nothing is installed when the pins are present); fails loudly when the wheels cannot
# be installed, so the corpus check is never skipped silently.
# Prints one shell assignment on stdout (quoted with printf %q): PYTHON=...  Progress on stderr.
set -euo pipefail

ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
VENV="${KERNELS_VENV:-$ROOT/.cache/kernels-venv}"

PINS=(
  triton==3.9.0
)

# shellcheck source=../pinned-venv.sh
. "$ROOT/conformance/pinned-venv.sh"
pinned_venv "kernels/setup.sh" "$VENV" "${PINS[@]}"
if ! "$VENV/bin/python" -c 'import triton, sys; sys.exit(triton.__version__ != "3.9.0")' >&2; then
  echo "kernels/setup.sh: ERROR: triton 3.9.0 does not import from $VENV" >&2
  exit 1
fi
printf 'PYTHON=%q\n' "$VENV/bin/python"
