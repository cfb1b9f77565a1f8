"""Run a Triton kernel on the CPU: Triton's vector-add tutorial kernel, compiled by Triton 3.9.0
for sm_100a (no GPU needed) and run by the tcgen05-run interpreter, NumPy arrays in place of
torch tensors. The one change from the GPU version is the launch line.

Run: python examples/python/triton_run.py (needs triton==3.9.0 and numpy; exits non-zero when
the result differs from NumPy's x + y, which is exact: one IEEE rounding per element).
"""

from __future__ import annotations

import sys
import time

import numpy as np

# Triton ships without type information: its names are Any to mypy.
import triton  # type: ignore[import-untyped]
import triton.language as tl  # type: ignore[import-untyped]

import tcgen05.triton


# Triton reads the kernel's annotations itself and accepts only its own (tl.constexpr).
@triton.jit  # type: ignore[untyped-decorator]
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):  # type: ignore[no-untyped-def]
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def main() -> int:
    rng = np.random.default_rng(0)
    size = 98432
    x = rng.random(size, dtype=np.float32)
    y = rng.random(size, dtype=np.float32)
    output = np.empty_like(x)
    n_elements = output.size
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    start = time.perf_counter()
    # add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)  # on a GPU, torch tensors
    r = tcgen05.triton.run(add_kernel, grid, x, y, output, n_elements, BLOCK_SIZE=1024)
    seconds = time.perf_counter() - start
    print(output[:4], "...")
    print(f"max |output - (x + y)| = {np.max(np.abs(output - (x + y)))}")
    s = r.stats
    print(f"{r.name} for sm_100a: {r.grid[0]} CTAs of {r.block[0]} threads, "
          f"{s.warp_instructions} warp-instructions, {s.bytes_moved} bytes moved; "
          f"{seconds:.2f} s with the compilation ({s.seconds:.2f} s run)")
    return 0 if output.tobytes() == (x + y).tobytes() else 1


if __name__ == "__main__":
    sys.exit(main())
