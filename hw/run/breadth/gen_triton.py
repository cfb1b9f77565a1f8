"""Compile the Triton kernels of the interpreter's breadth proof to PTX for sm_90a, without a GPU.

Usage: python gen_triton.py OUT_DIR

Writes OUT_DIR/<name>.ptx for each kernel (Triton 3.9.0, pinned by conformance/kernels/setup.sh,
GPUTarget("cuda", 90, 32)); hw/run/breadth/harness.cu runs them on a Hopper GPU and
crates/tcgen05-run/tests/breadth.rs in the interpreter, with the arguments kernels.txt gives.
"""
import os
import sys

# The shared compile step (conformance/kernels/triton_ptx.py), imported before Triton. The
# kernels below keep their line numbers: the committed PTX's debug lines (`.loc 1 LINE`) name
# lines of this file, so a line added above a kernel changes its PTX.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "conformance", "kernels"))
from triton_ptx import write_kernels  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

# Every kernel here is compiled for the Hopper target of hw/run/breadth/harness.cu: sm_90a
# (GPUTarget("cuda", 90, 32)).
ARCH = 90


@triton.jit
def tri_atomic(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Histogram of x % 16 (tl.atomic_add) and the maximum of x (tl.atomic_max), masked tail."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(out_ptr + (x % 16), 1, mask=mask)
    tl.atomic_max(out_ptr + 16 + x * 0, x, mask=mask)
    tl.atomic_min(out_ptr + 17 + x * 0, x + 7, mask=mask)
    tl.atomic_xor(out_ptr + 18 + x * 0, x, mask=mask)


@triton.jit
def tri_reduce(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """Integer reductions of one row per program: sum, max, min, xor-sum (tl.reduce)."""
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + row * 4, tl.sum(x, axis=0))
    tl.store(out_ptr + row * 4 + 1, tl.max(x, axis=0))
    tl.store(out_ptr + row * 4 + 2, tl.min(x, axis=0))
    tl.store(out_ptr + row * 4 + 3, tl.xor_sum(x, axis=0))


@triton.jit
def tri_f16(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """f16 arithmetic: out = where(x > 0, x * x + x, -x * 0.5) - x, in f16 throughout."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(x > 0, x * x + x, -x * 0.5) - x
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit(noinline=True)
def helper(x, y):
    return x * 3 + (y ^ x)


@triton.jit
def tri_call(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """A call of a noinline device function on scalars: out[row] = helper(sum of the row, row)."""
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * BLOCK + tl.arange(0, BLOCK))
    s = tl.sum(x, axis=0)
    tl.store(out_ptr + row, helper(s, row))


KERNELS = {
    "tri_atomic": (tri_atomic, {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
                   {"BLOCK": 256}, 4),
    "tri_reduce": (tri_reduce, {"x_ptr": "*i32", "out_ptr": "*i32", "BLOCK": "constexpr"},
                   {"BLOCK": 256}, 4),
    "tri_f16": (tri_f16, {"x_ptr": "*fp16", "out_ptr": "*fp16", "n": "i32", "BLOCK": "constexpr"},
                {"BLOCK": 512}, 4),
    "tri_call": (tri_call, {"x_ptr": "*i32", "out_ptr": "*i32", "BLOCK": "constexpr"},
                 {"BLOCK": 128}, 4),
}


def main():
    write_kernels(sys.argv[1], KERNELS, ARCH)


if __name__ == "__main__":
    main()
