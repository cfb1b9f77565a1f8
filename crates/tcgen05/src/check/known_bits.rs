//! The known-bits lattice: for a value of up to 64 bits, which bits are proven and what they
//! hold, and where each proven bit came from.
//!
//! The transfer functions are those of the PTX instructions a compiler uses to build descriptor
//! values (PTX ISA 9.7.1-9.7.9: `mov`, `or`, `and`, `xor`, `not`, `shl`, `shr`, `add`, `sub`,
//! `mul.lo`, `bfe`, `bfi`, `cvt` between integer types, `prmt`, `selp`). Each is sound: a bit is
//! known in the result only if it holds for every value the operands can have.

/// Bits proven at compile time: `known` is the mask of proven bits, `value` their values
/// (always `value & !known == 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KnownBits {
    /// Mask of the bits that are proven.
    pub known: u64,
    /// The proven bits' values (zero where not proven).
    pub value: u64,
}

/// The mask of the low `width` bits.
#[must_use]
pub const fn width_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl KnownBits {
    /// Nothing known.
    pub const UNKNOWN: KnownBits = KnownBits { known: 0, value: 0 };

    /// All `width` bits known (higher bits known to be zero).
    #[must_use]
    pub const fn constant(value: u64, width: u32) -> KnownBits {
        let _ = width;
        KnownBits {
            known: u64::MAX,
            value: value & width_mask(width),
        }
    }

    /// True when the low `width` bits are all known.
    #[must_use]
    pub const fn is_constant(self, width: u32) -> bool {
        self.known & width_mask(width) == width_mask(width)
    }

    /// The bits both values agree on (the join of two possible values).
    #[must_use]
    pub const fn join(self, other: KnownBits) -> KnownBits {
        let known = self.known & other.known & !(self.value ^ other.value);
        KnownBits {
            known,
            value: self.value & known,
        }
    }

    /// Keeps the low `width` bits; higher bits become known zero (a `width`-bit register).
    #[must_use]
    pub const fn truncate(self, width: u32) -> KnownBits {
        let m = width_mask(width);
        KnownBits {
            known: self.known | !m,
            value: self.value & m,
        }
    }

    /// Bitwise OR.
    #[must_use]
    pub const fn or(self, o: KnownBits) -> KnownBits {
        let ones = (self.known & self.value) | (o.known & o.value);
        let zeros = (self.known & !self.value) & (o.known & !o.value);
        KnownBits {
            known: ones | zeros,
            value: ones,
        }
    }

    /// Bitwise AND.
    #[must_use]
    pub const fn and(self, o: KnownBits) -> KnownBits {
        let ones = (self.known & self.value) & (o.known & o.value);
        let zeros = (self.known & !self.value) | (o.known & !o.value);
        KnownBits {
            known: ones | zeros,
            value: ones,
        }
    }

    /// Bitwise XOR.
    #[must_use]
    pub const fn xor(self, o: KnownBits) -> KnownBits {
        let known = self.known & o.known;
        KnownBits {
            known,
            value: (self.value ^ o.value) & known,
        }
    }

    /// Bitwise NOT of a `width`-bit value.
    #[must_use]
    pub const fn not(self, width: u32) -> KnownBits {
        KnownBits {
            known: self.known,
            value: !self.value & self.known,
        }
        .truncate(width)
    }

    /// Left shift of a `width`-bit value by a known amount (PTX clamps amounts above the width).
    #[must_use]
    pub const fn shl(self, amount: u32, width: u32) -> KnownBits {
        if amount >= width {
            return KnownBits::constant(0, width);
        }
        KnownBits {
            known: (self.known << amount) | width_mask(amount),
            value: self.value << amount,
        }
        .truncate(width)
    }

    /// Right shift of a `width`-bit value by a known amount: logical, or arithmetic (`signed`)
    /// with copies of the sign bit.
    #[must_use]
    pub const fn shr(self, amount: u32, width: u32, signed: bool) -> KnownBits {
        let v = self.truncate(width);
        let amount = if amount > width { width } else { amount };
        let m = width_mask(width);
        let (known, value) = if amount >= 64 {
            (0, 0)
        } else {
            ((v.known & m) >> amount, (v.value & m) >> amount)
        };
        let high = m & !width_mask(width.saturating_sub(amount));
        let sign = width - 1;
        let (hk, hv) = if !signed {
            (high, 0)
        } else if (v.known >> sign) & 1 == 1 {
            (high, if (v.value >> sign) & 1 == 1 { high } else { 0 })
        } else {
            (0, 0)
        };
        KnownBits {
            known: known | hk,
            value: value | hv,
        }
        .truncate(width)
    }

    /// The smallest value the bits allow in `width` bits (unknown bits at 0).
    const fn min_value(self, width: u32) -> u64 {
        self.value & width_mask(width)
    }

    /// The largest value the bits allow in `width` bits (unknown bits at 1).
    const fn max_value(self, width: u32) -> u64 {
        (self.value | !self.known) & width_mask(width)
    }

    /// `self + o + carry_in` in `width` bits, where `carry_in` is 0 or 1.
    ///
    /// A bit of a sum is `a ^ b ^ c` with `c` the carry into it, so it is known where `a`, `b`
    /// and that carry are. The carry into bit `i` is the same for every value the operands
    /// can take when the sum of the smallest values and the sum of the largest values agree
    /// on it: those two sums bound every other (a carry only ever grows with its operands),
    /// and the carry into bit `i` of each is recovered as `sum ^ a ^ b` at bit `i`.
    #[must_use]
    pub const fn add_carry(self, o: KnownBits, width: u32, carry_in: u64) -> KnownBits {
        let m = width_mask(width);
        let low = self
            .min_value(width)
            .wrapping_add(o.min_value(width))
            .wrapping_add(carry_in);
        let high = self
            .max_value(width)
            .wrapping_add(o.max_value(width))
            .wrapping_add(carry_in);
        // Carries into each bit for the smallest and the largest operands. Where a bit of an
        // operand is unknown the two differ in the operand; only bits known in both operands
        // are kept below, and there the operands' bits are the same in both sums.
        let carries_low = low ^ self.min_value(width) ^ o.min_value(width);
        let carries_high = high ^ self.max_value(width) ^ o.max_value(width);
        let known = self.known & o.known & !(carries_low ^ carries_high) & m;
        KnownBits {
            known,
            value: low & known,
        }
        .truncate(width)
    }

    /// Integer addition, `sub` when `negate`, or the low half of a product (`mul`), in `width`
    /// bits. A sum's bit is known up to where a carry could enter ([`KnownBits::add_carry`]);
    /// a difference is `a + !b + 1`; a product by a known constant is a sum of shifted copies
    /// of the other operand, and any other product keeps its known low bits and the trailing
    /// zeros both operands guarantee.
    #[must_use]
    pub const fn arith(self, o: KnownBits, width: u32, op: Arith) -> KnownBits {
        let (a, b) = (self.truncate(width), o.truncate(width));
        match op {
            Arith::Add => a.add_carry(b, width, 0),
            Arith::Sub => a.add_carry(b.not(width), width, 1),
            Arith::Mul => {
                if b.is_constant(width) {
                    a.mul_constant(b.value & width_mask(width), width)
                } else if a.is_constant(width) {
                    b.mul_constant(a.value & width_mask(width), width)
                } else {
                    a.mul_unknown(b, width)
                }
            }
        }
    }

    /// `self * c` in `width` bits: the sum of `self << i` over the set bits `i` of `c`.
    const fn mul_constant(self, c: u64, width: u32) -> KnownBits {
        let mut acc = KnownBits::constant(0, width);
        let mut i = 0;
        while i < width && i < 64 {
            if (c >> i) & 1 == 1 {
                acc = acc.add_carry(self.shl(i, width), width, 0);
            }
            i += 1;
        }
        acc
    }

    /// A product of two operands neither of which is known: the low bits below the first
    /// unknown bit of either operand, and at least as many trailing zeros as the operands'
    /// known trailing zeros together.
    const fn mul_unknown(self, o: KnownBits, width: u32) -> KnownBits {
        let a = (!self.known).trailing_zeros();
        let b = (!o.known).trailing_zeros();
        let k = if a < b { a } else { b };
        let k = if k > width { width } else { k };
        let m = width_mask(k);
        let low = KnownBits {
            known: m,
            value: self.value.wrapping_mul(o.value) & m,
        };
        let zeros = self.known_trailing_zeros() + o.known_trailing_zeros();
        let z = if zeros > width { width } else { zeros };
        let tz = KnownBits {
            known: width_mask(z),
            value: 0,
        };
        KnownBits {
            known: low.known | tz.known,
            value: low.value,
        }
        .truncate(width)
    }

    /// The number of low bits known to be zero.
    const fn known_trailing_zeros(self) -> u32 {
        (!(self.known & !self.value)).trailing_zeros()
    }

    /// A `from`-bit operand widened to `2 * from` bits as `mul.wide` and `mad.wide` read it:
    /// sign-extended for `.s` types, zero-extended for `.u` (PTX ISA 9.7.1.6).
    #[must_use]
    pub const fn widen(self, from: u32, signed: bool) -> KnownBits {
        if signed {
            self.sign_extend(from).truncate(2 * from)
        } else {
            self.truncate(from)
        }
    }

    /// Bit `i` as (known, value).
    const fn bit(self, i: u32) -> (bool, bool) {
        if i >= 64 {
            return (false, false);
        }
        ((self.known >> i) & 1 == 1, (self.value >> i) & 1 == 1)
    }

    /// `bfe` (PTX ISA 9.7.1.17): `len` bits from `pos`, zero- or sign-extended to `width`.
    #[must_use]
    pub const fn bfe(self, pos: u32, len: u32, width: u32, signed: bool) -> KnownBits {
        let pos = pos & 0xff;
        let len = len & 0xff;
        let msb = width - 1;
        // The sign bit: a[min(pos + len - 1, msb)] for signed extraction of a non-empty field.
        let sbit = if !signed || len == 0 {
            (true, false)
        } else {
            let top = pos + len - 1;
            self.bit(if top < msb { top } else { msb })
        };
        let mut r = KnownBits::UNKNOWN;
        let mut i = 0;
        while i <= msb {
            let (k, v) = if i < len && pos + i <= msb {
                self.bit(pos + i)
            } else {
                sbit
            };
            if k {
                r.known |= 1 << i;
                if v {
                    r.value |= 1 << i;
                }
            }
            i += 1;
        }
        r.truncate(width)
    }

    /// `bfi` (PTX ISA 9.7.1.18): `self` with the low `len` bits of `field` inserted at `pos`.
    #[must_use]
    pub const fn bfi(self, field: KnownBits, pos: u32, len: u32, width: u32) -> KnownBits {
        let pos = pos & 0xff;
        let len = len & 0xff;
        let mut r = self.truncate(width);
        let mut i = 0;
        while i < len && pos + i < width {
            let (k, v) = field.bit(i);
            let b = 1u64 << (pos + i);
            r.known &= !b;
            r.value &= !b;
            if k {
                r.known |= b;
                if v {
                    r.value |= b;
                }
            }
            i += 1;
        }
        r
    }

    /// Sign extension of the low `from` bits to 64 bits.
    #[must_use]
    pub const fn sign_extend(self, from: u32) -> KnownBits {
        if from >= 64 || from == 0 {
            return self;
        }
        let v = self.truncate(from);
        let high = !width_mask(from);
        let (k, s) = v.bit(from - 1);
        if k {
            KnownBits {
                known: v.known,
                value: if s { v.value | high } else { v.value },
            }
        } else {
            KnownBits {
                known: v.known & !high,
                value: v.value & !high,
            }
        }
    }

    /// `prmt.b32` in its default mode (PTX ISA 9.7.9.8): four bytes chosen from `{b, a}` by the
    /// nibbles of a known selector, each optionally replaced by copies of its sign bit.
    #[must_use]
    pub const fn prmt(a: KnownBits, b: KnownBits, selector: u32) -> KnownBits {
        let src = [a, b];
        let mut r = KnownBits::UNKNOWN;
        let mut i = 0;
        while i < 4 {
            let sel = (selector >> (4 * i)) & 0xf;
            let idx = sel & 7;
            let s = src[(idx / 4) as usize];
            let shift = 8 * (idx % 4);
            let byte_known = (s.known >> shift) & 0xff;
            let byte_value = (s.value >> shift) & 0xff;
            let (k, v) = if sel & 8 == 0 {
                (byte_known, byte_value)
            } else if byte_known & 0x80 != 0 {
                (0xff, if byte_value & 0x80 != 0 { 0xff } else { 0 })
            } else {
                (0, 0)
            };
            r.known |= k << (8 * i);
            r.value |= v << (8 * i);
            i += 1;
        }
        r.truncate(32)
    }
}

/// The arithmetic of [`KnownBits::arith`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `mul.lo`.
    Mul,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A known-bits value and a concrete value it describes.
    fn arb() -> impl Strategy<Value = (KnownBits, u64)> {
        (any::<u64>(), any::<u64>()).prop_map(|(known, x)| {
            (
                KnownBits {
                    known,
                    value: x & known,
                },
                x,
            )
        })
    }

    fn holds(k: KnownBits, x: u64) -> bool {
        x & k.known == k.value
    }

    fn bfe_ref(a: u64, pos: u32, len: u32, width: u32, signed: bool) -> u64 {
        let (pos, len) = (pos & 0xff, len & 0xff);
        let msb = width - 1;
        let bit = |i: u32| (a >> i) & 1;
        let sbit = if !signed || len == 0 {
            0
        } else {
            bit((pos + len - 1).min(msb))
        };
        let mut d = 0;
        for i in 0..=msb {
            let b = if i < len && pos + i <= msb {
                bit(pos + i)
            } else {
                sbit
            };
            d |= b << i;
        }
        d
    }

    proptest! {
        // Soundness: for any concrete operands described by the known bits, the concrete result
        // is described by the computed known bits. The concrete side is plain Rust arithmetic
        // on u64, not the lattice code.
        #[test]
        fn transfer_functions_are_sound(
            (a, x) in arb(), (b, y) in arb(), w in prop::sample::select(std::vec![16u32, 32, 64]),
            s in 0u32..70, pos in 0u32..70, len in 0u32..70, sel in any::<u32>(),
        ) {
            let m = width_mask(w);
            let (x, y) = (x & m, y & m);
            let (a, b) = (a.truncate(w), b.truncate(w));
            prop_assume!(holds(a, x) && holds(b, y));
            prop_assert!(holds(a.or(b), x | y));
            prop_assert!(holds(a.and(b), x & y));
            prop_assert!(holds(a.xor(b), x ^ y));
            prop_assert!(holds(a.not(w), !x & m));
            let sh = s.min(w);
            let shl = if sh >= w { 0 } else { (x << sh) & m };
            prop_assert!(holds(a.shl(s, w), shl));
            let shr = if sh >= 64 { 0 } else { x >> sh };
            prop_assert!(holds(a.shr(s, w, false), shr));
            let sx = ((x << (64 - w)) as i64) >> (64 - w);
            let sra = ((sx >> sh.min(63)) as u64) & m;
            prop_assert!(holds(a.shr(s, w, true), sra));
            prop_assert!(holds(a.arith(b, w, Arith::Add), x.wrapping_add(y) & m));
            prop_assert!(holds(a.arith(b, w, Arith::Sub), x.wrapping_sub(y) & m));
            prop_assert!(holds(a.arith(b, w, Arith::Mul), x.wrapping_mul(y) & m));
            // A product by a known constant (the other operand read as that constant).
            let c = KnownBits::constant(y, w);
            prop_assert!(holds(a.arith(c, w, Arith::Mul), x.wrapping_mul(y) & m));
            prop_assert!(holds(c.arith(a, w, Arith::Sub), y.wrapping_sub(x) & m));
            prop_assert!(holds(a.bfe(pos, len, w, false), bfe_ref(x, pos, len, w, false)));
            prop_assert!(holds(a.bfe(pos, len, w, true), bfe_ref(x, pos, len, w, true) & m));
            let mut bfi = x;
            for i in 0..(len & 0xff) {
                if (pos & 0xff) + i < w { bfi = (bfi & !(1 << ((pos & 0xff) + i))) | (((y >> i) & 1) << ((pos & 0xff) + i)); }
            }
            prop_assert!(holds(a.bfi(b, pos, len, w), bfi));
            prop_assert!(holds(a.join(b), x) && holds(a.join(b), y));
            let (x32, y32) = (x as u32, y as u32);
            let mut p = 0u32;
            for i in 0..4 {
                let n = (sel >> (4 * i)) & 0xf;
                let bytes = (u64::from(y32) << 32) | u64::from(x32);
                let byte = ((bytes >> (8 * (n & 7))) & 0xff) as u32;
                let byte = if n & 8 != 0 { if byte & 0x80 != 0 { 0xff } else { 0 } } else { byte };
                p |= byte << (8 * i);
            }
            prop_assert!(holds(KnownBits::prmt(a.truncate(32), b.truncate(32), sel), u64::from(p)));
        }
    }

    #[test]
    fn hand_examples() {
        // bfe.u32 %r, %unknown, 4, 15: bits 15-31 known zero, bits 0-14 unknown.
        let r = KnownBits::UNKNOWN.bfe(4, 15, 32, false);
        assert_eq!(r.known & 0xffff_ffff, 0xffff_8000);
        assert_eq!(r.value, 0);
        // or.b32 with 0x02000000 then: bit 25 known one.
        let o = r.or(KnownBits::constant(0x0200_0000, 32));
        assert_eq!(o.value & 0xffff_ffff, 0x0200_0000);
        // join of 5 and 7: bits agree except bit 1.
        let j = KnownBits::constant(5, 32).join(KnownBits::constant(7, 32));
        assert_eq!(j.known & 0b111, 0b101);
    }
}
