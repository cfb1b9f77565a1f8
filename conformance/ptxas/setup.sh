#!/usr/bin/env bash
# Install NVIDIA's ptxas and nvdisasm 13.5.37 from PyPI into a git-ignored virtualenv.
#
# Idempotent: when the pinned wheels are already installed it installs nothing. Fails loudly
# (non-zero exit, message on stderr) when they cannot be installed: the ptxas conformance check
# must never be skipped silently.
# Prints two shell assignments on stdout (quoted with printf %q) so callers can
# `eval "$(setup.sh)"`:  PTXAS=...  NVDISASM=...   Progress goes to stderr.
set -euo pipefail

ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
VENV="${PTXAS_VENV:-$ROOT/.cache/ptxas-venv}"

# Pinned versions: ../shared/spec/oracles.md (beside the repository), section 1. Error texts and rules differ between releases.
PINS=(
  nvidia-cuda-nvcc==13.5.37
  nvidia-cuda-nvdisasm==13.5.37
)

# shellcheck source=../pinned-venv.sh
. "$ROOT/conformance/pinned-venv.sh"
pinned_venv "ptxas/setup.sh" "$VENV" "${PINS[@]}"
BIN="$SITE/nvidia/cu13/bin"
PTXAS="$BIN/ptxas"
NVDISASM="$BIN/nvdisasm"
for f in "$PTXAS" "$NVDISASM"; do
  if [ ! -x "$f" ]; then
    echo "ptxas/setup.sh: ERROR: expected executable not found: $f" >&2
    exit 1
  fi
done
if ! "$PTXAS" --version 2>&1 | grep -q 'V13\.5\.'; then
  echo "ptxas/setup.sh: ERROR: $PTXAS is not release 13.5:" >&2
  "$PTXAS" --version >&2 || true
  exit 1
fi

printf 'PTXAS=%q\n' "$PTXAS"
printf 'NVDISASM=%q\n' "$NVDISASM"
