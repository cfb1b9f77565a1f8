"""End-to-end oracle of the functional model (issue: run a tcgen05 MMA on a CPU): MMA-Sim 2.1.1's
whole-instruction simulators TCGen05MMA and TCGen05MMABlockScale on plain A, B, C (and scale)
matrices of seeded random codes, for the configurations below. The Rust test
crates/tcgen05/tests/emulator_mmasim.rs regenerates the same codes, places them in shared memory
through real descriptors (several swizzles and majors) and the scale factors in Tensor Memory,
runs the tcgen05.mma line on the emulator, and compares D bit for bit.

Codes: for configuration NAME the words are outputs 1.. of the splitmix64 stream seeded with
fnv1a64("e2e:" + NAME), in the order A (M x K, row-major), B (N x K, row-major), C (M x N), then
for block-scaled kinds scale_A (M x S) and scale_B (N x S); each code is the top `width` bits of
its word (ue4m3: 7 bits).

Usage: python e2e.py OUT.txt.gz     (one line per configuration: NAME<TAB>hex D codes, row-major)
"""
import gzip
import sys
import time

import numpy as np
import torch
from mmasim.nv_ptx import sim

from gen import WIDTH, CONTAINER_SHIFT, fnv1a64, splitmix, tensor

# (kind, m, n, d, a, b, scale type, block)
CONFIGS = [
    ("f16", 128, 64, "f32", "f16", "f16", None, None),
    ("f16", 64, 32, "f32", "bf16", "bf16", None, None),
    ("f16", 128, 16, "f16", "f16", "f16", None, None),
    ("f16", 64, 256, "f32", "bf16", "bf16", None, None),
    ("tf32", 128, 32, "f32", "tf32", "tf32", None, None),
    ("tf32", 64, 24, "f32", "tf32", "tf32", None, None),
    ("f8f6f4", 128, 32, "f32", "e4m3", "e5m2", None, None),
    ("f8f6f4", 64, 24, "f16", "e2m1", "e3m2", None, None),
    ("f8f6f4", 128, 48, "f32", "e2m3", "e2m1", None, None),
    ("f8f6f4", 128, 16, "f16", "e5m2", "e4m3", None, None),
    ("f8f6f4", 64, 64, "f32", "e3m2", "e2m3", None, None),
    ("mxf8f6f4", 128, 32, "f32", "e4m3", "e2m1", "ue8m0", 32),
    ("mxf8f6f4", 128, 64, "f32", "e2m3", "e5m2", "ue8m0", 32),
    ("mxf4", 128, 32, "f32", "e2m1", "e2m1", "ue8m0", 32),
    ("mxf4nvf4", 128, 64, "f32", "e2m1", "e2m1", "ue8m0", 32),
    ("mxf4nvf4", 128, 32, "f32", "e2m1", "e2m1", "ue8m0", 16),
    ("mxf4nvf4", 128, 256, "f32", "e2m1", "e2m1", "ue4m3", 16),
]
K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "mxf8f6f4": 32, "mxf4": 64, "mxf4nvf4": 64}


def name_of(c):
    kind, m, n, d, a, b, s, blk = c
    k = K[kind]
    if s:
        return f"m{m}n{n}k{k}.kind::{kind}.block{blk}.f32.{a}.{b}.{s}"
    return f"m{m}n{n}k{k}.kind::{kind}.{d}.{a}.{b}"


def run(c):
    kind, m, n, d, a, b, s, blk = c
    k = K[kind]
    name = name_of(c)
    ns = k // blk if blk else 0
    total = m * k + n * k + m * n + (m + n) * ns
    r = splitmix(fnv1a64("e2e:" + name), total)
    pos = 0

    def take(count, fmt):
        nonlocal pos
        v = r[pos:pos + count] >> np.uint64(64 - WIDTH[fmt])
        pos += count
        return v

    ca = take(m * k, a).reshape(m, k)
    cb = take(n * k, b).reshape(n, k)
    cc = take(m * n, d).reshape(m, n)

    def operand(cod, fmt):
        if kind in ("mxf4", "mxf4nvf4"):
            return torch.from_numpy(((cod[:, 0::2] << np.uint64(4)) | cod[:, 1::2]).astype(np.uint8))
        if fmt in CONTAINER_SHIFT:
            return tensor(cod << np.uint64(CONTAINER_SHIFT[fmt]), fmt)
        return tensor(cod, fmt)

    A = operand(ca, a)
    B = operand(cb, b).T
    C = tensor(cc, d)
    if s:
        sa = tensor(take(m * ns, s).reshape(m, ns), s)
        sb = tensor(take(n * ns, s).reshape(n, ns), s).T
        D = sim.TCGen05MMABlockScale("Blackwell", name)(A, B, C, sa, sb)
    else:
        D = sim.TCGen05MMA("Blackwell", name)(A, B, C)
    if d == "f16":
        return [int(x) & 0xFFFF for x in D.contiguous().view(torch.int16).flatten().tolist()]
    return [int(x) & 0xFFFFFFFF for x in D.contiguous().view(torch.int32).flatten().tolist()]


def main():
    out = sys.argv[1]
    with gzip.open(out, "wt") as fh:
        for c in CONFIGS:
            t0 = time.perf_counter()
            d = run(c)
            width = 4 if c[3] == "f16" else 8
            fh.write(name_of(c) + "\t" + "".join(f"{x:0{width}x}" for x in d) + "\n")
            print(f"{name_of(c)}: {len(d)} D values, {time.perf_counter() - t0:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
