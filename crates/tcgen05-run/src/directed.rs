//! Floating-point arithmetic in the directed roundings (`.rz`, `.rm`, `.rp`; PTX ISA 9.7.3:
//! `add`, `sub`, `mul`, `fma`, `div`, `sqrt`, `rcp` on `.f32` and `.f64`): the exact result (or
//! enough of it: the bits below a 120-bit window folded into one sticky bit) rounded once as
//! IEEE 754 defines each mode. Infinite and NaN operands, and division by zero, give the same
//! results in every mode; they are taken from the host's IEEE arithmetic, NaN made canonical.

use tcgen05::numerics::Exact;

use crate::op::{FloatOp, Rnd, Ty};

/// IEEE 754 binary32 or binary64: significand bits (with the hidden one) and largest exponent.
#[derive(Clone, Copy)]
struct Ieee {
    p: u32,
    emax: i32,
    bits: u32,
}

const F32: Ieee = Ieee {
    p: 24,
    emax: 127,
    bits: 32,
};
const F64: Ieee = Ieee {
    p: 53,
    emax: 1023,
    bits: 64,
};

fn top(x: &Exact) -> i32 {
    x.scale + (128 - x.mag.leading_zeros()) as i32
}

/// The sum of two exact values within a 120-bit window (lower bits kept as a sticky bit).
pub(crate) fn add(x: Exact, y: Exact) -> Exact {
    if x.mag == 0 {
        return y;
    }
    if y.mag == 0 {
        return x;
    }
    let base = top(&x).max(top(&y)) - 120;
    let aligned = |e: &Exact| -> i128 {
        let m = if e.scale >= base {
            e.mag << (e.scale - base) as u32
        } else {
            let k = (base - e.scale) as u32;
            let kept = if k >= 128 { 0 } else { e.mag >> k };
            kept | u128::from(k >= 128 || e.mag & ((1u128 << k) - 1) != 0)
        };
        if e.neg {
            -(m as i128)
        } else {
            m as i128
        }
    };
    let s = aligned(&x) + aligned(&y);
    Exact {
        neg: s < 0,
        mag: s.unsigned_abs(),
        scale: base,
    }
}

fn mul(x: Exact, y: Exact) -> Exact {
    Exact {
        neg: x.neg != y.neg,
        mag: x.mag * y.mag,
        scale: x.scale + y.scale,
    }
}

fn div(x: Exact, y: Exact) -> Exact {
    let s = x.mag.leading_zeros() - 1;
    let n = x.mag << s;
    let q = n / y.mag;
    Exact {
        neg: x.neg != y.neg,
        mag: q | u128::from(n % y.mag != 0),
        scale: x.scale - s as i32 - y.scale,
    }
}

fn sqrt(x: Exact) -> Exact {
    let (mut m, mut e) = (x.mag, x.scale);
    if e % 2 != 0 {
        m <<= 1;
        e -= 1;
    }
    let k = (m.leading_zeros() - 2) / 2;
    let m = m << (2 * k);
    let mut r: u128 = 0;
    for bit in (0..64).rev() {
        let t = r | 1 << bit;
        if t * t <= m {
            r = t;
        }
    }
    Exact {
        neg: false,
        mag: r | u128::from(r * r != m),
        scale: (e - 2 * k as i32) / 2,
    }
}

/// Rounds a nonzero exact value to the format as `rnd` says; overflow gives infinity where the
/// rounding goes away from zero (or to nearest), the largest finite value otherwise.
fn encode(f: Ieee, x: Exact, rnd: Rnd) -> u64 {
    let sign = u64::from(x.neg) << (f.bits - 1);
    if x.mag == 0 {
        return sign;
    }
    let emin = 1 - f.emax;
    let msb = 127 - x.mag.leading_zeros() as i32;
    let e = (msb + x.scale).max(emin);
    let mut q = e - (f.p as i32 - 1);
    let shift = q - x.scale;
    let mut sig = if shift <= 0 {
        x.mag << (-shift) as u32
    } else {
        let s = shift as u32;
        let kept = if s >= 128 { 0 } else { x.mag >> s };
        let rem = if s >= 128 {
            x.mag
        } else {
            x.mag & ((1u128 << s) - 1)
        };
        let half = if s > 128 { 0 } else { 1u128 << (s - 1) };
        let up = match rnd {
            Rnd::Rn => s <= 128 && (rem > half || (rem == half && kept & 1 == 1)),
            Rnd::Rz => false,
            Rnd::Rp => !x.neg && rem != 0,
            Rnd::Rm => x.neg && rem != 0,
        };
        kept + u128::from(up)
    };
    if sig >> f.p != 0 {
        sig >>= 1;
        q += 1;
    }
    let frac_bits = f.p - 1;
    let normal = sig >> frac_bits != 0;
    let exp_field = if normal {
        (q + frac_bits as i32 + f.emax) as u64
    } else {
        0
    };
    let inf = ((1u64 << (f.bits - f.p)) - 1) << frac_bits;
    if exp_field >= (1u64 << (f.bits - f.p)) - 1 {
        let away = match rnd {
            Rnd::Rn => true,
            Rnd::Rz => false,
            Rnd::Rp => !x.neg,
            Rnd::Rm => x.neg,
        };
        return sign | if away { inf } else { inf - 1 };
    }
    sign | exp_field << frac_bits | (sig as u64 & ((1u64 << frac_bits) - 1))
}

/// The sign of an exact zero sum (IEEE 754 6.3): the operands' common sign, else -0 in `.rm`
/// only.
fn zero_sign(a_neg: bool, b_neg: bool, rnd: Rnd) -> bool {
    if a_neg == b_neg {
        a_neg
    } else {
        rnd == Rnd::Rm
    }
}

/// An operation on operands of `ty` (f32 or f64 bit patterns), rounded as `rnd` says; `.ftz`
/// flushes f32 subnormal operands and results to zero (the result after rounding).
pub(crate) fn compute(op: Op, ty: Ty, rnd: Rnd, ftz: bool, a: u64, b: u64, c: u64) -> u64 {
    let f = if ty == Ty::F64 { F64 } else { F32 };
    let flush = |x: u64| -> u64 {
        if ftz && ty == Ty::F32 && x & 0x7F80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    let val = |x: u64| -> f64 {
        if ty == Ty::F64 {
            f64::from_bits(x)
        } else {
            f64::from(f32::from_bits(flush(x) as u32))
        }
    };
    let (x, y, z) = (val(a), val(b), val(c));
    // Special operands and division by zero: the same result in every rounding.
    let native = match op {
        Op::Binary(FloatOp::Add) => x + y,
        Op::Binary(FloatOp::Sub) => x - y,
        Op::Binary(FloatOp::Mul) => x * y,
        Op::Binary(FloatOp::Div) => x / y,
        Op::Binary(_) => return a,
        Op::Fma => x.mul_add(y, z),
        Op::Sqrt => x.sqrt(),
        Op::Rcp => 1.0 / x,
    };
    let specials = !x.is_finite()
        || (matches!(op, Op::Binary(_) | Op::Fma) && !y.is_finite())
        || (op == Op::Fma && !z.is_finite())
        || (op == Op::Binary(FloatOp::Div) && y == 0.0)
        || (op == Op::Rcp && x == 0.0)
        || (op == Op::Sqrt && x <= 0.0);
    if op == Op::Sqrt && ty == Ty::F64 && x < 0.0 {
        return crate::bulk_copy::SQRT_NEGATIVE_F64;
    }
    if specials || native.is_nan() {
        return if native.is_nan() {
            if ty == Ty::F64 {
                0x7FFF_FFFF_FFFF_FFFF
            } else {
                0x7FFF_FFFF
            }
        } else if ty == Ty::F64 {
            native.to_bits()
        } else {
            u64::from((native as f32).to_bits())
        };
    }
    let ex = |v: f64| {
        Exact::from_f64(v).unwrap_or(Exact {
            neg: false,
            mag: 0,
            scale: 0,
        })
    };
    let (ea, eb, ec) = (ex(x), ex(y), ex(z));
    let neg = |e: Exact| Exact { neg: !e.neg, ..e };
    let exact = match op {
        Op::Binary(FloatOp::Add) => add(ea, eb),
        Op::Binary(FloatOp::Sub) => add(ea, neg(eb)),
        Op::Binary(FloatOp::Mul) => mul(ea, eb),
        Op::Binary(_) => div(ea, eb),
        Op::Fma => add(mul(ea, eb), ec),
        Op::Sqrt => sqrt(ea),
        Op::Rcp => div(
            Exact {
                neg: false,
                mag: 1,
                scale: 0,
            },
            ea,
        ),
    };
    let exact = if exact.mag == 0 {
        let (sx, sy, sz) = (
            x.is_sign_negative(),
            y.is_sign_negative(),
            z.is_sign_negative(),
        );
        let (p, q) = match op {
            Op::Binary(FloatOp::Sub) => (sx, !sy),
            Op::Binary(FloatOp::Mul | FloatOp::Div) => (sx != sy, sx != sy),
            Op::Fma => (sx != sy, sz),
            _ => (sx, sy),
        };
        Exact {
            neg: zero_sign(p, q, rnd),
            ..exact
        }
    } else {
        exact
    };
    flush(encode(f, exact, rnd))
}

/// The operations [`compute`] rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// `add`, `sub`, `mul`, `div`.
    Binary(FloatOp),
    /// `fma`.
    Fma,
    /// `sqrt`.
    Sqrt,
    /// `rcp`.
    Rcp,
}
