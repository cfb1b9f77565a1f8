"""Corner vectors for the parameters that uniform random bit patterns never reach: the exponent
for zero (e_zero) of the Blackwell rows whose outputs depend on it only when every non-zero term
lies below it, and the subnormal boundary of Hopper's FP8 output rounding (RZ to 13 fraction
bits, emin -126). MMA-Sim 2.1.1 computes D once; the inputs and D are committed in
conformance/mmasim/corners-mmasim-2.1.1.txt, which crates/tcgen05/tests/numerics_corners.rs
checks the model against (and shows that every neighbouring e_zero fails on them).

Families, per form (F = the alignment width of the form, e_zero its exponent for zero):
  zero       every product zero (+0 or -0 codes), C zero, subnormal or tiny;
  below      C zero, every non-zero product below 2^e_zero (some products zero);
  pair       C zero, one product 2^E1 below e_zero and one of opposite sign 2^(e_zero - F + s),
             s = -10..10: it survives the truncation to 2^(e_zero - F) or not, one binade apart;
  tie        (f16 D) one product an odd multiple of half the f16 quantum and one of opposite
             sign 2^(e_zero - F + s): whether it survives the truncation decides the rounding;
  large      one product near or above 2^e_zero and many tiny ones 20..40 binades below it.
Inputs are drawn from Python's random.Random seeded with the form's name: deterministic.

Usage: python corners.py OUT.txt     one line per vector:
       NAME a=HEX,... b=HEX,... c=HEX sfa=HEX,... sfb=HEX,... d=HEX
"""
import random
import sys

import numpy as np
import torch
from mmasim.nv_ptx import sim

from gen import CONTAINER_SHIFT, tensor

# name, instruction, K, a, b, d, scale, block, e_zero, F
FORMS = [
    ("tcgen05.m128n8k8.kind::tf32.f32.tf32.tf32", "tcgen05", 8, "tf32", "tf32", "f32", None, None, -133, 25),
    ("tcgen05.m128n8k16.kind::f16.f32.bf16.bf16", "tcgen05", 16, "bf16", "bf16", "f32", None, None, -133, 25),
    ("tcgen05.m128n8k16.kind::f16.f32.f16.f16", "tcgen05", 16, "f16", "f16", "f32", None, None, -133, 25),
    ("tcgen05.m128n8k16.kind::f16.f16.f16.f16", "tcgen05", 16, "f16", "f16", "f16", None, None, -21, 25),
    ("tcgen05.m128n8k32.kind::f8f6f4.f32.e4m3.e4m3", "tcgen05", 32, "e4m3", "e4m3", "f32", None, None, -133, 25),
    ("tcgen05.m128n8k32.kind::f8f6f4.f32.e5m2.e2m1", "tcgen05", 32, "e5m2", "e2m1", "f32", None, None, -133, 25),
    ("tcgen05.m128n8k64.kind::mxf4.block32.f32.e2m1.e2m1.ue8m0", "tcgen05bs", 64, "e2m1", "e2m1", "f32", "ue8m0", 32, -139, 35),
    ("wgmma.m64n8k32.f32.e4m3.e4m3", "wgmma", 32, "e4m3", "e4m3", "f32", None, None, -133, 13),
]

# (exponent bits, fraction bits, bias) of each floating-point element format
FMT = {"f32": (8, 23, 127), "tf32": (8, 23, 127), "bf16": (8, 7, 127), "f16": (5, 10, 15),
       "e4m3": (4, 3, 7), "e5m2": (5, 2, 15), "e2m1": (2, 1, 1)}
# fraction bits a tf32 code really carries (the low 13 bits of its 32-bit container are zero here)
USED_FRAC = {"tf32": 10}
PER_VECTOR = 96


def emin(fmt):
    return 1 - FMT[fmt][2]


def code(fmt, neg, e, frac):
    """The code of (-1)^neg * 2^e * (1 + frac / 2^p) (normal) or of 2^emin * frac / 2^p when
    e < emin (subnormal, frac then the raw fraction field); p = the used fraction bits."""
    eb, fb, bias = FMT[fmt]
    p = USED_FRAC.get(fmt, fb)
    shift = fb - p
    if e < emin(fmt):
        field = 0
    else:
        field = e + bias
        assert field < (1 << eb) - 1 or fmt == "e4m3", (fmt, e)
    frac &= (1 << p) - 1
    return (int(neg) << (eb + fb)) | (field << fb) | (frac << shift)


def pow2(fmt, e, neg=False):
    """The code of +-2^e, normal or subnormal; None when the format cannot hold it."""
    eb, fb, bias = FMT[fmt]
    p = USED_FRAC.get(fmt, fb)
    lo = emin(fmt)
    if e >= lo:
        if e + bias >= (1 << eb) - 1 and fmt != "e4m3":
            return None
        return code(fmt, neg, e, 0)
    if e < lo - p:
        return None
    return code(fmt, neg, e, 1 << (p - (lo - e)))


def zero(fmt, rng):
    eb, fb, _ = FMT[fmt]
    return (rng.randrange(2) << (eb + fb))


def rand_val(fmt, rng, e):
    """A random-fraction value with exponent e (clamped to the format's normal range)."""
    p = USED_FRAC.get(fmt, FMT[fmt][1])
    return code(fmt, rng.randrange(2), e, rng.randrange(1 << p))


def product(fmt_a, fmt_b, rng, e):
    """(a, b) codes whose product has exponent about e (each factor normal where possible)."""
    lo_a, lo_b = emin(fmt_a), emin(fmt_b)
    hi_a, hi_b = (1 << FMT[fmt_a][0]) - 2 - FMT[fmt_a][2], (1 << FMT[fmt_b][0]) - 2 - FMT[fmt_b][2]
    ea = max(lo_a, min(hi_a, e - rng.randint(lo_b, hi_b)))
    eb = max(lo_b, min(hi_b, e - ea))
    return rand_val(fmt_a, rng, ea), rand_val(fmt_b, rng, eb)


def pow2_product(fmt_a, fmt_b, e, neg):
    """(a, b) codes, powers of two, whose product is exactly +-2^e; None if unreachable."""
    for ea in range(emin(fmt_a) - 24, 130):
        a = pow2(fmt_a, ea, neg)
        b = pow2(fmt_b, e - ea)
        if a is not None and b is not None:
            return a, b
    return None


def c_code(d, rng):
    """C: zero, a subnormal, the smallest normals, or a random tiny value."""
    eb, fb, bias = FMT[d]
    pick = rng.randrange(5)
    neg = rng.randrange(2)
    if pick == 0:
        return neg << (eb + fb)
    if pick == 1:
        return (neg << (eb + fb)) | rng.randrange(1, 1 << fb)
    if pick == 2:
        return (neg << (eb + fb)) | (1 << rng.randrange(fb))
    return code(d, neg, emin(d) + rng.randrange(4), rng.randrange(1 << fb))


def vectors(form):
    name, _, K, a_f, b_f, d, s, blk, e_zero, F = form
    rng = random.Random(name)
    out = []
    ns = K // blk if blk else 0
    unit = 127 if s == "ue8m0" else None

    def vec(a, b, c, sfa=None, sfb=None):
        out.append((a, b, c, sfa or [unit] * ns if ns else [], sfb or [unit] * ns if ns else []))

    one = 2 if s else 0  # e2m1 1.0 (block-scaled forms: the scales carry the exponents)
    if s:
        # GST-FDPA: group g of 16 products takes the scales of block g*16/32; the group's
        # alignment exponent is the sum of its two scale exponents.
        for i in range(PER_VECTOR * 2):
            a = [0] * K
            b = [0] * K
            sfa = [127] * ns
            sfb = [127] * ns
            fam = i % 4
            if fam == 0:  # all groups zero, scales anything
                a = [rng.choice([0, 8]) for _ in range(K)]
                sfa = [rng.randrange(256 - 1) for _ in range(ns)]
                sfb = [rng.randrange(256 - 1) for _ in range(ns)]
                vec(a, b, c_code(d, rng), sfa, sfb)
                continue
            if fam == 1:  # one group of sum 2^s1 (s1 just above f32's bottom), one tiny of opposite sign
                s1 = rng.randint(-149, -140)
                t = rng.randint(-12, 10)
                s2 = e_zero - F + t + 2  # group value -0.25 * 2^s2 = -2^(e_zero - F + t)
                a[0], b[0] = one, one  # block 0, group 0: +1 * 2^s1
                a[32], b[32] = 1 | 8, 1  # block 1, group 2: -0.5 * 0.5 = -0.25
                if rng.randrange(2):
                    a[0] |= 8
                    a[32] &= 7
                sa1 = rng.randint(max(-127, s1 - 127), min(127, s1 + 127))
                sa2 = rng.randint(max(-127, s2 - 127), min(127, s2 + 127))
                sfa = [sa1 + 127, sa2 + 127]
                sfb = [s1 - sa1 + 127, s2 - sa2 + 127]
                vec(a, b, 0, sfa, sfb)
                continue
            # random groups with scale sums around e_zero, some groups zero
            for g in range(K // 16):
                if rng.randrange(3) == 0:
                    continue
                for k in range(g * 16, g * 16 + 16):
                    if rng.randrange(4) == 0:
                        a[k] = rng.randrange(16)
                        b[k] = rng.randrange(16)
            for blk_i in range(ns):
                target = e_zero + rng.randint(-45, 5 if fam == 3 else -1)
                sa = rng.randint(max(-127, target - 127), min(127, target + 127))
                sfa[blk_i] = sa + 127
                sfb[blk_i] = target - sa + 127
            vec(a, b, 0 if rng.randrange(3) else c_code(d, rng), sfa, sfb)
        return out

    for i in range(PER_VECTOR):
        # zero: every product zero (in each, A or B zero, the other zero or finite)
        a, b = [], []
        for _ in range(K):
            x = rand_val(a_f, rng, rng.randint(emin(a_f), 0)) if rng.randrange(2) else zero(a_f, rng)
            y = rand_val(b_f, rng, rng.randint(emin(b_f), 0)) if rng.randrange(2) else zero(b_f, rng)
            if rng.randrange(2):
                x = zero(a_f, rng)
            else:
                y = zero(b_f, rng)
            a.append(x); b.append(y)
        vec(a, b, c_code(d, rng))
    for i in range(PER_VECTOR):
        # below: C zero, non-zero products below 2^e_zero
        a, b = [], []
        for _ in range(K):
            if rng.randrange(4) == 0:
                a.append(zero(a_f, rng)); b.append(rand_val(b_f, rng, 0))
            else:
                x, y = product(a_f, b_f, rng, e_zero - rng.randint(1, 40))
                a.append(x); b.append(y)
        vec(a, b, zero(d, rng))
    for i in range(PER_VECTOR):
        # pair: 2^E1 and -2^(e_zero - F + s)
        s_ = (i % 21) - 10
        neg = bool(rng.randrange(2))
        e1 = e_zero - rng.randint(1, 12)
        p1 = pow2_product(a_f, b_f, e1, neg)
        p2 = pow2_product(a_f, b_f, e_zero - F + s_, not neg)
        if p1 is None or p2 is None:
            continue
        a = [zero(a_f, rng) for _ in range(K)]
        b = [zero(b_f, rng) for _ in range(K)]
        j1, j2 = rng.sample(range(K), 2)
        a[j1], b[j1] = p1
        a[j2], b[j2] = p2
        vec(a, b, zero(d, rng))
    for i in range(PER_VECTOR if d == "f16" and a_f == "f16" else 0):
        # tie (f16 D, rounded to nearest even): one product an odd multiple of half f16's
        # quantum (3, 5 or 7 x 2^-25, alignment exponent below e_zero) and one of opposite sign
        # 2^(e_zero - F + s): whether it survives the truncation decides the rounding
        s_ = (i % 21) - 10
        neg = rng.randrange(2)
        a1, b1 = rng.choice([(0x0600, 0x1400), (0x0500, 0x1800), (0x0700, 0x1800)])
        p2 = pow2_product(a_f, b_f, e_zero - F + s_, not neg)
        if p2 is None:
            continue
        a = [zero(a_f, rng) for _ in range(K)]
        b = [zero(b_f, rng) for _ in range(K)]
        j1, j2 = rng.sample(range(K), 2)
        a[j1], b[j1] = a1 | (neg << 15), b1
        a[j2], b[j2] = p2
        vec(a, b, zero(d, rng))
    for i in range(PER_VECTOR):
        # large: one product near 2^e_zero, the rest 20..40 binades below it
        big = e_zero + rng.randint(-5, 30)
        a, b = [], []
        for k in range(K):
            e = big if k == 0 else big - rng.randint(20, 40)
            x, y = product(a_f, b_f, rng, e)
            a.append(x); b.append(y)
        vec(a, b, zero(d, rng) if rng.randrange(2) else c_code(d, rng))
    return out


def run(form, vs):
    name, instr, K, a_f, b_f, d, s, blk, _, _ = form
    shape = name.split(".", 1)[1]
    if instr == "wgmma":
        op = sim.WGMMA("Hopper", shape)
    elif instr == "tcgen05":
        op = sim.TCGen05MMA("Blackwell", shape)
    else:
        op = sim.TCGen05MMABlockScale("Blackwell", shape)
    col = lambda j: np.array([v[j] for v in vs], dtype=np.uint64)

    def operand(c, fmt):
        if s:
            packed = (c[:, 0::2] << np.uint64(4)) | c[:, 1::2]  # element 2i in the high nibble
            return torch.from_numpy(packed.astype(np.uint8))
        if fmt in CONTAINER_SHIFT:
            return tensor(c << np.uint64(CONTAINER_SHIFT[fmt]), fmt)
        return tensor(c, fmt)

    A, B = operand(col(0), a_f), operand(col(1), b_f)
    C = tensor(col(2), d)
    if s:
        D = op.dpa(A, B, C, tensor(col(3), s), tensor(col(4), s))
    else:
        D = op.dpa(A, B, C)
    if d == "f16":
        return [int(x) & 0xFFFF for x in D.view(torch.int16).tolist()]
    return [int(x) & 0xFFFFFFFF for x in D.view(torch.int32).tolist()]


def main():
    out = sys.argv[1]
    lines = []
    for form in FORMS:
        vs = vectors(form)
        ds = run(form, vs)
        hx = lambda xs: ",".join(f"{x:x}" for x in xs)
        for (a, b, c, sfa, sfb), dd in zip(vs, ds):
            lines.append(f"{form[0]} a={hx(a)} b={hx(b)} c={c:x} sfa={hx(sfa)} sfb={hx(sfb)} d={dd:x}")
        print(f"{form[0]}: {len(vs)} vectors", file=sys.stderr)
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
