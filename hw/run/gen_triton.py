"""Compile the Triton kernels of the `tcgen05 run` Hopper proof to PTX for sm_90a, without a GPU.

Usage: python gen_triton.py OUT_DIR [NAME...]

Writes OUT_DIR/<name>.ptx for each kernel (or for the kernels named). Triton 3.9.0 (pinned by conformance/kernels/setup.sh)
compiles for GPUTarget("cuda", 90, 32); the same PTX runs on the H100 (hw/run/harness.cu) and in
the interpreter (crates/tcgen05-run/tests/hopper.rs).
"""
import os
import sys

# The shared compile step (conformance/kernels/triton_ptx.py), imported before Triton: it sets
# Triton's environment. The kernels below must keep their line numbers: the committed PTX's
# debug lines (`.loc 1 LINE`) name lines of this file, so a line added above a kernel changes
# its PTX.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "conformance", "kernels"))
from triton_ptx import write_kernels  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402


def tensor_descriptors(k):
    """Triton's tensor descriptor metadata of a compiled kernel: the tensor maps a TMA kernel's
    launcher encodes (hw/run/harness.cu encodes the same)."""
    return (getattr(k.metadata, "tensordesc_meta", None),)


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


@triton.jit
def dot_f16(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (f32) = a[M, K] (f16, row-major) @ b[K, N] (f16, row-major), masked edges."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def fma_f32(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = x * y + z in f32 (fused by Triton's FP fusion), masked tail."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    z = tl.load(z_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * y + z, mask=mask)


@triton.jit
def dot_bf16(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (f32) = a[M, K] @ b[K, N] in the pointers' element type (bf16, fp8), sizes
    multiples of the tiles."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_e4m3(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (f32) = a[M, K] @ b[K, N] in the pointers' element type (bf16, fp8), sizes
    multiples of the tiles."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_tma(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (f32) = a @ b (f16), A and B tiles moved by the tensor memory accelerator
    (host-side tensor descriptors: cp.async.bulk.tensor, mbarriers)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_tf32(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (f32) = a[M, K] (f32) @ b[K, N] (f32) on the tensor cores in tf32 (wgmma .tf32:
    the inputs' low 13 fraction bits are dropped), sizes multiples of the tiles."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision="tf32")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_i8(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c[M, N] (s32) = a[M, K] (s8) @ b[K, N] (s8), accumulated in s32 (wgmma .s32.s8.s8)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_fp8_epilogue(a_ptr, b_ptr, bias_ptr, c_ptr, c8_ptr, M, N, K, BM: tl.constexpr,
                     BN: tl.constexpr, BK: tl.constexpr):
    """An e4m3 GEMM with a fused epilogue: y = relu(a @ b + bias[None, :]) written as bf16 (c)
    and as e4m3 (c8)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    y = tl.maximum(acc + tl.load(bias_ptr + rn)[None, :], 0.0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], y.to(tl.bfloat16))
    tl.store(c8_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float8e4nv))


@triton.jit
def dot_tail_bf16(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    """c[M, N] (bf16) = a[M, K] @ b[K, N] (bf16) with M, N and K not multiples of the tile
    (masked loads and stores), two warpgroups (BM = 128, 8 warps), a pipelined K loop."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def gemm_ws(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr):
    """c[M, N] (f32) = a @ b (f16) with TMA loads and a warp-specialised K loop
    (tl.range(..., warp_specialize=True))."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def gemm_persistent(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr, PROGRAMS: tl.constexpr):
    """A persistent GEMM: PROGRAMS CTAs walk the output tiles (TMA loads, f16 in, f32 out)."""
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), tiles, PROGRAMS, flatten=True):
        pid_m = tile // tiles_n
        pid_n = tile % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([pid_m * BM, k])
            b = b_desc.load([k, pid_n * BN])
            acc = tl.dot(a, b, acc)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def gemm_bf16_128(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    """c[M, N] (f32) = a[M, K] @ b[K, N] (bf16), 128 x 128 x 64 tiles, 8 warps, 3 stages: the
    end-to-end benchmark's kernel (crates/tcgen05-run/benches)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot_e5m2_f16(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    """c[M, N] (f16) = a[M, K] @ b[K, N] (e5m2), accumulated in f32, converted to f16."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def dot_i8_tail(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr):
    """c[M, N] (s32) = a[M, K] @ b[K, N] (s8) with M, N, K not multiples of the tile."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


KERNELS = {
    "axpy_bf16": (axpy_bf16, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*bf16", "n": "i32",
                              "alpha": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 4),
    "scale_fp8": (scale_fp8, {"x_ptr": "*fp32", "out_ptr": "*fp8e4nv", "n": "i32", "scale": "fp32",
                              "BLOCK": "constexpr"}, {"BLOCK": 512}, 4),
    "row_sum": (row_sum, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_cols": "i32",
                          "BLOCK": "constexpr"}, {"BLOCK": 1024}, 4),
    "fma_f32": (fma_f32, {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "out_ptr": "*fp32",
                          "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, 4),
    "dot_f16": (dot_f16, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32",
                          "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
                          "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "dot_bf16": (dot_bf16, {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "M": "i32",
                            "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
                            "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "dot_e4m3": (dot_e4m3, {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp32", "M": "i32",
                            "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
                            "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
    # Triton's launcher encodes these tensor maps with swizzle 64B (A: 64 x 32 f16 boxes) and
    # 128B (B: 32 x 64), as k.metadata.tensordesc_meta says; hw/run/harness.cu does the same.
    "dot_tma": (dot_tma, {"a_desc": "tensordesc<fp16[64, 32]>", "b_desc": "tensordesc<fp16[32, 64]>",
                          "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
                          "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "dot_tf32": (dot_tf32, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
    "dot_i8": (dot_i8, {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
    "dot_fp8_epilogue": (dot_fp8_epilogue, {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv",
                                            "bias_ptr": "*fp32", "c_ptr": "*bf16",
                                            "c8_ptr": "*fp8e4nv", "M": "i32", "N": "i32",
                                            "K": "i32", "BM": "constexpr", "BN": "constexpr",
                                            "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
    "dot_tail_bf16": (dot_tail_bf16, {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 128, "BN": 64, "BK": 32}, 8),
    "gemm_ws": (gemm_ws, {"a_desc": "tensordesc<fp16[64, 64]>", "b_desc": "tensordesc<fp16[64, 64]>",
                          "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
                          "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
    "gemm_persistent": (gemm_persistent, {"a_desc": "tensordesc<fp16[64, 64]>",
                                          "b_desc": "tensordesc<fp16[64, 64]>", "c_ptr": "*fp32",
                                          "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
                                          "BN": "constexpr", "BK": "constexpr",
                                          "PROGRAMS": "constexpr"},
                        {"BM": 64, "BN": 64, "BK": 64, "PROGRAMS": 3}, 4),
    "gemm_bf16_128": (gemm_bf16_128, {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 128, "BN": 128, "BK": 64}, 8),
    "dot_e5m2_f16": (dot_e5m2_f16, {"a_ptr": "*fp8e5", "b_ptr": "*fp8e5", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
    "dot_i8_tail": (dot_i8_tail, {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, 4),
}


def main():
    write_kernels(sys.argv[1], KERNELS, 90, sys.argv[2:], tensor_descriptors)


if __name__ == "__main__":
    main()
