"""The inputs where an f64 exp2 cannot decide the f32 rounding of 2^x, decided with 60-digit
decimal arithmetic (Python's decimal module, independent of any libm).

hw/approx/refcheck.rs (and approx.cu on the GPU) flag the f32 inputs x whose f64 2^x lies within
2^-50 (relative) of an f32 rounding boundary; over all 2^32 inputs there are 12 (listed below,
from refcheck's output). For each, this prints x's bits and the correctly rounded f32 bits of
2^x (ties to even), which crates/tcgen05-run/tests/approx.rs checks `ex2_rn` against.
Usage: python3 hw/approx/hard_cases.py
"""
import struct
from decimal import Decimal, getcontext

getcontext().prec = 60
HARD = [0x33b8aa3b, 0x36879cf7, 0x3a07857c, 0x3b429d37, 0x3c02a9ad, 0xb466d4cb, 0xb52d1f9a,
        0xb8d3d026, 0xbaec2b40, 0xbcf3a937, 0xbe1f29de, 0xc3160000]


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits_of(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def rn_f32(d):
    """The f32 nearest the positive Decimal d (ties to even), for d in the normal range or 2^-150."""
    if d == Decimal(2) ** -150:
        return 0  # the midpoint between 0 and the smallest subnormal: ties to even
    e = d.adjusted()  # decimal exponent; find the binary exponent
    b = 0
    while Decimal(2) ** (b + 1) <= d:
        b += 1
    while Decimal(2) ** b > d:
        b -= 1
    ulp = Decimal(2) ** (b - 23)
    q = d / ulp  # in [2^23, 2^24)
    n = int(q)
    frac = q - n
    if frac > Decimal("0.5") or (frac == Decimal("0.5") and n % 2 == 1):
        n += 1
    del e
    return bits_of(float(n * ulp))


ln2 = Decimal(2).ln()
for x in HARD:
    v = (Decimal(f32(x)) * ln2).exp()
    print(f"0x{x:08x} 0x{rn_f32(v):08x}")
