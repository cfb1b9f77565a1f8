"""Compile the Triton kernels of the check corpus to PTX for sm_100a (and sm_103a), without a GPU.

Usage: python gen_triton.py OUT_DIR

Writes OUT_DIR/<name>.ptx and OUT_DIR/<name>.json for each kernel; the JSON records the
kernel's parameters (the MMA kind, M, N and element types the kernel asks for), from which the
corpus test knows what every tcgen05.mma instruction descriptor must say.
"""
import json
import os
import sys

# The shared compile step (triton_ptx.py, beside this file), imported before Triton: it sets
# Triton's environment. The kernels keep their line numbers (their PTX's debug lines).
from triton_ptx import compile_ptx  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

COMPILER = f"triton {triton.__version__}"  # what each kernel's parameters name as compiler


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


@triton.jit
def dot_i8_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # int8 x int8 -> int32 (`.kind::i8`): the accumulator is int32, so a kernel of its own.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def dot_ws_kernel(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    # A warp-specialised K loop: tensor-map loads (host TensorDescriptor arguments) in a
    # producer partition, the MMAs in another, the epilogue in the default warps.
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
def dot_persistent_kernel(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                          BK: tl.constexpr, PROGRAMS: tl.constexpr):
    # A persistent GEMM: PROGRAMS CTAs walk the output tiles (fewer CTAs than tiles).
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
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, N_CTX, BM: tl.constexpr, BN: tl.constexpr,
                     D: tl.constexpr):
    # Attention with two dots: S = Q K^T (f16 in, f32 out), an online softmax in base 2
    # (tl.math.exp2: ex2.approx.ftz.f32), P converted to f16, O += P V; O / l at the end.
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, N_CTX, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k_ptr + rn[None, :] * D + rd[:, None])
        s = tl.dot(q, kt)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc)


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
# (type, BM, BN, BK): pipeline stages where Triton's default (3) would not fit a CTA.
STAGES = {("tf32", 128, 256, 64): 2}
SCALED = {
    # name: (format, elements per byte, kind, a/b type)
    "mxfp8": ("e4m3", 1, "mxf8f6f4", "e4m3"),
    "mxfp4": ("e2m1", 2, "mxf4", "e2m1"),
}
SCALED_TILES = [(128, 128, 128, 4), (128, 256, 128, 8)]


@triton.jit
def dot_scaled_nvfp4_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, K, BM: tl.constexpr,
                            BN: tl.constexpr, BK: tl.constexpr):
    # NVFP4: E2M1 pairs in bytes, one scale per 16 elements of K (tl.dot_scaled picks the
    # block from the scale tensor's shape).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rka = tl.arange(0, BK // 2)
    rks = tl.arange(0, BK // 16)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * (K // 2) + (k // 2 + rka)[None, :])
        b = tl.load(b_ptr + (k // 2 + rka)[:, None] * BN + rn[None, :])
        sa = tl.load(sa_ptr + rm[:, None] * (K // 16) + (k // 16 + rks)[None, :])
        sb = tl.load(sb_ptr + rn[:, None] * (K // 16) + (k // 16 + rks)[None, :])
        acc = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


# NVFP4 kernels: name: (scale pointer type, target arch, scale type, expected errors). With
# uint8 scales Triton 3.9.0 writes scale-format code 2 in idesc bits 23-24 (UE5M3 from PTX ISA
# 9.4, on the sm_107 family), where Table 44 of sm_100a reserves bit 24: that error is expected,
# and its message must name UE5M3.
NVFP4 = {
    "nvfp4_e4m3scales": ("fp8e4nv", 100, "ue4m3", []),
    "nvfp4_e4m3scales_sm103a": ("fp8e4nv", 103, "ue4m3", []),
    "nvfp4_u8scales": ("u8", 100, None, [{"rule": "idesc.reserved_bit", "field": "bit 24",
                                          "says": "2 is UE5M3"}]),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (ty, kind, abtype, prec) in DENSE.items():
        for bm, bn, bk, warps in TILES:
            stem = f"triton_dot_{name}_{bm}x{bn}x{bk}_w{warps}"
            sig = {"a_ptr": f"*{ty}", "b_ptr": f"*{ty}", "c_ptr": "*fp32", "K": "i32",
                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "PRECISION": "constexpr"}
            # Triton's default of 3 pipeline stages would give the tf32 128x256 tile 294,928
            # bytes of shared memory, more than a CTA may have (227 KiB): 2 stages fit.
            stages = STAGES.get((name, bm, bn, bk))
            ptx = compile_ptx(dot_kernel, sig, {"BM": bm, "BN": bn, "BK": bk, "PRECISION": prec}, warps,
                              100, stages)
            params = {"compiler": COMPILER, "op": "tl.dot", "kind": kind, "m": bm, "n": bn,
                      "a_type": abtype, "b_type": abtype, "d_type": "f32", "warps": warps}
            if stages:
                params["stages"] = stages
            write(out, stem, ptx, params)
    for name, (fmt, pack, kind, abtype) in SCALED.items():
        for bm, bn, bk, warps in SCALED_TILES:
            stem = f"triton_dot_scaled_{name}_{bm}x{bn}x{bk}_w{warps}"
            sig = {"a_ptr": "*u8", "b_ptr": "*u8", "sa_ptr": "*u8", "sb_ptr": "*u8", "c_ptr": "*fp32",
                   "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
                   "FMT": "constexpr", "PACK": "constexpr"}
            ptx = compile_ptx(dot_scaled_kernel, sig,
                              {"BM": bm, "BN": bn, "BK": bk, "FMT": fmt, "PACK": pack}, warps, 100)
            write(out, stem, ptx, {"compiler": COMPILER, "op": "tl.dot_scaled",
                                   "kind": kind, "m": bm, "n": bn, "a_type": abtype,
                                   "b_type": abtype, "d_type": "f32", "warps": warps})
    bm, bn, bk, warps = 128, 128, 64, 4
    sig = {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "K": "i32", "BM": "constexpr",
           "BN": "constexpr", "BK": "constexpr"}
    ptx = compile_ptx(dot_i8_kernel, sig, {"BM": bm, "BN": bn, "BK": bk}, warps)
    write(out, f"triton_dot_i8_{bm}x{bn}x{bk}_w{warps}", ptx,
          {"compiler": f"triton {triton.__version__}", "op": "tl.dot", "kind": "i8", "m": bm,
           "n": bn, "a_type": "s8", "b_type": "s8", "d_type": "s32", "warps": warps})
    # Schedules (f16 in, f32 out, tensor-map loads): warp-specialised, and persistent with 3
    # programs. Triton's launcher encodes both maps with 128B swizzle (tensordesc_meta swizzle 3).
    bm, bn, bk, warps = 128, 64, 64, 4
    for sched, fn, extra in (("ws", dot_ws_kernel, {}),
                             ("persistent", dot_persistent_kernel, {"PROGRAMS": 3})):
        sig = {"a_desc": f"tensordesc<fp16[{bm}, {bk}]>", "b_desc": f"tensordesc<fp16[{bk}, {bn}]>",
               "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "BM": "constexpr",
               "BN": "constexpr", "BK": "constexpr", **{p: "constexpr" for p in extra}}
        ptx = compile_ptx(fn, sig, {"BM": bm, "BN": bn, "BK": bk, **extra}, warps)
        write(out, f"triton_dot_f16_{sched}_{bm}x{bn}x{bk}_w{warps}", ptx,
              {"compiler": f"triton {triton.__version__}", "op": "tl.dot", "kind": "f16",
               "m": bm, "n": bn, "a_type": "f16", "b_type": "f16", "d_type": "f32",
               "warps": warps, "schedule": sched, **({"programs": 3} if extra else {})})

    # Attention (two dots, both .kind::f16 with N = 64: S = Q K^T from shared memory, O += P V
    # with P from Tensor Memory).
    bm, bn, d, warps = 128, 64, 64, 4
    sig = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32", "N_CTX": "i32",
           "BM": "constexpr", "BN": "constexpr", "D": "constexpr"}
    ptx = compile_ptx(attention_kernel, sig, {"BM": bm, "BN": bn, "D": d}, warps)
    write(out, f"triton_dot_f16_attention_{bm}x{bn}x{d}_w{warps}", ptx,
          {"compiler": f"triton {triton.__version__}", "op": "tl.dot", "kind": "f16", "m": bm,
           "n": d, "a_type": "f16", "b_type": "f16", "d_type": "f32", "warps": warps,
           "schedule": "attention"})

    for name, (sty, arch, st, expected) in NVFP4.items():
        bm, bn, bk, warps = 128, 128, 128, 4
        stem = f"triton_dot_scaled_{name}_{bm}x{bn}x{bk}_w{warps}"
        sig = {"a_ptr": "*u8", "b_ptr": "*u8", "sa_ptr": f"*{sty}", "sb_ptr": f"*{sty}",
               "c_ptr": "*fp32", "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
        ptx = compile_ptx(dot_scaled_nvfp4_kernel, sig, {"BM": bm, "BN": bn, "BK": bk}, warps, arch)
        params = {"compiler": COMPILER, "op": "tl.dot_scaled",
                  "kind": "mxf4nvf4", "m": bm, "n": bn, "a_type": "e2m1", "b_type": "e2m1",
                  "d_type": "f32", "warps": warps, "target": f"sm_{arch}a"}
        if st:
            params["scale_type"] = st
        if expected:
            params["expected_errors"] = expected
        write(out, stem, ptx, params)


def write(out, stem, ptx, params):
    with open(os.path.join(out, stem + ".ptx"), "w") as f:
        f.write(ptx)
    with open(os.path.join(out, stem + ".json"), "w") as f:
        json.dump(params, f, indent=1, sort_keys=True)
        f.write("\n")
    print(stem, file=sys.stderr)


if __name__ == "__main__":
    main()
