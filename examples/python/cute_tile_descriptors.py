"""Build the descriptors of one CuTe-DSL-style GEMM tile in Python and check them.

The tile: D[128x256] (f32) += A[128x64] * B[256x64] (bf16), both operands K-major in shared
memory with 128-Byte swizzling, one `tcgen05.mma.cta_group::1.kind::f16` per 16-element K block
(Table 39: M = 128, N = 256, K = 16). This is what a CuTe DSL kernel computes from its smem
layouts; here every number is written by hand, as a kernel author would, and then checked:

1. the shape is one of Table 39's (tcgen05.shapes);
2. the instruction descriptor and every K-block's shared memory descriptors encode without a
   problem (the core's rules, PTX ISA 9.7.16.4.1-2), and decode back to the same fields;
3. the A descriptors equal the ones CUTLASS 4.2.0 writes for this layout (the committed vectors
   of conformance/vectors/, generated from CUTLASS's own headers);
4. `tcgen05.TileLayout` builds the same descriptors from intent (type, major-ness, swizzle, tile);
5. the K loop as PTX (`tcgen05.ptx.mma` with immediate descriptors) passes `tcgen05.check_ptx`;
6. the functional model runs that K loop on random bf16 data placed where the layout puts each
   element, and D agrees with an exact float64 product to within f32 accumulation error.

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
LBO = 16  # unused for swizzled K-major operands (rules.md R6); CUTLASS writes 1 (16 bytes)


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

    # 4. The same descriptors from intent.
    tiles = {
        name: tcgen05.TileLayout(element_type="bf16", major="k", swizzle=SWIZZLE, mn=mn, k=K_TILE,
                                 start_address=base)
        for name, mn, base in (("A", M, A_BASE), ("B", N, B_BASE))
    }
    built = [tiles["A"].descriptor(k).bits for k in range(k_blocks)]
    built_b = [tiles["B"].descriptor(k).bits for k in range(k_blocks)]
    same = built == [d.bits for d in a] and built_b == [d.bits for d in b]
    print(f"TileLayout builds the same {2 * k_blocks} descriptors: {same}")
    failures += not same

    # 5. The K loop as PTX lines with immediate operands, checked as a module.
    lines = [
        f"tcgen05.mma.cta_group::1.kind::f16 [0], {a[k].bits:#x}, {b[k].bits:#x}, "
        f"{idesc.bits:#010x}, {1 if k else 0};"
        for k in range(k_blocks)
    ]
    module = tcgen05.ptx.preamble() + ".visible .entry k()\n{\n" + "\n".join(lines) + "\n}\n"
    report = tcgen05.check_ptx(module)
    print(f"check_ptx on the K loop: {len(report.instructions)} instructions, "
          f"{report.errors} errors")
    failures += not (report.ok and len(report.instructions) == k_blocks)

    # 6. Run it: A and B bytes where the layouts put each element, then the four MMAs.
    rng = np.random.default_rng(2026)
    emu = tcgen05.Emulator()
    values = {}
    for name, t in tiles.items():
        x = rng.standard_normal(t.shape).astype(np.float32)
        bf16 = (x.view(np.uint32) >> 16).astype(np.uint16)  # truncate to bf16
        values[name] = (bf16.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        addr = t.addresses()
        image = np.zeros(int(addr.max()) + 2 - int(addr.min()), dtype=np.uint8)
        image.view(np.uint16)[((addr - addr.min()) // 2).ravel()] = bf16.ravel()
        emu.write_smem(int(addr.min()), image)
    emu.run("\n".join(lines))
    d = emu.last_d()
    exact = values["A"] @ values["B"].T
    err = float(np.abs(d - exact).max() / np.abs(exact).max()) if d is not None else 1.0
    print(f"emulated D[{M}x{N}] after {k_blocks} MMAs: largest error {err:.2e} of max |D|")
    failures += not (d is not None and d.shape == (M, N) and err < 1e-5)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
