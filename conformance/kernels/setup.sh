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

# KERNELS_NO_CUTEDSL=1 (examples/kernels/generate.sh) stops here: the README's sample kernels
# need Triton and nvcc only.
if [ "${KERNELS_NO_CUTEDSL:-}" = 1 ]; then
  printf 'PYTHON=%q\n' "$VENV/bin/python"
  printf 'CUTLASS_INCLUDES=%q\n' "$SITE/cutlass_library/source/include $SITE/nvidia/cu13/include/cccl $SITE/nvidia/cu13/include"
  exit 0
fi

# CuTe DSL in a virtualenv of its own (it brings its own CUDA 12 compiler libraries), with every
# dependency pinned (the wheels go in with --no-deps).
CUTEDSL_VENV="${CUTEDSL_VENV:-$ROOT/.cache/cutedsl-venv}"
CUTEDSL_PINS=(
  nvidia-cutlass-dsl==4.8.1
  nvidia-cutlass-dsl-libs-base==4.8.1
  nvidia-cutlass-dsl-libs-core==4.8.1
  nvidia-cutlass-dsl-libs-cu12==4.8.1
  cuda-bindings==13.5.0
  cuda-pathfinder==1.9.0
  numpy==2.4.6
  protobuf==7.36.2
  typing_extensions==4.16.0
)
CUTLASS_SITE="$SITE"
pinned_venv "kernels/setup.sh" "$CUTEDSL_VENV" "${CUTEDSL_PINS[@]}"
if ! "$CUTEDSL_VENV/bin/python" -c 'import cutlass.cute' >&2; then
  echo "kernels/setup.sh: ERROR: CuTe DSL 4.8.1 does not import from $CUTEDSL_VENV" >&2
  exit 1
fi
SITE="$CUTLASS_SITE"
printf 'PYTHON=%q\n' "$VENV/bin/python"
printf 'CUTEDSL_PYTHON=%q\n' "$CUTEDSL_VENV/bin/python"
printf 'CUTLASS_INCLUDES=%q\n' "$SITE/cutlass_library/source/include $SITE/nvidia/cu13/include/cccl $SITE/nvidia/cu13/include"
