//! Floating-point semantics of the PTX arithmetic and conversions the run models (PTX ISA 9.7.3
//! and 9.7.9.21): results bit for bit, NaN results canonical as on NVIDIA GPUs (`0x7FFFFFFF` for
//! f32, `0x7FFF` for f16/bf16, `0x7F` for e4m3), conversions through the core's
//! [`numerics`](tcgen05::numerics) formats.

use tcgen05::numerics::{Exact, Format, Rounding};

use crate::op::{FloatOp, Rnd};

/// The canonical f32 NaN a GPU writes.
pub(crate) const NAN32: u32 = 0x7FFF_FFFF;

/// `.ftz`: a subnormal f32 becomes a zero of its sign.
pub(crate) fn ftz32(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        NAN32
    } else {
        x.to_bits()
    }
}

/// `.sat`: clamp to [0, 1], NaN to +0.
fn sat32(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() || f <= 0.0 {
        0
    } else if f >= 1.0 {
        1.0f32.to_bits()
    } else {
        x
    }
}

/// `min`/`max.f32`: a NaN operand yields the other operand; -0 orders below +0.
fn minmax(a: f32, b: f32, max: bool) -> u32 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => NAN32,
        (true, false) => b.to_bits(),
        (false, true) => a.to_bits(),
        _ => {
            let (lo, hi) = if a < b || (a == b && a.is_sign_negative()) {
                (a, b)
            } else {
                (b, a)
            };
            if max { hi } else { lo }.to_bits()
        }
    }
}

/// One f32 binary operation, bit for bit (round to nearest even only: other modes are refused
/// when decoded).
pub(crate) fn f32_binary(op: FloatOp, a: u32, b: u32, ftz: bool, sat: bool) -> u32 {
    let (a, b) = if ftz { (ftz32(a), ftz32(b)) } else { (a, b) };
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = match op {
        FloatOp::Add => canon32(x + y),
        FloatOp::Sub => canon32(x - y),
        FloatOp::Mul => canon32(x * y),
        FloatOp::Div => canon32(x / y),
        FloatOp::Min => minmax(x, y, false),
        FloatOp::Max => minmax(x, y, true),
    };
    finish32(r, ftz, sat)
}

/// `fma.rn.f32`: one rounding of the exact `a * b + c`.
pub(crate) fn f32_fma(a: u32, b: u32, c: u32, ftz: bool, sat: bool) -> u32 {
    let (a, b, c) = if ftz {
        (ftz32(a), ftz32(b), ftz32(c))
    } else {
        (a, b, c)
    };
    let r = canon32(f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c)));
    finish32(r, ftz, sat)
}

fn finish32(r: u32, ftz: bool, sat: bool) -> u32 {
    let r = if ftz { ftz32(r) } else { r };
    if sat {
        sat32(r)
    } else {
        r
    }
}

/// An f32 as the 16-bit float code of `format` (f16 or bf16), rounded as `rnd` says; NaN to
/// the canonical `0x7FFF`; `satfinite` clamps an overflow (and Inf) to the largest finite value.
/// `None` for a rounding the numerics formats do not model (`.rm`, `.rp`).
pub(crate) fn f32_to_16(
    x: u32,
    format: Format,
    rnd: Rnd,
    relu: bool,
    satfinite: bool,
) -> Option<u16> {
    let f = f32::from_bits(x);
    let (emax_code, inf) = match format {
        Format::Bf16 => (0x7F7Fu16, 0x7F80u16),
        _ => (0x7BFF, 0x7C00),
    };
    if f.is_nan() {
        return Some(0x7FFF);
    }
    if relu && f.is_sign_negative() {
        return Some(0);
    }
    let sign: u16 = if f.is_sign_negative() { 0x8000 } else { 0 };
    if f.is_infinite() {
        return Some(sign | if satfinite { emax_code } else { inf });
    }
    let mode = match rnd {
        Rnd::Rn => Rounding::NearestEven,
        Rnd::Rz => Rounding::TowardZero,
        Rnd::Rm | Rnd::Rp => return None,
    };
    let code = format.encode(Exact::from_f64(f64::from(f))?, mode).ok()?;
    let code = u16::try_from(code).ok()?;
    if satfinite && code & 0x7FFF == inf {
        return Some(sign | emax_code);
    }
    Some(code)
}

/// An f32 as an 8-bit float code, `.rn.satfinite` (PTX ISA 9.7.9.21): NaN to `0x7F` (e4m3) or
/// `0x7F` (e5m2 canonical NaN), values beyond the largest finite one (Inf too) to it.
pub(crate) fn f32_to_f8(x: u32, e4m3: bool, relu: bool) -> u8 {
    let f = f32::from_bits(x);
    if f.is_nan() {
        return 0x7F;
    }
    if relu && f.is_sign_negative() {
        return 0;
    }
    let sign: u8 = if f.is_sign_negative() { 0x80 } else { 0 };
    let max: u8 = if e4m3 { 0x7E } else { 0x7B };
    if f.is_infinite() {
        return sign | max;
    }
    let format = if e4m3 { Format::E4m3 } else { Format::E5m2 };
    let Some(exact) = Exact::from_f64(f64::from(f)) else {
        return sign | max;
    };
    match format.encode(exact, Rounding::NearestEven) {
        Ok(code) => {
            let code = u8::try_from(code).unwrap_or(sign | max);
            // e5m2 has an Inf code; satfinite clamps it to the largest finite value.
            if !e4m3 && code & 0x7F == 0x7C {
                sign | max
            } else {
                code
            }
        }
        Err(_) => sign | max,
    }
}
