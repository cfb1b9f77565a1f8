"""Compile the benchmark's Blackwell GEMM: `gemm_bf16_128` of hw/run/gen_triton.py (the Hopper
benchmark kernel, 128 x 128 x 64 tiles) for sm_100a with Triton's default 4 warps, without a GPU.

Usage (from the repository root, with the pinned Triton of conformance/kernels/setup.sh):
    eval "$(conformance/kernels/setup.sh)"
    "$PYTHON" crates/tcgen05-run/benches/gen_sm100a.py crates/tcgen05-run/benches

Writes OUT_DIR/gemm_bf16_128_sm100a.ptx (the committed file `benches/run.rs` runs as
`gemm_sm100a`: 64 CTAs of 128 threads, 4,096 `tcgen05.mma` on a 1024 x 1024 x 1024 GEMM).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "..", "hw", "run")))

import gen_triton  # noqa: E402  (sets up triton_ptx's path and Triton's environment)
from triton_ptx import write_kernels  # noqa: E402


def main():
    fn, sig, constexprs, _warps = gen_triton.KERNELS["gemm_bf16_128"]
    write_kernels(sys.argv[1], {"gemm_bf16_128_sm100a": (fn, sig, constexprs, 4)}, 100)


if __name__ == "__main__":
    main()
