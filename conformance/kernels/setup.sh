#!/usr/bin/env bash
# Install the pinned kernel compilers of the check corpus from PyPI into a git-ignored virtualenv.
#
# Triton 3.9.0 compiles kernels for sm_100a to PTX without a GPU (triton.compile on an ASTSource
# with GPUTarget("cuda", 100, 32)). CUTLASS 4.2.0's headers compile to PTX with nvcc 13.5.37 (its
# front end cicc comes in the nvidia-nvvm wheel), the same releases conformance/cutlass and
# conformance/ptxas pin.
# Idempotent (nothing is installed when the pins are present); fails loudly when the wheels cannot
# be installed, so the corpus check is never skipped silently.
# Prints two shell assignments on stdout (quoted with printf %q): PYTHON=... and
# CUTLASS_INCLUDES=... (the CUTLASS, CCCL and CUDA include directories). Progress on stderr.
set -euo pipefail

ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
VENV="${KERNELS_VENV:-$ROOT/.cache/kernels-venv}"

# Triton, and for the CUTLASS C++ kernels nvcc with the headers conformance/cutlass pins.
PINS=(
  triton==3.9.0
  nvidia-cuda-nvcc==13.5.37
  nvidia-nvvm==13.5.37
  nvidia-cutlass==4.2.0.0
  nvidia-cuda-runtime==13.5.37
  nvidia-cuda-crt==13.5.37
  nvidia-cuda-cccl==13.3.5.0.6
)

# shellcheck source=../pinned-venv.sh
. "$ROOT/conformance/pinned-venv.sh"
pinned_venv "kernels/setup.sh" "$VENV" "${PINS[@]}"
if ! "$VENV/bin/python" -c 'import triton, sys; sys.exit(triton.__version__ != "3.9.0")' >&2; then
  echo "kernels/setup.sh: ERROR: triton 3.9.0 does not import from $VENV" >&2
  exit 1
fi
for f in "$SITE/nvidia/cu13/bin/nvcc" "$SITE/nvidia/cu13/nvvm/bin/cicc"; do
  if [ ! -x "$f" ]; then
    echo "kernels/setup.sh: ERROR: expected executable not found: $f" >&2
    exit 1
  fi
done
printf 'PYTHON=%q\n' "$VENV/bin/python"
printf 'CUTLASS_INCLUDES=%q\n' "$SITE/cutlass_library/source/include $SITE/nvidia/cu13/include/cccl $SITE/nvidia/cu13/include"
