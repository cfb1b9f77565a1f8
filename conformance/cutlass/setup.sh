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

# Pinned versions: see ../shared/spec/oracles.md (beside the repository) section 2 and conformance/cutlass/README.md.
PINS=(
  nvidia-cutlass==4.2.0.0
  nvidia-cuda-runtime==13.5.37
  nvidia-cuda-crt==13.5.37
  nvidia-cuda-cccl==13.3.5.0.6
)

# shellcheck source=../pinned-venv.sh
. "$ROOT/conformance/pinned-venv.sh"
pinned_venv "setup.sh" "$VENV" "${PINS[@]}"
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
