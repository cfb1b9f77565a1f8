"""Compile a Triton matmul for sm_100a (no GPU needed), pull the instruction descriptors out of
its PTX and print them decoded.

Triton 3.9.0 lowers `tl.dot` on Blackwell to `tcgen05.mma`; the 32-bit instruction descriptor
(PTX ISA 9.7.16.4.2, Tables 42-44) is the MMA's fourth operand, a register that Triton loads
with an immediate shortly before the MMA. `tcgen05.check_ptx` reads the whole module with the
core crate's PTX reader, follows the known bits of every descriptor operand through the
kernel's `mov`/`or`/`shl`/... instructions, and checks every tcgen05 instruction.

Each descriptor is then decoded under the MMA's kind and checked against what the kernel asked
for: M = BLOCK_M, N = BLOCK_N, f16 inputs, f32 accumulator, no problems.

Run: python examples/python/triton_descriptors.py (needs triton==3.9.0; exits non-zero when a
check fails or no tcgen05.mma is found).
"""

from __future__ import annotations

import os
import re
import sys

# Triton 3.9 warns when this is unset; 1 is its current default (FP fusion on).
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
# Triton ships without type information: its names are Any to mypy.
import triton  # type: ignore[import-untyped]
import triton.language as tl  # type: ignore[import-untyped]
from triton.backends.compiler import GPUTarget  # type: ignore[import-untyped]
from triton.compiler import ASTSource  # type: ignore[import-untyped]

import tcgen05

BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64


# Triton reads the kernel's annotations itself and accepts only its own (tl.constexpr).
@triton.jit  # type: ignore[untyped-decorator]
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,  # type: ignore[no-untyped-def]
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def instruction_descriptors(ptx: str) -> list[tuple[int, str, int]]:
    """(line number, kind, idesc) of every tcgen05.mma whose idesc is known at compile time;
    the checker's findings are printed."""
    report = tcgen05.check_ptx(ptx)
    print(f"check_ptx: {len(report.instructions)} tcgen05 instructions, {report.errors} errors, "
          f"{report.warnings} warnings")
    for i in report.instructions:
        for f in i.findings:
            print(f"  line {i.line}: {f.severity}: {f}")
    found = []
    for i in report.instructions:
        if i.instruction.startswith("tcgen05.mma") and i.kind is not None:
            if i.idesc is None:
                print(f"line {i.line}: idesc not known at compile time; skipped")
            else:
                found.append((i.line, i.kind, i.idesc))
    return found


def main() -> int:
    source = ASTSource(
        fn=matmul,
        signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
                   "K": "i32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                   "BLOCK_K": "constexpr"},
        constexprs={"BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N, "BLOCK_K": BLOCK_K},
    )
    kernel = triton.compile(source, target=GPUTarget("cuda", 100, 32))
    ptx: str = kernel.asm["ptx"]
    target = re.search(r"^\.target\s+(\S+)", ptx, re.M)
    print(f"Triton {triton.__version__} compiled matmul for {target.group(1) if target else '?'}:"
          f" {len(ptx.splitlines())} PTX lines")
    found = instruction_descriptors(ptx)
    failures = tcgen05.check_ptx(ptx).errors
    if not found:
        print("no tcgen05.mma with an immediate instruction descriptor found")
        return 1
    for raw in sorted({raw for _, _, raw in found}):
        lines = [n for n, _, r in found if r == raw]
        kinds = {k for _, k, r in found if r == raw}
        for kind in sorted(kinds):
            d = tcgen05.InstructionDescriptor.decode(raw, kind=kind)
            print(f"\nidesc {raw:#010x} on {len(lines)} tcgen05.mma line(s), first at {lines[0]}:")
            print(f"  {d!r}")
            for row in d.rows():
                bits = f"{row.lo}" if row.lo == row.hi else f"{row.lo}-{row.hi}"
                print(f"  {bits:>6}  {row.field:<18} {row.meaning}")
            for p in d.errors + d.warnings:
                print(f"  {p.severity}: {p}")
            ok = (d.valid and (d.m, d.n) == (BLOCK_M, BLOCK_N)
                  and (d.a_type, d.b_type, d.d_type) == ("f16", "f16", "f32"))
            print(f"  matches the kernel (M={BLOCK_M}, N={BLOCK_N}, f16 x f16 -> f32): {ok}")
            failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
