//! Integer semantics of PTX arithmetic, logic, shifts and integer conversions (PTX ISA 9.7.1,
//! 9.7.8, 9.7.9.21), on values held zero-extended in 64-bit register slots.

use crate::op::{IntOp, IntUnaryOp, Ty};

/// The low `bits` bits set.
#[inline]
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `x`'s low `bits` bits, sign-extended.
#[inline]
pub(crate) fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let s = 64 - bits;
        ((x << s) as i64) >> s
    }
}

/// `a op b` at type `ty`; the result masked to its width (twice the type's for `mul.wide`).
#[inline]
pub(crate) fn binary(op: IntOp, ty: Ty, a: u64, b: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    let (ua, ub) = (a & m, b & m);
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let signed = ty.signed();
    let r = match op {
        IntOp::Add => ua.wrapping_add(ub),
        IntOp::Sub => ua.wrapping_sub(ub),
        IntOp::MulLo => ua.wrapping_mul(ub),
        IntOp::MulHi => {
            if signed {
                ((i128::from(sa) * i128::from(sb)) >> bits) as u64
            } else {
                ((u128::from(ua) * u128::from(ub)) >> bits) as u64
            }
        }
        IntOp::MulWide => {
            let w = if signed {
                (i128::from(sa) * i128::from(sb)) as u64
            } else {
                (u128::from(ua) * u128::from(ub)) as u64
            };
            return w & mask(2 * bits);
        }
        IntOp::Min | IntOp::Max => {
            let less = if signed { sa < sb } else { ua < ub };
            if less == (op == IntOp::Min) {
                ua
            } else {
                ub
            }
        }
        IntOp::And => ua & ub,
        IntOp::Or => ua | ub,
        IntOp::Xor => ua ^ ub,
        // Shift amounts are unsigned 32-bit values; amounts past the width clamp (PTX ISA 9.7.8.7).
        IntOp::Shl => {
            let n = b & 0xFFFF_FFFF;
            if n >= u64::from(bits) {
                0
            } else {
                ua << n
            }
        }
        IntOp::Shr => {
            let n = (b & 0xFFFF_FFFF).min(u64::from(bits) - 1 + u64::from(!signed));
            if signed {
                (sa >> n.min(63)) as u64
            } else if n >= u64::from(bits) {
                0
            } else {
                ua >> n
            }
        }
        // Division by zero has no defined result in PTX; the run gives all ones (unsigned) as
        // the GPU does, and -1 for signed.
        IntOp::Div => {
            if ub == 0 {
                u64::MAX
            } else if signed {
                sa.wrapping_div(sb) as u64
            } else {
                ua / ub
            }
        }
        IntOp::Rem => {
            if ub == 0 {
                ua
            } else if signed {
                sa.wrapping_rem(sb) as u64
            } else {
                ua % ub
            }
        }
    };
    r & m
}

/// A one-operand integer operation at type `ty`.
pub(crate) fn unary(op: IntUnaryOp, ty: Ty, a: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    let ua = a & m;
    let r = match op {
        IntUnaryOp::Not => !ua,
        IntUnaryOp::Neg => ua.wrapping_neg(),
        IntUnaryOp::Cnot => u64::from(ua == 0),
        IntUnaryOp::Popc => u64::from(ua.count_ones()),
        IntUnaryOp::Clz => u64::from(ua.leading_zeros() - (64 - bits)),
        IntUnaryOp::Brev => ua.reverse_bits() >> (64 - bits),
        IntUnaryOp::Abs => sext(ua, bits).unsigned_abs(),
    };
    r & m
}

/// Integer-to-integer `cvt`: extension by the source's signedness, truncation, `.sat` clamping
/// to the destination's range.
pub(crate) fn convert(to: Ty, from: Ty, sat: bool, a: u64) -> u64 {
    let fb = from.bits();
    let tb = to.bits();
    let v: i128 = if from.signed() {
        i128::from(sext(a, fb))
    } else {
        i128::from(a & mask(fb))
    };
    if sat {
        let (lo, hi) = if to.signed() {
            (-(1i128 << (tb - 1)), (1i128 << (tb - 1)) - 1)
        } else {
            (0, (1i128 << tb) - 1)
        };
        return (v.clamp(lo, hi) as u64) & mask(tb);
    }
    (v as u64) & mask(tb)
}
