#!/usr/bin/env bash
# Differential test against MMA-Sim 2.1.1 (Microsoft Research's bit-accurate Python model of
# NVIDIA's tensor cores): install it with torch in a pinned, git-ignored virtualenv, run it on
# the seeded random vectors of gen.py, and compare with (or rewrite) the committed results that
# crates/tcgen05/tests/numerics_mmasim.rs checks the Rust model against in every CI run.
#
#   conformance/mmasim/run.sh --check   regenerate into a temporary file and compare (default)
#   conformance/mmasim/run.sh --write   rewrite conformance/mmasim/mmasim-2.1.1.txt.gz,
#                                       e2e-mmasim-2.1.1.txt.gz (whole MMAs, e2e.py) and
#                                       corners-mmasim-2.1.1.txt (corner vectors, corners.py)
#   conformance/mmasim/run.sh --time    time MMA-Sim on one 128x256x16 bf16 and one
#                                       128x256x64 mxf4nvf4 MMA (compare: cargo bench --bench numerics)
#
# Not run by scripts/test-all.sh: torch and its CUDA libraries are about 4.5 GB. The Rust test
# reads the committed results instead. Needs python3 (3.11), g++ (MMA-Sim JIT-builds a C++
# extension at import) and PyPI.
set -euo pipefail

ROOT="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
VENV="${MMASIM_VENV:-$ROOT/.cache/mmasim-venv}"
COUNT="${MMASIM_COUNT:-10000}"
OUT="$ROOT/conformance/mmasim/mmasim-2.1.1.txt.gz"
E2E="$ROOT/conformance/mmasim/e2e-mmasim-2.1.1.txt.gz"     # whole MMAs, for the emulator
CORNERS="$ROOT/conformance/mmasim/corners-mmasim-2.1.1.txt" # corner vectors (corners.py)

# torch 2.9.1 is the wheel on PyPI (the CPU-only build is not on PyPI); it loads the CUDA
# runtime libraries at import even on a machine without a GPU, so they are pinned too.
# Everything goes in with --no-deps (pinned-venv.sh), so this list is the whole environment.
PINS=(
  mmasim==2.1.1
  torch==2.9.1
  numpy==2.3.5
  ninja==1.13.0
  typing-extensions==4.15.0
  filelock==3.20.0
  fsspec==2025.10.0
  jinja2==3.1.6
  MarkupSafe==3.0.3
  networkx==3.5
  sympy==1.14.0
  mpmath==1.3.0
  nvidia-cuda-nvrtc-cu12==12.8.93
  nvidia-cuda-runtime-cu12==12.8.90
  nvidia-cuda-cupti-cu12==12.8.90
  nvidia-cudnn-cu12==9.10.2.21
  nvidia-cublas-cu12==12.8.4.1
  nvidia-cufft-cu12==11.3.3.83
  nvidia-curand-cu12==10.3.9.90
  nvidia-cusolver-cu12==11.7.3.90
  nvidia-cusparse-cu12==12.5.8.93
  nvidia-cusparselt-cu12==0.7.1
  nvidia-nccl-cu12==2.27.5
  nvidia-nvshmem-cu12==3.3.20
  nvidia-nvtx-cu12==12.8.90
  nvidia-nvjitlink-cu12==12.8.93
  nvidia-cufile-cu12==1.13.1.3
)

# shellcheck source=../pinned-venv.sh
. "$ROOT/conformance/pinned-venv.sh"
pinned_venv "mmasim" "$VENV" "${PINS[@]}"
export PATH="$VENV/bin:$PATH"                        # ninja, for MMA-Sim's C++ extension
export TORCH_EXTENSIONS_DIR="$ROOT/.cache/torch-extensions"
PY="$VENV/bin/python"

case "${1:---check}" in
  --time) exec "$PY" "$ROOT/conformance/mmasim/gen.py" --time ;;
  --write)
    "$PY" "$ROOT/conformance/mmasim/gen.py" "$OUT" "$COUNT"
    (cd "$ROOT/conformance/mmasim" && "$PY" e2e.py "$E2E")
    (cd "$ROOT/conformance/mmasim" && "$PY" corners.py "$CORNERS")
    ;;
  --check)
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    "$PY" "$ROOT/conformance/mmasim/gen.py" "$tmp/new.txt.gz" "$COUNT"
    if cmp -s <(gzip -dc "$tmp/new.txt.gz") <(gzip -dc "$OUT"); then
      echo "mmasim: MMA-Sim 2.1.1 reproduces the committed results ($COUNT vectors per form)"
    else
      echo "mmasim: ERROR: MMA-Sim's results differ from $OUT" >&2
      exit 1
    fi
    (cd "$ROOT/conformance/mmasim" && "$PY" e2e.py "$tmp/e2e.txt.gz")
    if cmp -s <(gzip -dc "$tmp/e2e.txt.gz") <(gzip -dc "$E2E"); then
      echo "mmasim: MMA-Sim 2.1.1 reproduces the committed whole-MMA results of e2e.py"
    else
      echo "mmasim: ERROR: MMA-Sim's whole-MMA results differ from $E2E" >&2
      exit 1
    fi
    (cd "$ROOT/conformance/mmasim" && "$PY" corners.py "$tmp/corners.txt")
    if cmp -s "$tmp/corners.txt" "$CORNERS"; then
      echo "mmasim: MMA-Sim 2.1.1 reproduces the committed corner vectors of corners.py"
    else
      echo "mmasim: ERROR: MMA-Sim's corner results differ from $CORNERS" >&2
      exit 1
    fi
    ;;
  *) echo "usage: $0 [--check|--write|--time]" >&2; exit 2 ;;
esac
