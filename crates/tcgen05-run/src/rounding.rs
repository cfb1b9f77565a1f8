//! Rounding an exact value to a float format in each of PTX's four modes (PTX ISA 9.7.3,
//! "rounding modifiers"): `.rn` and `.rz` through the core's [`Format::encode`]; `.rm` and `.rp`
//! as `.rz` followed by one step away from zero when the value was inexact and the direction
//! points away from zero (codes of IEEE-style formats grow with the magnitude, and one step
//! past the largest finite code is infinity); an overflow toward zero gives the largest finite
//! value.

use tcgen05::numerics::{Exact, Format, Rounding};

use crate::int::{mask, sext};
use crate::op::{Rnd, Ty};

/// `x` with its magnitude's trailing zero bits moved into the scale.
fn normal(x: Exact) -> (bool, u128, i32) {
    if x.mag == 0 {
        return (false, 0, 0);
    }
    let t = x.mag.trailing_zeros();
    (x.neg, x.mag >> t, x.scale + t as i32)
}

/// `x` rounded to `format` as `rnd` says, as the format's code; `None` where the format
/// refuses the value.
pub(crate) fn encode(format: Format, x: Exact, rnd: Rnd) -> Option<u32> {
    let mode = if rnd == Rnd::Rn {
        Rounding::NearestEven
    } else {
        Rounding::TowardZero
    };
    let code = format.encode(x, mode).ok()?;
    let away = match rnd {
        Rnd::Rn | Rnd::Rz => false,
        Rnd::Rp => !x.neg,
        Rnd::Rm => x.neg,
    };
    let Some(back) = format.decode(code).ok().and_then(Exact::of) else {
        // An overflow: infinity where the rounding goes away from zero (or to nearest), the
        // largest finite value (the code below infinity) otherwise (IEEE 754 7.4).
        return Some(if rnd == Rnd::Rn || away {
            code
        } else {
            code - 1
        });
    };
    if !away {
        return Some(code);
    }
    Some(if x.mag == 0 || normal(back) == normal(x) {
        code
    } else {
        code + 1
    })
}

/// `cvt.rnd.{f16,bf16,f32,f64}.{s,u}{8,16,32,64}`: the integer rounded once (PTX ISA 9.7.9.21).
pub(crate) fn int_to_float(to: Ty, from: Ty, rnd: Rnd, a: u64) -> Option<u64> {
    let (neg, mag) = if from.signed() {
        let v = sext(a, from.bits());
        (v < 0, u128::from(v.unsigned_abs()))
    } else {
        (false, u128::from(a & mask(from.bits())))
    };
    let x = Exact { neg, mag, scale: 0 };
    let format = match to {
        Ty::F16 => Format::F16,
        Ty::Bf16 => Format::Bf16,
        Ty::F32 => Format::F32,
        Ty::F64 => {
            return Some(if rnd == Rnd::Rn {
                if neg {
                    (-(mag as f64)).to_bits()
                } else {
                    (mag as f64).to_bits()
                }
            } else {
                return None;
            })
        }
        _ => return None,
    };
    encode(format, x, rnd).map(u64::from)
}

/// `cvt.rnd{.ftz}.{f16,bf16,f32,f64}.{f32,f64}` without `.sat`, `.relu` or `.satfinite`: the
/// source rounded once as `rnd` says (a widening conversion is exact); NaN to the destination's
/// canonical NaN; `.ftz` flushes an f32 source and an f32 result that are subnormal.
pub(crate) fn float_to_float(to: Ty, from: Ty, rnd: Rnd, ftz: bool, a: u64) -> Option<u64> {
    let flush = |b: u32| {
        if ftz && b & 0x7F80_0000 == 0 {
            b & 0x8000_0000
        } else {
            b
        }
    };
    let x = match from {
        Ty::F32 => f64::from(f32::from_bits(flush(a as u32))),
        Ty::F64 => f64::from_bits(a),
        _ => return None,
    };
    let (format, nan, inf, sign) = match to {
        Ty::F64 => {
            return Some(if x.is_nan() {
                0x7FFF_FFFF_FFFF_FFFF
            } else {
                x.to_bits()
            })
        }
        Ty::F32 => (Format::F32, 0x7FFF_FFFFu32, 0x7F80_0000u32, 0x8000_0000u32),
        Ty::F16 => (Format::F16, 0x7FFF, 0x7C00, 0x8000),
        Ty::Bf16 => (Format::Bf16, 0x7FFF, 0x7F80, 0x8000),
        _ => return None,
    };
    if x.is_nan() {
        return Some(u64::from(nan));
    }
    let s = if x.is_sign_negative() { sign } else { 0 };
    if x.is_infinite() {
        return Some(u64::from(s | inf));
    }
    let code = encode(format, Exact::from_f64(x)?, rnd)?;
    Some(u64::from(if to == Ty::F32 { flush(code) } else { code }))
}
