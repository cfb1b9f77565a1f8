#!/usr/bin/env bash
# Install NVIDIA's CUTLASS C++ headers (and the CUDA headers they need) from PyPI
# into a git-ignored virtualenv, so the generators in this directory can be built host-only with g++.
#
# Idempotent: when the pinned wheels are already installed it installs nothing.
# Prints the include directories on stdout as three shell assignments
#   CUTLASS_INCLUDE=... CCCL_INCLUDE=... CUDA_INCLUDE=...
# (quoted with printf %q) so callers can `eval "$(setup.sh)"`; progress goes to stderr.
set -euo pipefail

ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
VENV="${CUTLASS_VENV:-$ROOT/.cache/cutlass-venv}"
PYTHON="${PYTHON:-python3}"

# Pinned versions: see /work/shared/spec/oracles.md section 2 and conformance/cutlass/README.md.
PINS=(
  nvidia-cutlass==4.2.0.0
  nvidia-cuda-runtime==13.5.37
  nvidia-cuda-crt==13.5.37
  nvidia-cuda-cccl==13.3.5.0.6
)

# pip to install with: the venv's own, or (when the system python lacks ensurepip, as Debian does
# without the python3-venv package) the system pip aimed at the venv with --python.
PIP=("$VENV/bin/python" -m pip)
if [ ! -x "$VENV/bin/python" ]; then
  echo "setup.sh: creating virtualenv $VENV" >&2
  mkdir -p "$(dirname "$VENV")"
  if ! "$PYTHON" -m venv "$VENV" >&2; then
    echo "setup.sh: venv with pip failed; retrying --without-pip and the system pip" >&2
    rm -rf "$VENV"
    "$PYTHON" -m venv --without-pip "$VENV" >&2
  fi
fi
if [ ! -x "$VENV/bin/pip" ]; then
  PIP=("$PYTHON" -m pip --python "$VENV/bin/python")
fi

# Are all pins present at exactly the pinned version? (one interpreter start, no pip)
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
  echo "setup.sh: pinned wheels already installed in $VENV" >&2
else
  echo "setup.sh: installing ${PINS[*]}" >&2
  # --no-deps: nvidia-cutlass's Python dependencies are not needed for the C++ headers.
  "${PIP[@]}" install --quiet --disable-pip-version-check --no-deps "${PINS[@]}" >&2
fi

SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
CUTLASS_INCLUDE="$SITE/cutlass_library/source/include"
CCCL_INCLUDE="$SITE/nvidia/cu13/include/cccl"
CUDA_INCLUDE="$SITE/nvidia/cu13/include"

for f in "$CUTLASS_INCLUDE/cute/arch/mma_sm100_desc.hpp" \
         "$CUTLASS_INCLUDE/cute/atom/mma_traits_sm100.hpp" \
         "$CCCL_INCLUDE/cuda/std/cstdint" \
         "$CUDA_INCLUDE/cuda_runtime_api.h"; do
  if [ ! -f "$f" ]; then
    echo "setup.sh: expected header not found: $f" >&2
    exit 1
  fi
done

printf 'CUTLASS_INCLUDE=%q\n' "$CUTLASS_INCLUDE"
printf 'CCCL_INCLUDE=%q\n' "$CCCL_INCLUDE"
printf 'CUDA_INCLUDE=%q\n' "$CUDA_INCLUDE"
