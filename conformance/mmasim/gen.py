"""Runs MMA-Sim 2.1.1 on seeded uniform random bit patterns for every tcgen05.mma kind and type
pair and every wgmma form, and writes D of each vector (the Rust test
crates/tcgen05/tests/numerics_mmasim.rs regenerates the inputs from the same seeds and compares).

Inputs: for form F (its name below), vector v, word j of W words per vector
[a_0..a_{K-1}, b_0..b_{K-1}, c, sfa_0.., sfb_0..], the random word is splitmix64 output number
v*W + j + 1 of the stream seeded with fnv1a64(F); the code is its top `width` bits (width of the
element format; 7 for ue4m3, whose bit 7 must be zero). fp6/fp4 codes go to MMA-Sim in their
f8f6f4 byte containers, mxf4 codes two per byte (MMA-Sim reads the high nibble first).

Usage: python gen.py OUT.txt.gz COUNT     (one line per form: NAME<TAB>hex D codes)
       python gen.py --time                (MMA-Sim's time for one 128x256x16 bf16 and one
                                            128x256x64 mxf4nvf4 MMA)
"""
import gzip
import sys
import time

import numpy as np
import torch
from mmasim.nv_ptx import sim

F864 = ["e5m2", "e4m3", "e3m2", "e2m3", "e2m1"]
WIDTH = {"f32": 32, "tf32": 32, "f16": 16, "bf16": 16, "e4m3": 8, "e5m2": 8, "e3m2": 6,
         "e2m3": 6, "e2m1": 4, "ue8m0": 8, "ue4m3": 7}
CONTAINER_SHIFT = {"e3m2": 0, "e2m3": 0, "e2m1": 2}


def forms():
    """(name, instruction, kind, K, a, b, d, scale, block); names match the Rust test."""
    out = []
    wg = [("tf32", 8, "tf32", "tf32", "f32"), ("f16", 16, "f16", "f16", "f32"),
          ("f16", 16, "bf16", "bf16", "f32"), ("f16", 16, "f16", "f16", "f16")]
    wg += [("f8f6f4", 32, a, b, d) for d in ["f32", "f16"] for a in ["e5m2", "e4m3"]
           for b in ["e5m2", "e4m3"]]
    for kind, k, a, b, d in wg:
        out.append((f"wgmma.m64n8k{k}.{d}.{a}.{b}", "wgmma", kind, k, a, b, d, None, None))
    tc = [("tf32", 8, "tf32", "tf32", "f32"), ("f16", 16, "f16", "f16", "f32"),
          ("f16", 16, "bf16", "bf16", "f32"), ("f16", 16, "f16", "f16", "f16")]
    tc += [("f8f6f4", 32, a, b, d) for d in ["f32", "f16"] for a in F864 for b in F864]
    for kind, k, a, b, d in tc:
        out.append((f"tcgen05.m128n8k{k}.kind::{kind}.{d}.{a}.{b}", "tcgen05", kind, k, a, b, d,
                    None, None))
    bs = [("mxf8f6f4", 32, a, b, "ue8m0", 32) for a in F864 for b in F864]
    bs += [("mxf4", 64, "e2m1", "e2m1", "ue8m0", 32), ("mxf4nvf4", 64, "e2m1", "e2m1", "ue8m0", 32),
           ("mxf4nvf4", 64, "e2m1", "e2m1", "ue8m0", 16), ("mxf4nvf4", 64, "e2m1", "e2m1", "ue4m3", 16)]
    for kind, k, a, b, s, blk in bs:
        out.append((f"tcgen05.m128n8k{k}.kind::{kind}.block{blk}.f32.{a}.{b}.{s}", "tcgen05bs",
                    kind, k, a, b, "f32", s, blk))
    return out


def fnv1a64(s):
    h = 0xCBF29CE484222325
    for ch in s.encode():
        h = ((h ^ ch) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def splitmix(seed, n):
    """Outputs 1..n of the splitmix64 stream seeded with `seed` (numpy uint64, wrapping)."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def tensor(codes, fmt):
    """codes (numpy uint64) -> the torch tensor MMA-Sim reads for format fmt."""
    if fmt in ("f32", "tf32"):
        return torch.from_numpy(codes.astype(np.uint32).view(np.float32).copy())
    if fmt == "f16":
        return torch.from_numpy(codes.astype(np.uint16).view(np.float16).copy())
    if fmt == "bf16":
        return torch.from_numpy(codes.astype(np.uint16).view(np.int16).copy()).view(torch.bfloat16)
    u8 = torch.from_numpy(codes.astype(np.uint8).copy())
    if fmt == "e4m3" or fmt == "ue4m3":
        return u8.view(torch.float8_e4m3fn)
    if fmt == "e5m2":
        return u8.view(torch.float8_e5m2)
    if fmt == "ue8m0":
        return u8.view(torch.float8_e8m0fnu)
    return u8  # fp6/fp4 containers, already shifted


def run_form(f, count):
    name, instr, kind, K, a, b, d, s, blk = f
    ns = K // blk if blk else 0
    W = 2 * K + 1 + 2 * ns
    r = splitmix(fnv1a64(name), count * W).reshape(count, W)
    def codes(cols, fmt):
        return r[:, cols] >> np.uint64(64 - WIDTH[fmt])
    ca = codes(slice(0, K), a)
    cb = codes(slice(K, 2 * K), b)
    cc = codes(2 * K, d)
    shape = name.split(".", 1)[1]
    if instr == "wgmma":
        op = sim.WGMMA("Hopper", shape)
    elif instr == "tcgen05":
        op = sim.TCGen05MMA("Blackwell", shape)
    else:
        op = sim.TCGen05MMABlockScale("Blackwell", shape)
    def operand(c, fmt):
        if kind in ("mxf4", "mxf4nvf4"):
            packed = (c[:, 0::2] << np.uint64(4)) | c[:, 1::2]  # element 2i in the high nibble
            return torch.from_numpy(packed.astype(np.uint8))
        if fmt in CONTAINER_SHIFT:
            return tensor(c << np.uint64(CONTAINER_SHIFT[fmt]), fmt)
        return tensor(c, fmt)
    A, B, C = operand(ca, a), operand(cb, b), tensor(cc, d)
    if s:
        sa = tensor(codes(slice(2 * K + 1, 2 * K + 1 + ns), s), s)
        sb = tensor(codes(slice(2 * K + 1 + ns, W), s), s)
        D = op.dpa(A, B, C, sa, sb)
    else:
        D = op.dpa(A, B, C)
    if d == "f16":
        return [int(x) & 0xFFFF for x in D.view(torch.int16).tolist()]
    return [int(x) & 0xFFFFFFFF for x in D.view(torch.int32).tolist()]


def timing():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    bf = sim.TCGen05MMA("Blackwell", "m128n256k16.kind::f16.f32.bf16.bf16")
    A = torch.randn(128, 16, generator=g).to(torch.bfloat16)
    B = torch.randn(16, 256, generator=g).to(torch.bfloat16)
    C = torch.randn(128, 256, generator=g)
    nv = sim.TCGen05MMABlockScale("Blackwell", "m128n256k64.kind::mxf4nvf4.block16.f32.e2m1.e2m1.ue4m3")
    A4 = torch.randint(0, 256, (128, 32), dtype=torch.uint8, generator=g)
    B4 = torch.randint(0, 256, (256, 32), dtype=torch.uint8, generator=g).T
    sa = torch.randint(0, 0x7F, (128, 4), dtype=torch.uint8, generator=g).view(torch.float8_e4m3fn)
    sb = torch.randint(0, 0x7F, (256, 4), dtype=torch.uint8, generator=g).view(torch.float8_e4m3fn).T
    for label, fn in [("128x256x16 bf16 (tcgen05.mma kind::f16)", lambda: bf(A, B, C)),
                      ("128x256x64 mxf4nvf4 block16 ue4m3", lambda: nv(A4, B4, C, sa, sb))]:
        fn()
        reps = 20
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        dt = (time.perf_counter() - t0) / reps
        print(f"MMA-Sim 2.1.1 {label}: {dt * 1e3:.2f} ms per MMA (mean of {reps}, torch {torch.__version__}, {torch.get_num_threads()} threads)")


def main():
    if sys.argv[1:] == ["--time"]:
        timing()
        return
    out, count = sys.argv[1], int(sys.argv[2])
    fs = forms()
    with gzip.open(out, "wt") as fh:
        for f in fs:
            t0 = time.perf_counter()
            d = run_form(f, count)
            width = 4 if f[6] == "f16" else 8
            fh.write(f[0] + "\t" + "".join(f"{x:0{width}x}" for x in d) + "\n")
            print(f"{f[0]}: {count} vectors, {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    print(f"{len(fs)} forms x {count} vectors", file=sys.stderr)


if __name__ == "__main__":
    main()
