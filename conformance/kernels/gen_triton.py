"""Compile the Triton kernels of the check corpus to PTX for sm_100a, without a GPU.

Usage: python gen_triton.py OUT_DIR

Writes OUT_DIR/<name>.ptx and OUT_DIR/<name>.json for each kernel; the JSON records the
kernel's parameters (the MMA kind, M, N and element types the kernel asks for), from which the
corpus test knows what every tcgen05.mma instruction descriptor must say.
"""
import json
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
def dot_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def dot_scaled_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, FMT: tl.constexpr, PACK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rka = tl.arange(0, BK // PACK)
    rks = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * (K // PACK) + (k // PACK + rka)[None, :])
        b = tl.load(b_ptr + (k // PACK + rka)[:, None] * BN + rn[None, :])
        sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + (k // 32 + rks)[None, :])
        sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + (k // 32 + rks)[None, :])
        acc = tl.dot_scaled(a, sa, FMT, b, sb, FMT, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# name: (element type, pointer type, kind, a/b type name, precision)
DENSE = {
    "f16": ("fp16", "f16", "f16", "ieee"),
    "bf16": ("bf16", "f16", "bf16", "ieee"),
    "tf32": ("fp32", "tf32", "tf32", "tf32"),
    "e4m3": ("fp8e4nv", "f8f6f4", "e4m3", "ieee"),
    "e5m2": ("fp8e5", "f8f6f4", "e5m2", "ieee"),
}
# dense tiles (BM, BN, BK, warps)
TILES = [(128, 128, 64, 4), (128, 64, 64, 4), (128, 256, 64, 8), (64, 128, 64, 4)]
SCALED = {
    # name: (format, elements per byte, kind, a/b type)
    "mxfp8": ("e4m3", 1, "mxf8f6f4", "e4m3"),
    "mxfp4": ("e2m1", 2, "mxf4", "e2m1"),
}
SCALED_TILES = [(128, 128, 128, 4), (128, 256, 128, 8)]


def compile_ptx(fn, signature, constexprs, warps):
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs)
    k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": warps})
    return k.asm["ptx"]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (ty, kind, abtype, prec) in DENSE.items():
        for bm, bn, bk, warps in TILES:
            stem = f"triton_dot_{name}_{bm}x{bn}x{bk}_w{warps}"
            sig = {"a_ptr": f"*{ty}", "b_ptr": f"*{ty}", "c_ptr": "*fp32", "K": "i32",
                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "PRECISION": "constexpr"}
            ptx = compile_ptx(dot_kernel, sig, {"BM": bm, "BN": bn, "BK": bk, "PRECISION": prec}, warps)
            write(out, stem, ptx, {"compiler": f"triton {triton.__version__}", "op": "tl.dot",
                                   "kind": kind, "m": bm, "n": bn, "a_type": abtype,
                                   "b_type": abtype, "d_type": "f32", "warps": warps})
    for name, (fmt, pack, kind, abtype) in SCALED.items():
        for bm, bn, bk, warps in SCALED_TILES:
            stem = f"triton_dot_scaled_{name}_{bm}x{bn}x{bk}_w{warps}"
            sig = {"a_ptr": "*u8", "b_ptr": "*u8", "sa_ptr": "*u8", "sb_ptr": "*u8", "c_ptr": "*fp32",
                   "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                   "FMT": "constexpr", "PACK": "constexpr"}
            ptx = compile_ptx(dot_scaled_kernel, sig,
                              {"BM": bm, "BN": bn, "BK": bk, "FMT": fmt, "PACK": pack}, warps)
            write(out, stem, ptx, {"compiler": f"triton {triton.__version__}", "op": "tl.dot_scaled",
                                   "kind": kind, "m": bm, "n": bn, "a_type": abtype,
                                   "b_type": abtype, "d_type": "f32", "warps": warps})


def write(out, stem, ptx, params):
    with open(os.path.join(out, stem + ".ptx"), "w") as f:
        f.write(ptx)
    with open(os.path.join(out, stem + ".json"), "w") as f:
        json.dump(params, f, indent=1, sort_keys=True)
        f.write("\n")
    print(stem, file=sys.stderr)


if __name__ == "__main__":
    main()
