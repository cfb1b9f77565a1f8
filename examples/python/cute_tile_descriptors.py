"""Build the descriptors of one CuTe-DSL-style GEMM tile in Python and check them.

The tile: D[128x256] (f32) += A[128x64] * B[256x64] (bf16), both operands K-major in shared
memory with 128-Byte swizzling, one `tcgen05.mma.cta_group::1.kind::f16` per 16-element K block
(Table 39: M = 128, N = 256, K = 16). This is what a CuTe DSL kernel computes from its smem
layouts; here every number is written by hand, as a kernel author would, and then checked:

1. the shape is one of Table 39's (tcgen05.shapes);
2. the instruction descriptor and every K-block's shared memory descriptors encode without a
   problem (the core's rules, PTX ISA 9.7.16.4.1-2), and decode back to the same fields;
3. the A descriptors equal the ones CUTLASS 4.2.0 writes for this layout (the committed vectors
   of conformance/vectors/, generated from CUTLASS's own headers).

Run: python examples/python/cute_tile_descriptors.py (exits non-zero when a check fails).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

import tcgen05

M, N, K_TILE, K_MMA = 128, 256, 64, 16
ELEM_BYTES = 2  # bf16
A_BASE, B_BASE = 0x0, 0x4000  # byte addresses of the A and B tiles in shared memory

# CuTe's K-major SW128 atom for 16-bit types: 8 rows of 128 bytes (64 elements), swizzled.
SWIZZLE = "128B"
ROW_BYTES = 128
SBO = 8 * ROW_BYTES  # stride between 8-row core-matrix groups along M/N
LBO = 16  # unused for swizzled K-major operands (decisions.md R6); CUTLASS writes 1 (16 bytes)


def smem_desc(base: int, k_block: int) -> tcgen05.SmemDescriptor:
    return tcgen05.SmemDescriptor(
        start_address=base + k_block * K_MMA * ELEM_BYTES,
        leading_byte_offset=LBO,
        stride_byte_offset=SBO,
        swizzle=SWIZZLE,
    )


def main() -> int:
    failures = 0
    shape_ok = any(
        (s.m, s.n, s.k) == (M, N, K_MMA)
        for s in tcgen05.shapes(kind="f16", cta_group=1, ws=False, sparse=False)
    )
    print(f"Table 39 lists kind::f16 M={M} N={N} K={K_MMA}: {shape_ok}")
    failures += not shape_ok

    idesc = tcgen05.InstructionDescriptor(
        kind="f16", d_type="f32", a_type="bf16", b_type="bf16", m=M, n=N
    )
    print(f"idesc  {idesc.bits:#010x}  {idesc!r}")

    k_blocks = K_TILE // K_MMA
    a = [smem_desc(A_BASE, k) for k in range(k_blocks)]
    b = [smem_desc(B_BASE, k) for k in range(k_blocks)]
    for k in range(k_blocks):
        print(f"k={k}  a-desc {a[k].bits:#018x}  b-desc {b[k].bits:#018x}")

    # Decode them all at once (the NumPy batch path) and check every field came back.
    raws = np.array([d.bits for d in a + b], dtype=np.uint64)
    rec = tcgen05.decode_smem(raws)
    starts = [A_BASE + k * K_MMA * ELEM_BYTES for k in range(k_blocks)]
    starts += [B_BASE + k * K_MMA * ELEM_BYTES for k in range(k_blocks)]
    ok = (
        bool(rec["valid"].all())
        and rec["start_address"].tolist() == starts
        and set(rec["stride_byte_offset"].tolist()) == {SBO}
        and {tcgen05.SWIZZLES[i] for i in rec["swizzle"].tolist()} == {SWIZZLE}
    )
    print(f"all {len(raws)} shared memory descriptors valid and decode to their fields: {ok}")
    failures += not ok

    # CUTLASS's bits for the same A layout (bf16, K-major, 128B, 128x64 tile at 0x0).
    vectors = Path(__file__).resolve().parents[2] / "conformance/vectors/cutlass-4.2.0.jsonl"
    cutlass: dict[int, int] = {}
    with vectors.open() as f:
        for line in f:
            r = json.loads(line)
            if (
                r.get("desc") == "smem" and r["type"] == "bf16" and r["major"] == "k"
                and r["swizzle"] == SWIZZLE and r["tile"] == [M, K_TILE] and r["start"] == "0x0"
                and r["order"] == "mn_first"
            ):
                cutlass[r["k_block"]] = int(r["hex"], 16)
    same = len(cutlass) == k_blocks and all(cutlass[k] == a[k].bits for k in range(k_blocks))
    print(f"A descriptors equal CUTLASS 4.2.0's ({len(cutlass)} K blocks): {same}")
    failures += not same
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
