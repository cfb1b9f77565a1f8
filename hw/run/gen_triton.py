"""Compile the Triton kernels of the `tcgen05 run` Hopper proof to PTX for sm_90a, without a GPU.

Usage: python gen_triton.py OUT_DIR

Writes OUT_DIR/<name>.ptx for each kernel. Triton 3.9.0 (pinned by conformance/kernels/setup.sh)
compiles for GPUTarget("cuda", 90, 32); the same PTX runs on the H100 (hw/run/harness.cu) and in
the interpreter (crates/tcgen05-run/tests/hopper.rs).
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


@triton.jit
def axpy_bf16(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    """out = bf16(alpha * x + y), masked tail (n not a multiple of BLOCK)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (alpha * x + y).to(tl.bfloat16), mask=mask)


@triton.jit
def scale_fp8(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    """out = e4m3(x * scale), masked tail."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (x * scale).to(tl.float8e4nv), mask=mask)


@triton.jit
def row_sum(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    """out[row] = sum of x[row, :n_cols] (f32), one program per row."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


KERNELS = {
    "axpy_bf16": (axpy_bf16, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*bf16", "n": "i32",
                              "alpha": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 4),
    "scale_fp8": (scale_fp8, {"x_ptr": "*fp32", "out_ptr": "*fp8e4nv", "n": "i32", "scale": "fp32",
                              "BLOCK": "constexpr"}, {"BLOCK": 512}, 4),
    "row_sum": (row_sum, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32",
                          "BLOCK": "constexpr"}, {"BLOCK": 1024}, 4),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (fn, sig, constexprs, warps) in KERNELS.items():
        src = ASTSource(fn=fn, signature=sig, constexprs=constexprs)
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(k.asm["ptx"])
        print(name, k.metadata.shared, file=sys.stderr)


if __name__ == "__main__":
    main()
