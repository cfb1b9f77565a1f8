"""Throughput of the NumPy batch paths (tcgen05.decode_idesc, tcgen05.decode_smem), in values per
second, against the scalar path (InstructionDescriptor.decode in a Python loop) measured in the
same run as the baseline.

    python crates/tcgen05-py/perf/batch_throughput.py [COUNT]      (default 4,000,000)

Inputs (fixed seed): random 32-bit values (almost never valid: every value gets its full list of
problems) and the CUTLASS 4.2.0 instruction descriptors of conformance/vectors/ repeated to
COUNT (all valid); random 64-bit shared memory descriptors. Each case is timed five times and the
best wall time kept; the time includes the array check, the copy into the native call and the
structured array's creation. Prints one line per case and the machine's CPU count.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

import tcgen05


def best(fn: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    rng = np.random.default_rng(14)
    random32 = rng.integers(0, 2**32, size=count, dtype=np.uint64).astype(np.uint32)
    random64 = rng.integers(0, 2**63, size=count, dtype=np.uint64) * 2 + 1
    vectors = Path(__file__).resolve().parents[3] / "conformance/vectors/cutlass-4.2.0.jsonl"
    with vectors.open() as f:
        f16 = [
            int(r["hex"], 16)
            for r in map(json.loads, f)
            if r.get("desc") == "idesc" and r["kind"] == "f16"
        ]
    cutlass = np.resize(np.array(f16, dtype=np.uint32), count)
    cpus = os.cpu_count()
    print(f"tcgen05 {tcgen05.__version__}, {count:,} values per case, {cpus} CPUs, best of 5")

    scalar_n = 200_000
    values = random32[:scalar_n].tolist()
    dt = best(lambda: [tcgen05.InstructionDescriptor.decode(v, kind="f16") for v in values], 3)
    scalar = scalar_n / dt
    print(f"{'scalar InstructionDescriptor.decode, random32':52} {scalar / 1e6:8.2f} M values/s")

    cases: list[tuple[str, Callable[[], Any]]] = []
    for threads in (1, None):
        label = "1 thread" if threads == 1 else f"{cpus} threads"
        cases += [
            (f"decode_idesc f16, random32, {label}",
             lambda t=threads: tcgen05.decode_idesc(random32, "f16", threads=t)),
            (f"decode_idesc f16, CUTLASS values, {label}",
             lambda t=threads: tcgen05.decode_idesc(cutlass, "f16", threads=t)),
            (f"decode_smem sm_100a, random64, {label}",
             lambda t=threads: tcgen05.decode_smem(random64, "sm_100a", threads=t)),
        ]
    for label, fn in cases:
        rate = count / best(fn)
        print(f"{label:52} {rate / 1e6:8.2f} M values/s  ({rate / scalar:5.1f}x scalar)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
