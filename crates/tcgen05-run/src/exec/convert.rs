//! `cvt` between integer and floating-point types with every rounding (PTX ISA 9.7.9.21), for
//! one lane.

use crate::error::RunError;
use crate::float::{f32_to_16, f32_to_f8, ftz32, NAN32};
use crate::int::{self, mask};
use crate::op::{Conv, IRnd, Rnd, Ty};
use tcgen05::numerics::Format;

pub(super) fn unmodelled(line: u32, what: &str) -> RunError {
    RunError::Unsupported {
        line,
        what: what.to_string(),
        why: "this rounding of cvt is not modelled yet",
    }
}

pub(super) fn convert(line: u32, conv: Conv, a: u64, b: Option<u64>) -> Result<u64, RunError> {
    Ok(match conv {
        Conv::IntInt { to, from, sat } => int::convert(to, from, sat, a),
        Conv::F32ToF8x2 { e4m3, relu } => {
            let hi = f32_to_f8(a as u32, e4m3, relu);
            let lo = f32_to_f8(b.unwrap_or(0) as u32, e4m3, relu);
            u64::from(u16::from(hi) << 8 | u16::from(lo))
        }
        Conv::F32ToF16x2 {
            bf16,
            rnd,
            relu,
            satfinite,
        } => {
            let f = if bf16 { Format::Bf16 } else { Format::F16 };
            let hi = f32_to_16(a as u32, f, rnd, relu, satfinite)
                .ok_or_else(|| unmodelled(line, "cvt.x2"))?;
            let lo = f32_to_16(b.unwrap_or(0) as u32, f, rnd, relu, satfinite)
                .ok_or_else(|| unmodelled(line, "cvt.x2"))?;
            u64::from(u32::from(hi) << 16 | u32::from(lo))
        }
        Conv::FloatFloat {
            to,
            from,
            rnd,
            ftz,
            sat,
            relu,
            satfinite,
        } => float_float(line, to, from, rnd, ftz, sat, relu, satfinite, a)?,
        Conv::FloatInt { to, from, rnd, ftz } => float_int(to, from, rnd, ftz, a),
        Conv::IntFloat { to, from, rnd } => crate::rounding::int_to_float(to, from, rnd, a)
            .ok_or_else(|| unmodelled(line, "cvt int to float"))?,
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) fn float_float(
    line: u32,
    to: Ty,
    from: Ty,
    rnd: Rnd,
    ftz: bool,
    sat: bool,
    relu: bool,
    satfinite: bool,
    a: u64,
) -> Result<u64, RunError> {
    match (to, from) {
        (Ty::F16 | Ty::Bf16, Ty::F32) => {
            let x = if ftz { ftz32(a as u32) } else { a as u32 };
            let x = if sat { sat_f32(x) } else { x };
            let f = if to == Ty::Bf16 {
                Format::Bf16
            } else {
                Format::F16
            };
            f32_to_16(x, f, rnd, relu, satfinite)
                .map(u64::from)
                .or_else(|| {
                    (!sat && !relu && !satfinite)
                        .then(|| crate::rounding::float_to_float(to, from, rnd, ftz, a))
                        .flatten()
                })
                .ok_or_else(|| unmodelled(line, "cvt to f16/bf16"))
        }
        (Ty::F32, Ty::F32) => {
            let x = if ftz { ftz32(a as u32) } else { a as u32 };
            Ok(u64::from(if sat { sat_f32(x) } else { x }))
        }
        (Ty::F32, Ty::Bf16) => Ok(if (a as u16) & 0x7FFF > 0x7F80 {
            u64::from(NAN32)
        } else {
            (a & 0xFFFF) << 16
        }),
        (Ty::F32, Ty::F16) => {
            let h = f16_to_f32(a as u16);
            Ok(u64::from(if h.is_nan() { NAN32 } else { h.to_bits() }))
        }
        _ if !sat && !relu && !satfinite => crate::rounding::float_to_float(to, from, rnd, ftz, a)
            .ok_or_else(|| unmodelled(line, "cvt between these float types")),
        _ => Err(unmodelled(line, "cvt between these float types")),
    }
}

pub(super) fn sat_f32(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() || f <= 0.0 {
        0
    } else if f >= 1.0 {
        1.0f32.to_bits()
    } else {
        x
    }
}

/// The exact f32 of an f16 code.
pub(super) fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1F;
    let m = f32::from(h & 0x3FF);
    match e {
        0 => sign * m * (2.0f32).powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + m / 1024.0) * (2.0f32).powi(i32::from(e) - 15),
    }
}

/// Float to integer: rounded, saturated to the destination's range, NaN to 0 (PTX ISA
/// 9.7.9.21).
pub(super) fn float_int(to: Ty, from: Ty, rnd: IRnd, ftz: bool, a: u64) -> u64 {
    let x = if from == Ty::F64 {
        f64::from_bits(a)
    } else {
        let b = if ftz { ftz32(a as u32) } else { a as u32 };
        f64::from(f32::from_bits(b))
    };
    if x.is_nan() {
        return 0;
    }
    let r = match rnd {
        IRnd::Rni => x.round_ties_even(),
        IRnd::Rzi => x.trunc(),
        IRnd::Rmi => x.floor(),
        IRnd::Rpi => x.ceil(),
    };
    let bits = to.bits();
    let (lo, hi) = if to.signed() {
        (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        )
    } else {
        (0.0, 2f64.powi(bits as i32) - 1.0)
    };
    let c = r.clamp(lo, hi);
    let v = if to.signed() {
        c as i64 as u64
    } else {
        c as u64
    };
    v & mask(bits)
}
