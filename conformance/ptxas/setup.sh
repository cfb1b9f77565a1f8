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
PYTHON="${PYTHON:-python3}"

# Pinned versions: /work/shared/spec/oracles.md section 1. Error texts and rules differ between releases.
PINS=(
  nvidia-cuda-nvcc==13.5.37
  nvidia-cuda-nvdisasm==13.5.37
)

PIP=("$VENV/bin/python" -m pip)
if [ ! -x "$VENV/bin/python" ]; then
  echo "ptxas/setup.sh: creating virtualenv $VENV" >&2
  mkdir -p "$(dirname "$VENV")"
  if ! "$PYTHON" -m venv "$VENV" >&2; then
    echo "ptxas/setup.sh: venv with pip failed; retrying --without-pip and the system pip" >&2
    rm -rf "$VENV"
    "$PYTHON" -m venv --without-pip "$VENV" >&2
  fi
fi
if [ ! -x "$VENV/bin/pip" ]; then
  PIP=("$PYTHON" -m pip --python "$VENV/bin/python")
fi

have_all=0
if "$VENV/bin/python" - "${PINS[@]}" <<'PY'
import sys
from importlib import metadata
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        got = metadata.version(name)
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if got != want:
        sys.exit(1)
PY
then
  have_all=1
fi

if [ "$have_all" = 1 ]; then
  echo "ptxas/setup.sh: pinned wheels already installed in $VENV" >&2
else
  echo "ptxas/setup.sh: installing ${PINS[*]}" >&2
  # --no-deps: the wheels' Python dependencies are not needed to run the two binaries.
  if ! "${PIP[@]}" install --quiet --disable-pip-version-check --no-deps "${PINS[@]}" >&2; then
    echo "ptxas/setup.sh: ERROR: could not install ${PINS[*]} from PyPI" >&2
    exit 1
  fi
fi

SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
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
